"""Fits one table (one family, chip and kernel) into registry entries: measured or calibrated, each with
its curve, interval, input range and cited fit units; and the transferred entries built from them.

Shared by write_measured.py (the writer) and accuracy_report.py (which reads the committed entries back).
"""
from __future__ import annotations

import math
import os

import yaml

import aicdata
import fitcurve
import forms
import units

SET_MEASURED = "measured"
SET_TRANSFERRED = "transferred"
BOUNDARY = {"time": "device", "execution": "independent"}

# Curve axes per family: (input, breakpoint spacing in octaves per candidate). The candidates are
# tried on the fit units; the one with the smallest median error on the select units is kept.
AXES = {
    "gemm": (["m", "n", "k"], [(2, 2, 2), (1, 2, 2)]),
    # active_experts: the per-expert token count (routed_tokens / active_experts) sets each expert's
    # padded tile count, which routed_tokens alone does not tell (held error 23-27% -> 9-15% on H100).
    "moe.grouped_gemm": (["routed_tokens", "active_experts", "n", "k"], [(2, 2, 2, 2), (1, 1, 2, 2)]),
    "attention.prefill": (["requests", "new_tokens", "heads_q", "head_dim"], [(3, 3, 2, 1), (2, 2, 2, 1)]),
    "attention.decode": (["requests", "context_tokens", "heads_kv", "head_dim"], [(3, 3, 1, 1), (2, 2, 1, 1)]),
    "attention.mla_prefill": (["requests", "new_tokens", "heads"], [(2, 2, 2), (1, 1, 1)]),
    "attention.mla_decode": (["requests", "context_tokens", "heads"], [(2, 2, 2), (1, 1, 1)]),
    "collective": (["bytes", "group_size"], [(2, 1), (1, 1)]),
}
MEMORY_KINDS = {"attention.decode", "attention.mla_decode"}  # kind: memory (a FLOP term still in the max)

TABLE_SOURCE = "ai-dynamo/aiconfigurator at 095f58a51c4c, ../shared/data"


def is_link(family: str) -> bool:
    return family.startswith("collective.") or family == "p2p.send_recv"


def axes_key(family: str) -> str:
    return "collective" if is_link(family) else family


# --- chip rates from the floor set (the cost model reads the same entries) ---------------------------

class Rates:
    def __init__(self, root: str):
        self.root = root
        self._cache: dict = {}

    def _file(self, family: str) -> list[dict]:
        if family not in self._cache:
            with open(os.path.join(self.root, "registry", "sets", "floor", family + ".yaml"), encoding="utf-8") as f:
                self._cache[family] = yaml.safe_load(f)["entries"]
        return self._cache[family]

    def get(self, family: str, coef: str, scope: dict) -> float | None:
        for e in self._file(family):
            if e["name"] == f"{family}.{coef}" and e["scope"] == scope and "roofline" in e["method"]:
                return float(e["value"])
        return None

    def compute(self, family, chip, dtype):
        return self.get(family, "compute_rate", {"chip": chip, "dtype": dtype})

    def memory(self, family, chip):
        return self.get(family, "memory_rate", {"chip": chip})

    def link(self, family, chip, span="node"):
        return self.get(family, "link_rate", {"chip": chip, "span": span})


def T_of(family: str, row, chip: str, dtype: str, rates: Rates) -> float:
    """The time the efficiency divides: the roofline time, or bus bytes over the link rate."""
    if is_link(family):
        return forms.bus_bytes(family, row.inputs) / rates.link(family, chip)
    return forms.roofline_time(family, row.inputs, row.formats, rates.compute(family, chip, dtype),
                               rates.memory(family, chip))


# --- fitting one table --------------------------------------------------------------------------------

class Result:
    def __init__(self, table, fit, median_point, value, interval, latency_value, latency_interval, latency_curve,
                 input_range, fit_units, select_ape, chosen, note_extra):
        self.table, self.fit, self.median_point, self.value = table, fit, median_point, value
        self.interval = interval
        self.latency_value, self.latency_interval, self.latency_curve = latency_value, latency_interval, latency_curve
        self.input_range, self.fit_units, self.select_ape, self.chosen = input_range, fit_units, select_ape, chosen
        self.note_extra = note_extra
        self.cited_units = fit_units


def split(rows):
    out = {"fit": [], "select": [], "validate": [], "held": []}
    for r in rows:
        out[units.role(r.unit)].append(r)
    return out


def fit_table(t: aicdata.Table, rates: Rates, families: dict) -> Result | None:
    roles = split(t.rows)
    if not roles["fit"]:
        return None
    names, candidates = AXES[axes_key(t.family)]
    T = {id(r): T_of(t.family, r, t.chip, t.dtype, rates) for r in t.rows}
    # A row faster than the roofline allows (the family's FLOP and byte formulas at the chip's peaks) is
    # beyond physics for this pricing form (SUB-5): it is left out of the fit and counted in the note.
    fit_rows = [r for r in roles["fit"] if T[id(r)] <= r.seconds]
    beyond = len(roles["fit"]) - len(fit_rows)
    if not fit_rows:
        return None
    # Every fitted family has a fixed time per call (forms.py). A collective's grows with its group: the
    # fit units' group sizes are whole sweeps, so it is fitted as a + b (n - 1) when they hold two sizes or
    # more (one fixed latency for every group size was 28% off on the 2-rank sweeps it was fitted to).
    lat = latency_model(t, fit_rows)
    best = None
    for steps in candidates:
        axes = [fitcurve.axis(n, min(r.inputs[n] for r in fit_rows), max(r.inputs[n] for r in fit_rows), s)
                for n, s in zip(names, steps)]
        grid = fitcurve.Grid(axes)
        obs = [fitcurve.Obs(forms.corners(axes, r.inputs), T[id(r)], r.seconds, r.unit, lat.weights(r.inputs))
               for r in fit_rows]
        f = fitcurve.fit(grid, obs, lat.terms)
        sel = [fitcurve.ape(f.predict(forms.corners(axes, r.inputs), T[id(r)], lat.weights(r.inputs)), r.seconds)
               for r in roles["select"]]
        score = fitcurve.median(sel) if sel else float("inf")
        if best is None or score < best[0]:
            best = (score, steps, f, obs)
        if not sel:
            break  # no select unit: the first (coarsest) candidate, said in the note
    score, steps, f, obs = best
    fam_inputs = families[t.family]["inputs"]
    point = {}
    for n in fam_inputs:
        vals = [r.inputs[n] for r in fit_rows if n in r.inputs]
        if vals:
            point[n] = fitcurve.median(vals)
    value = forms.curve_value(f.curve(), point)
    seed = f"{t.identity_text()}:{t.family}"
    lo, hi, _ = fitcurve.bootstrap(f, obs, lambda g: forms.curve_value(g.curve(), point), seed)
    lat_value = f.latency_at(lat.weights(point))
    llo, lhi, _ = fitcurve.bootstrap(f, obs, lambda g: g.latency_at(lat.weights(point)), seed + ":latency")
    lat_iv = (min(llo, lat_value), max(lhi, lat_value))
    rng = {}
    for n in fam_inputs:
        vals = [r.inputs[n] for r in fit_rows if n in r.inputs]
        if vals:
            rng[n] = {"min": _num(min(vals)), "max": _num(max(vals))}
    fit_units = sorted({r.unit for r in roles["fit"]})
    chosen = "breakpoints every " + ", ".join(f"{s:g} octave(s) of {n}" for n, s in zip(names, steps))
    chosen += (f", chosen on {len({r.unit for r in roles['select']})} select units (median error {score:.3f})"
               if roles["select"] else ", the coarsest candidate (the table has no select unit)")
    extra = (f"{beyond} of the {len(roles['fit'])} fit rows run faster than the roofline of this form allows "
             f"(efficiency above 1 at the chip's datasheet peaks: the table's kernel does less work than the "
             f"family's formulas count) and were left out of the fit; the accuracy report still prices them."
             if beyond else "")
    return Result(t, f, point, value, (min(lo, value), max(hi, value)), lat_value, lat_iv, lat.curve(f), rng,
                  fit_units, score, chosen, extra)


class LatencyModel:
    """The latency's terms and each row's weights (fitcurve.Obs): one fixed time per call, or, for a
    collective fitted on two group sizes or more, a + b (n - 1). The second is written as a curve over
    group_size (linear scale; a line is exact between two points) from the smallest fitted group size to
    the largest the table's sweeps hold: beyond the fitted sizes the line is extrapolated, and a lookup
    there is flagged so by the entry's input range (VAL-10)."""

    def __init__(self, per_peer: bool, lo: float = 0.0, hi: float = 0.0):
        self.per_peer, self.lo, self.hi = per_peer, lo, hi
        self.terms = 2 if per_peer else 1

    def weights(self, inputs: dict) -> list[tuple[int, float]]:
        if not self.per_peer:
            return [(0, 1.0)]
        return [(0, 1.0), (1, float(inputs["group_size"]) - 1.0)]

    def curve(self, f: fitcurve.Fit) -> dict | None:
        if not self.per_peer:
            return None
        pts = [self.lo, self.hi]
        return {"axes": [{"input": "group_size", "scale": "linear", "points": pts}],
                "values": [f.latency_at(self.weights({"group_size": p})) for p in pts]}


def latency_model(t: aicdata.Table, fit_rows) -> LatencyModel:
    if not is_link(t.family) or t.family == "p2p.send_recv":
        return LatencyModel(False)
    fitted = sorted({float(r.inputs["group_size"]) for r in fit_rows})
    if len(fitted) < 2:
        return LatencyModel(False)
    swept = max(float(r.inputs["group_size"]) for r in t.rows)
    return LatencyModel(True, fitted[0], max(fitted[-1], swept))


def cite_units(fit_units: list[str], all_units: set[str]) -> list[str]:
    """The citation of a table's fit units (D1): one unit set `<prefix>*` (every unit whose ID starts with
    the prefix and whose role is fit, units.py) when that set, taken over every unit the data hold, is
    exactly the units fitted; otherwise the IDs themselves. The prefix ends at a '/' or ':' after the
    sweep key's kernel part, so the kernel identity (aicdata.unit_identity) reads from it."""
    if len(fit_units) < 2:
        return list(fit_units)
    prefix = fit_units[0]
    for u in fit_units[1:]:
        n = 0
        while n < min(len(prefix), len(u)) and prefix[n] == u[n]:
            n += 1
        prefix = prefix[:n]
    cut = max(prefix.rfind("/"), prefix.rfind(":"))
    prefix = prefix[:cut + 1]
    if prefix.count(":") < 3 or "/" not in prefix.split(":", 3)[3]:
        return list(fit_units)
    covered = sorted(u for u in all_units if u.startswith(prefix) and units.role(u) == "fit")
    return [prefix + "*"] if covered == sorted(fit_units) else list(fit_units)


def _num(x):
    return int(x) if float(x).is_integer() else float(x)


# --- entries --------------------------------------------------------------------------------------------

def kernel_scope(t: aicdata.Table) -> dict:
    return {"library": t.library, "variant": t.variant, "code_hashes": [t.code_hash()]}


def measured_scope(t: aicdata.Table) -> dict:
    s = {"kernel": kernel_scope(t), "chip": t.chip}
    if is_link(t.family):
        s["span"] = "node"
    else:
        s["dtype"] = t.dtype
    return s


def coefficients(family: str) -> list[str]:
    if is_link(family):
        return ["link_efficiency", "latency"]
    return ["compute_efficiency", "memory_efficiency", "latency"]


def _round(x: float) -> float:
    return float(f"{x:.6g}")


def measured_entries(res: Result) -> list[dict]:
    t = res.table
    scope = measured_scope(t)
    curve = {"axes": [dict(a, points=[_round(p) for p in a["points"]]) for a in res.fit.grid.axes],
             "values": [_round(v) for v in res.fit.values]}
    what = ("link efficiency: t = latency + bus_bytes / (link_rate x curve)"
            + ("; latency = a + b (group_size - 1), written as a curve over group_size from the smallest fitted "
               "group size to the largest the table sweeps" if res.latency_curve is not None else "")
            if is_link(t.family) else
            "t = latency + t_roofline(x) / e(x), one curve e(x) written as both compute_efficiency and "
            "memory_efficiency (a kernel time cannot separate them)")
    note = (f"Fitted to table {t.aic_chip}:{t.table} ({TABLE_SOURCE}): kernel {t.library}/{t.variant}, data format {t.fmt}. "
            f"{what}; curve axes: {', '.join(a['input'] for a in curve['axes'])} (log2; sums over requests are "
            f"the step totals); {res.chosen}. value: the curve at the fit data's median input; interval: "
            f"bootstrap over fit units. Kernel code_hashes[0] is a measurement identity, SHA-256 of "
            f"'{t.identity_text()}', not a source hash: the table records none.")
    if res.note_extra:
        note += " " + res.note_extra
    if t.note:
        note += " " + t.note
    fit_src = {"data_units": res.cited_units, "harness": aicdata.HARNESS,
               "interval_95": {"low": _round(res.interval[0]), "high": _round(res.interval[1]), "how": "bootstrap"},
               "input_range": res.input_range}
    out = []
    value = _round(res.value)
    fit_src["interval_95"]["low"] = min(fit_src["interval_95"]["low"], value)
    fit_src["interval_95"]["high"] = max(fit_src["interval_95"]["high"], value)
    for coef in coefficients(t.family):
        e = {"name": f"{t.family}.{coef}", "scope": scope, "unit": "ratio", "boundary": BOUNDARY,
             "method": {t.method: fit_src}, "note": note}
        if coef == "latency":
            lat = _round(res.latency_value)
            lo, hi = res.latency_interval
            e.update(value=lat, unit="seconds",
                     method={t.method: dict(fit_src, interval_95={"low": min(_round(lo), lat), "high": max(_round(hi), lat),
                                                                  "how": "bootstrap"})})
            if res.latency_curve is not None:
                lc = res.latency_curve
                e["curve"] = {"axes": [dict(a, points=[_round(p) for p in a["points"]]) for a in lc["axes"]],
                              "values": [_round(v) for v in lc["values"]]}
        else:
            e.update(value=value, curve=curve)
        out.append(e)
    return out


def ref(e: dict) -> dict:
    return {"set": SET_MEASURED, "name": e["name"], "scope": e["scope"], "method": next(iter(e["method"]))}


PINNED_RULE = (
    "Same chip{dtype}, the pinned engine releases' kernel: the operator tables record no kernel code hash and "
    "were measured under older engine releases, so the kernel the pinned releases run cannot be shown to be "
    "the one measured ({kernel}; D5, VAL-8). The value{curve} is moved unchanged from that measured entry, "
    "the kernel this chip's table measured most of for the data type.")
GENERATION_RULE = (
    "{target} has no operator measurements. It is a {arch} chip, the architecture generation of {source}, "
    "whose measured entry ({kernel}) this is: the efficiency, a fraction of each chip's own peak, is moved "
    "unchanged{curve}; the cost model multiplies it by {target}'s own catalog peaks and bandwidth. Chips of "
    "another generation (and chips of none measured, e.g. L40S) keep the floor.")


def transferred(src: dict, target_chip: str, rule: str) -> dict:
    scope = {k: v for k, v in src["scope"].items() if k != "kernel"}
    scope["chip"] = target_chip
    e = {"name": src["name"], "scope": scope, "value": src["value"]}
    if "curve" in src:
        e["curve"] = src["curve"]
    e.update(unit=src["unit"], boundary=src["boundary"],
             method={"transferred": {"from": ref(src), "rule": rule}})
    return e
