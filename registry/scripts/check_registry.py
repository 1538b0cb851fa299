#!/usr/bin/env python3
"""Validators across the whole coefficient registry (registry/README.md lists every rule).

usage: check_registry.py [--root ROOT]

Reads ROOT/registry/families.yaml, every coefficient set under ROOT/registry/sets/, every acceptance
profile set under ROOT/registry/acceptance/ and the chips and networks of ROOT/catalog/, and checks:
the schemas (VAL-1's method and sources), provenance (SUB-4), families and units, the sources each
method needs (VAL-1), identity uniqueness, scope precedence (VAL-4), completeness over every family and
catalog chip (VAL-2, SUB-7), intervals and fitted ranges (VAL-10), measurement boundaries (VAL-9),
kernel scope of fitted entries (D5, VAL-8), single-model entries (VAL-7), workload-keyed families
(D8) and acceptance profiles (D8). Exit 1 listing each refusal with file:line:col; entries VAL-10 flags
as unidentified are listed as notices and do not fail the run.

The same module is the library the writer framework (writer.py) validates its output with.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import os
import sys

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
CODE_ROOT = os.path.dirname(os.path.dirname(SCRIPTS))
sys.path.insert(0, os.path.join(CODE_ROOT, "gen"))

from blisgen.schema import Schema  # noqa: E402
from blisgen.yamlnodes import GenError, Value, load  # noqa: E402

SETS_DIR = "registry/sets"
ACCEPTANCE_DIR = "registry/acceptance"
FAMILIES = "registry/families.yaml"
HEADER = "# written by registry/scripts/{script}; do not edit"

# Design §9.2: the rank of each method. not_charged ranks with assumed (a term charged at nothing
# rests on no data, like an assumption), so one lookup may hold at most one of the two at a scope.
RANK = {"measured": 1, "calibrated": 2, "transferred": 3, "literature": 4, "vendor_spec": 5,
        "roofline": 6, "assumed": 7, "not_charged": 7}

# VAL-4: the one order of precedence over every scope dimension (registry/README.md says why).
# Between two entries of one rank that match one lookup, the one that states the earliest dimension
# the other leaves out wins; two entries stating the same dimensions are not ordered and are refused.
PRECEDENCE = ["kernel", "chip", "dtype", "model", "workload", "fabric", "span", "group_size",
              "tp", "ep", "pp", "dp", "cp"]

FITTED = ("measured", "calibrated")
LITERATURE_KINDS = {"paper", "whitepaper", "published"}
VENDOR_KINDS = {"datasheet", "whitepaper"}


@dataclasses.dataclass
class Finding:
    loc: str
    message: str
    rule: str            # the invariant the rule enforces
    files: tuple = ()    # the registry files involved (empty: a finding about the whole registry)

    def __str__(self) -> str:
        return f"{self.loc}: {self.message} [registry-validators; {self.rule}]"


@dataclasses.dataclass
class Doc:
    rel: str
    kind: str            # coefficient-set | acceptance-profile
    text: str
    value: Value | None  # None when the file is not valid YAML


@dataclasses.dataclass
class Entry:
    doc: Doc
    node: Value
    data: dict
    set: str
    family: str

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def scope(self) -> dict:
        return self.data.get("scope") or {}

    @property
    def method(self) -> str:
        return next(iter(self.data["method"]))

    @property
    def sources(self) -> dict:
        return self.data["method"][self.method]

    @property
    def rank(self) -> int:
        return RANK[self.method]

    @property
    def loc(self) -> str:
        return str(self.node.loc)

    def identity(self) -> tuple:
        return (self.set, self.name, canonical_scope(self.scope), self.method)

    def describe(self) -> str:
        return f"{self.name} {scope_text(self.scope)} ({self.method}, set {self.set})"


def canonical_scope(scope: dict) -> tuple:
    out = []
    for key in PRECEDENCE:
        if key in scope:
            v = scope[key]
            if key == "kernel":
                v = (v["library"], v["variant"], tuple(sorted(v["code_hashes"])))
            out.append((key, v))
    return tuple(out)


def scope_text(scope: dict) -> str:
    parts = []
    for key in PRECEDENCE:
        if key in scope:
            v = scope[key]
            if key == "kernel":
                v = f"{v['library']}/{v['variant']}"
            parts.append(f"{key}={v}")
    return "{" + ", ".join(parts) + "}"


# --- loading -----------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def registry_schemas(code_root: str = CODE_ROOT) -> dict[str, Schema]:
    """The registry's document schemas (schemas/registry/*.yaml), sharing schemas/common.yaml."""
    sdir = os.path.join(code_root, "schemas")
    common = Schema(os.path.join(sdir, "common.yaml"))
    out = {}
    for fname in sorted(os.listdir(os.path.join(sdir, "registry"))):
        if fname.endswith(".yaml"):
            s = Schema(os.path.join(sdir, "registry", fname), common)
            out[s.name] = s
    return out


class Registry:
    """Everything the rules read: families, catalog chips and networks, and the registry's files."""

    def __init__(self, root: str, overrides: dict[str, str] | None = None, removed: set[str] | None = None):
        self.root = os.path.abspath(root)
        self.schemas = registry_schemas()
        self.findings: list[Finding] = []
        self._files: dict[str, dict] = {}
        self.families = self._load_families()
        self.chips = self._load_catalog("catalog/hardware")
        self.networks = self._load_catalog("catalog/networks")
        texts = {}
        for top in (SETS_DIR, ACCEPTANCE_DIR):
            for rel in _yaml_files(self.root, top):
                with open(os.path.join(self.root, rel), encoding="utf-8") as f:
                    texts[rel] = f.read()
        for rel in removed or ():
            texts.pop(rel, None)
        texts.update(overrides or {})
        self.docs: list[Doc] = []
        for rel in sorted(texts):
            kind = "acceptance-profile" if rel.startswith(ACCEPTANCE_DIR + "/") else "coefficient-set"
            try:
                value = load(rel, text=texts[rel])
            except GenError as e:
                self.findings.append(Finding(rel, f"not loadable: {e}", "SUB-12", (rel,)))
                value = None
            self.docs.append(Doc(rel, kind, texts[rel], value))

    def _load_families(self) -> dict:
        path = os.path.join(self.root, FAMILIES)
        try:
            value = load(path, display=FAMILIES)
        except (GenError, OSError) as e:
            raise SystemExit(f"{FAMILIES}: cannot read the families list: {e}")
        errors = self.schemas["primitive-families"].validate(value)
        if errors:
            raise SystemExit("\n".join(errors))
        return value.plain()["families"]

    def _load_catalog(self, sub: str) -> dict[str, tuple[str, dict]]:
        out = {}
        for rel in _yaml_files(self.root, sub):
            try:
                data = load(os.path.join(self.root, rel), display=rel).plain()
            except GenError as e:
                self.findings.append(Finding(rel, f"catalog file not loadable: {e}", "SUB-12"))
                continue
            out[os.path.basename(rel)[:-5]] = (rel, data)
        return out

    def catalog_file(self, rel: str) -> dict:
        """A catalog file's data, read once; raises OSError or GenError."""
        if rel not in self._files:
            self._files[rel] = load(os.path.join(self.root, rel), display=rel).plain()
        return self._files[rel]

    def entries(self) -> list[Entry]:
        out = []
        for d in self.docs:
            if d.kind != "coefficient-set" or d.value is None or not isinstance(d.value.v, dict):
                continue
            data = d.value.plain()
            entries = d.value.v.get("entries")
            if entries is None or not isinstance(entries.v, list):
                continue
            for node in entries.v:
                e = node.plain()
                if isinstance(e, dict) and isinstance(e.get("method"), dict) and len(e["method"]) == 1 \
                        and next(iter(e["method"])) in RANK and isinstance(e.get("name"), str):
                    out.append(Entry(d, node, e, data.get("set"), data.get("family")))
        return out


def _yaml_files(root: str, sub: str) -> list[str]:
    base = os.path.join(root, sub)
    out = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith(".yaml"):
                out.append(os.path.relpath(os.path.join(dirpath, f), root))
    return sorted(out)


def resolve_field(data, path: str):
    """Reads a dotted field path with [i] list indexes; raises KeyError when it does not resolve."""
    cur = data
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("["):
            idx = int(part[1:-1])
            if not isinstance(cur, list) or idx >= len(cur):
                raise KeyError(path)
            cur = cur[idx]
        else:
            if not isinstance(cur, dict) or part not in cur:
                raise KeyError(path)
            cur = cur[part]
    return cur


# --- lookups ------------------------------------------------------------------------------------------

def compatible(a: dict, b: dict) -> bool:
    """True when some lookup matches both scopes: every key both state agrees."""
    for key in PRECEDENCE:
        if key in a and key in b:
            if key == "kernel":
                ka, kb = a[key], b[key]
                if ka["library"] != kb["library"] or ka["variant"] != kb["variant"] \
                        or not set(ka["code_hashes"]) & set(kb["code_hashes"]):
                    return False
            elif a[key] != b[key]:
                return False
    return True


def matches(scope: dict, lookup: dict) -> bool:
    """True when an entry of this scope answers the lookup: every key it states, the lookup has equal."""
    for key, v in scope.items():
        if key not in lookup:
            return False
        if key == "kernel":
            lk = lookup[key]
            if v["library"] != lk["library"] or v["variant"] != lk["variant"] \
                    or not set(v["code_hashes"]) & set(lk["code_hashes"]):
                return False
        elif v != lookup[key]:
            return False
    return True


def signature(scope: dict) -> tuple:
    return tuple(k in scope for k in PRECEDENCE)


def precedes(a: dict, b: dict) -> bool | None:
    """VAL-4: True if scope a outranks b, False if b outranks a, None if the precedence leaves them unordered."""
    sa, sb = signature(a), signature(b)
    if sa == sb:
        return None
    return sa > sb  # lexicographic over PRECEDENCE, stating a dimension beats leaving it out


def resolve(entries: list[Entry], name: str, lookup: dict) -> list[Entry]:
    """The entries that answer a lookup, best first: smallest rank, then scope precedence (VAL-4)."""
    found = [e for e in entries if e.name == name and matches(e.scope, lookup)]
    return sorted(found, key=lambda e: (e.rank, tuple(not s for s in signature(e.scope))))


def floor_lookups(chip: str, chip_data: dict, coefficient: dict) -> list[dict]:
    """The lookups VAL-2 demands an answer to for one coefficient on one chip (registry/README.md)."""
    varies = coefficient.get("varies_by") or []
    if "dtype" in varies:
        return [{"chip": chip, "dtype": d} for d in dtypes_of(chip_data)]
    if "span" in varies:
        return [{"chip": chip, "span": s} for s in spans_of(chip_data)]
    return [{"chip": chip}]


def dtypes_of(chip_data: dict) -> list[str]:
    return [d for d in sorted(chip_data.get("dense_peak") or {})]


def spans_of(chip_data: dict) -> list[str]:
    spans = ["node"]
    if chip_data.get("rack"):
        spans.append("rack")
    if chip_data.get("nic"):
        spans.append("fabric")
    return spans


# --- the rules ----------------------------------------------------------------------------------------

def check(reg: Registry, require_complete: bool = True) -> tuple[list[Finding], list[Finding]]:
    """Every rule over the loaded registry. Returns (refusals, notices)."""
    errors = list(reg.findings)
    notices: list[Finding] = []
    for d in reg.docs:
        if d.value is not None:
            errors += _check_doc(reg, d)
    entries = reg.entries()
    for e in entries:
        errors += _check_entry(reg, e, notices)
    errors += _check_identity(entries)
    errors += _check_precedence(entries)
    errors += _check_transfers(entries)
    errors += _check_acceptance(reg)
    if require_complete:
        errors += _check_complete(reg, entries)
    return errors, notices


def _check_doc(reg: Registry, d: Doc) -> list[Finding]:
    out = []
    f = (d.rel,)
    for msg in reg.schemas[d.kind].validate(d.value):
        loc, _, rest = msg.partition(": ")
        out.append(Finding(loc, rest, "VAL-1" if d.kind == "coefficient-set" else "D8", f))
    data = d.value.plain()
    if not isinstance(data, dict):
        return out
    # SUB-4: a writer wrote it; its header and written_by agree and name a writer that exists.
    written_by = data.get("written_by")
    first = d.text.split("\n", 1)[0]
    if isinstance(written_by, str):
        want = HEADER.format(script=os.path.basename(written_by))
        if first != want:
            out.append(Finding(f"{d.rel}:1:1", f"the first line must be '{want}': every registry file is "
                               f"written by its writer script, never by hand", "SUB-4", f))
        if not os.path.isfile(os.path.join(CODE_ROOT, written_by)):
            out.append(Finding(_loc(d.value, "written_by"), f"written_by names {written_by}, which does not exist",
                               "SUB-4", f))
    sources = data.get("sources") or {}
    if d.kind == "coefficient-set":
        want = f"{SETS_DIR}/{data.get('set')}/{data.get('family')}.yaml"
        if d.rel != want:
            out.append(Finding(f"{d.rel}:1:1", f"set {data.get('set')!r} of family {data.get('family')!r} belongs "
                               f"at {want}", "SUB-4", f))
        if data.get("family") not in reg.families and isinstance(data.get("family"), str):
            out.append(Finding(_loc(d.value, "family"), f"family {data['family']!r} is not in {FAMILIES}",
                               "VAL-2", f))
    else:
        want = f"{ACCEPTANCE_DIR}/{data.get('set')}.yaml"
        if d.rel != want:
            out.append(Finding(f"{d.rel}:1:1", f"profile set {data.get('set')!r} belongs at {want}", "SUB-4", f))
    used = _cited_keys(data)
    for key, loc in used:
        if key not in sources:
            out.append(Finding(loc(d.value), f"cites source {key!r}, which is not a key of the file's sources",
                               "VAL-1", f))
    return out


def _cited_keys(data: dict) -> list:
    """(source key, location getter) for every Cite in the file."""
    out = []
    items = data.get("entries") if "entries" in data else data.get("profiles")
    for i, item in enumerate(items or []):
        if not isinstance(item, dict):
            continue
        holder = item.get("method") if "method" in item else item.get("provenance")
        if not isinstance(holder, dict):
            continue
        for m in ("literature", "vendor_spec", "cited"):
            c = holder.get(m)
            if isinstance(c, dict) and isinstance(c.get("cite"), dict) and "source" in c["cite"]:
                top = "entries" if "entries" in data else "profiles"
                out.append((c["cite"]["source"], lambda v, i=i, top=top: _loc(v, top, i)))
    return out


def _loc(value: Value, *path) -> str:
    cur = value
    for p in path:
        try:
            cur = cur.v[p]
        except (KeyError, IndexError, TypeError):
            break
    return str(cur.loc)


def _check_entry(reg: Registry, e: Entry, notices: list[Finding]) -> list[Finding]:
    out = []
    f = (e.doc.rel,)
    fam = reg.families.get(e.family)
    # Family and coefficient declared; the unit and boundary are the ones its formula declares.
    if fam is not None:
        prefix = e.family + "."
        coef = e.name[len(prefix):] if e.name.startswith(prefix) else None
        decl = fam["coefficients"].get(coef) if coef else None
        if decl is None:
            out.append(Finding(e.loc, f"{e.name} is not a coefficient of family {e.family} in {FAMILIES} "
                               f"(declared: {', '.join(prefix + c for c in fam['coefficients'])})", "VAL-2", f))
        else:
            if e.data.get("unit") != decl["unit"]:
                out.append(Finding(e.loc, f"{e.name} is in {e.data.get('unit')}; {FAMILIES} declares "
                                   f"{decl['unit']}", "VAL-1", f))
            b, want = e.data.get("boundary") or {}, decl["boundary"]
            if b.get("time") != want["time"] or b.get("execution") not in (want["execution"], "independent"):
                out.append(Finding(e.loc, f"{e.name} states boundary time={b.get('time')}, execution="
                                   f"{b.get('execution')}; its formula reads time={want['time']}, execution="
                                   f"{want['execution']} (a value measured otherwise is read by another "
                                   f"coefficient)", "VAL-9", f))
        # D8: a workload property is keyed by workload identity, never by chip or model alone.
        if fam["workload_keyed"]:
            if "workload" not in e.scope and not (e.method in ("assumed", "not_charged") and not e.scope):
                out.append(Finding(e.loc, f"{e.name} is a workload property (family {e.family} is workload-keyed): "
                                   f"its scope states a workload; only an assumed or not_charged entry with an "
                                   f"empty scope may leave it out", "D8", f))
        elif "workload" in e.scope:
            out.append(Finding(e.loc, f"{e.name} states a workload, but family {e.family} is not workload-keyed "
                               f"in {FAMILIES}", "D8", f))
    # VAL-1: the value, and the sources each method needs beyond what the schema states.
    has_value = "value" in e.data
    if e.method == "not_charged" and has_value:
        out.append(Finding(e.loc, f"{e.name} is not_charged and so has no value", "VAL-1", f))
    if e.method != "not_charged" and not has_value:
        out.append(Finding(e.loc, f"{e.name} ({e.method}) has no value", "VAL-1", f))
    src = e.sources if isinstance(e.sources, dict) else {}
    sources = e.doc.value.plain().get("sources") or {}
    if e.method in ("literature", "vendor_spec") and isinstance(src.get("cite"), dict):
        kind = (sources.get(src["cite"].get("source")) or {}).get("kind")
        allowed = LITERATURE_KINDS if e.method == "literature" else VENDOR_KINDS
        if kind is not None and kind not in allowed:
            out.append(Finding(e.loc, f"{e.name} is {e.method} but cites a source of kind {kind} "
                               f"(allowed: {', '.join(sorted(allowed))})", "VAL-1", f))
    if e.method == "roofline":
        out += _check_facts(reg, e, src)
    # D5, VAL-8: a fitted value names the chip and exact kernel implementation its data exercised.
    out += _check_curve(e, fam)
    out += _check_physics(e)
    if e.method in FITTED:
        out += _check_units(e, src)
        missing = [k for k in ("chip", "kernel") if k not in e.scope]
        if missing:
            out.append(Finding(e.loc, f"{e.name} is {e.method} but its scope leaves out {' and '.join(missing)}: "
                               f"a fitted value is keyed by the chip and kernel implementation its data "
                               f"exercised (otherwise it is transferred, with its rule)", "D5", f))
        out += _check_fit(reg, e, src, fam, notices)
    # VAL-7: a single-model entry names the general form the cost model lacks.
    if "model" in e.scope and not e.data.get("missing_form"):
        out.append(Finding(e.loc, f"{e.name} is scoped to model {e.scope['model']} and must name the missing "
                           f"general form (missing_form)", "VAL-7", f))
    if "chip" in e.scope and reg.chips and e.scope["chip"] not in reg.chips:
        out.append(Finding(e.loc, f"{e.name} is scoped to chip {e.scope['chip']}, which is not in "
                           f"catalog/hardware/", "VAL-2", f))
    return out


CURVED = ("measured", "calibrated", "transferred")


def _check_physics(e: Entry) -> list[Finding]:
    """SUB-5: an efficiency (value and every curve value) lies in (0, 1], a fraction of the datasheet peak;
    a time (unit seconds: a per-call latency, a host time) is never negative."""
    if e.data.get("unit") == "seconds":
        v = e.data.get("value")
        if isinstance(v, (int, float)) and v < 0:
            return [Finding(e.loc, f"{e.name}: value {v} s is negative: no primitive takes less than no time",
                            "SUB-5", (e.doc.rel,))]
        return []
    if not e.name.endswith("_efficiency"):
        return []
    vals = []
    if isinstance(e.data.get("value"), (int, float)):
        vals.append(("value", e.data["value"]))
    curve = e.data.get("curve")
    if isinstance(curve, dict):
        vals += [(f"curve value {i}", v) for i, v in enumerate(curve.get("values") or []) if isinstance(v, (int, float))]
    for what, v in vals:
        if not 0 < v <= 1:
            return [Finding(e.loc, f"{e.name}: {what} = {v} is not in (0, 1]: an efficiency above 1 implies more "
                            f"than the chip's datasheet peak", "SUB-5", (e.doc.rel,))]
    return []


def _check_curve(e: Entry, fam: dict | None) -> list[Finding]:
    """A curve: on a fitted or transferred entry only; axes name distinct inputs of the family; points
    strictly increasing; one finite value per grid point (schema Curve; forms.py reads it)."""
    curve = e.data.get("curve")
    if not isinstance(curve, dict):
        return []
    out = []
    f = (e.doc.rel,)
    if e.method not in CURVED:
        out.append(Finding(e.loc, f"{e.name} has a curve but is {e.method}: only a measured, calibrated or "
                           f"transferred entry carries a fitted curve", "VAL-10", f))
    axes = curve.get("axes") or []
    size = 1
    seen = set()
    for ax in axes:
        if not isinstance(ax, dict):
            continue
        name, pts = ax.get("input"), ax.get("points") or []
        if fam is not None and name not in fam["inputs"]:
            out.append(Finding(e.loc, f"{e.name}: curve axis {name!r} is not an input of {e.family} "
                               f"(inputs: {', '.join(fam['inputs'])})", "VAL-10", f))
        if name in seen:
            out.append(Finding(e.loc, f"{e.name}: curve axis {name!r} appears twice", "VAL-10", f))
        seen.add(name)
        nums = [p for p in pts if isinstance(p, (int, float)) and not isinstance(p, bool)]
        if any(not math.isfinite(p) for p in nums) or any(b <= a for a, b in zip(nums, nums[1:])):
            out.append(Finding(e.loc, f"{e.name}: curve axis {name!r} points {pts} are not finite and strictly "
                               f"increasing", "VAL-10", f))
        size *= len(pts)
    vals = curve.get("values") or []
    if axes and len(vals) != size:
        out.append(Finding(e.loc, f"{e.name}: curve has {len(vals)} values for a grid of {size} points (the "
                           f"product of the axes' point counts)", "VAL-10", f))
    if any(isinstance(v, (int, float)) and not math.isfinite(v) for v in vals):
        out.append(Finding(e.loc, f"{e.name}: curve values are not all finite", "VAL-10", f))
    return out


def _check_units(e: Entry, fit: dict) -> list[Finding]:
    """D1: the cited operator-table units all have role fit (units.py); D5: the kernel's identity hashes
    are exactly the identities of the units cited (a measurement identity: aicdata.py)."""
    import aicdata
    import units
    out = []
    f = (e.doc.rel,)
    cited = [u for u in fit.get("data_units") or [] if isinstance(u, str) and u.startswith(units.SOURCE + ":")]
    # A unit set (`<prefix>*`) holds fit units by definition; its prefix must reach the sweep key's kernel.
    sets = [u for u in cited if u.endswith("*")]
    short = [u for u in sets if u.count(":") < 3 or "/" not in u.split(":", 3)[3]]
    if short:
        out.append(Finding(e.loc, f"{e.name} cites the unit set {short[0]}, whose prefix stops before the end of the "
                           f"sweep key's kernel part: a set names one kernel's units", "D1", f))
        return out
    bad = [u for u in cited if not u.endswith("*") and (u.count(":") < 3 or units.role(u) != "fit")]
    if bad:
        out.append(Finding(e.loc, f"{e.name} cites {len(bad)} unit(s) whose role is not fit (units.py), e.g. "
                           f"{bad[0]} ({units.role(bad[0]) if bad[0].count(':') >= 3 else 'not a unit ID'}): a "
                           f"fitted value cites only fit units", "D1", f))
    kernel = e.scope.get("kernel")
    if cited and isinstance(kernel, dict) and not bad:
        want = sorted({aicdata.unit_identity(u) for u in cited})
        have = sorted(kernel.get("code_hashes") or [])
        if want != have:
            out.append(Finding(e.loc, f"{e.name}: kernel code_hashes {have} are not the identities of the units it "
                               f"cites {want}: its data did not exercise the kernel it is keyed by", "D5", f))
    return out


def _check_facts(reg: Registry, e: Entry, src: dict) -> list[Finding]:
    out = []
    f = (e.doc.rel,)
    for fact in src.get("facts") or []:
        try:
            data = reg.catalog_file(fact.get("file", ""))
            got = resolve_field(data, fact["field"])
        except (OSError, GenError):
            out.append(Finding(e.loc, f"{e.name}: roofline fact file {fact.get('file')} cannot be read",
                               "VAL-1", f))
            continue
        except KeyError:
            out.append(Finding(e.loc, f"{e.name}: roofline fact {fact['field']} is not in {fact['file']}",
                               "VAL-1", f))
            continue
        if isinstance(got, bool) or not isinstance(got, (int, float)) or float(got) != float(fact["value"]):
            out.append(Finding(e.loc, f"{e.name}: roofline fact {fact['file']}:{fact['field']} is {got!r} in the "
                               f"catalog, not {fact['value']!r}: rerun the writer", "VAL-1", f))
    return out


def _check_fit(reg: Registry, e: Entry, fit: dict, fam: dict | None, notices: list[Finding]) -> list[Finding]:
    """VAL-10: the interval holds the value; the fitted range names the family's inputs."""
    out = []
    f = (e.doc.rel,)
    iv = fit.get("interval_95")
    value = e.data.get("value")
    if isinstance(iv, dict) and isinstance(value, (int, float)):
        low, high = iv.get("low"), iv.get("high")
        if low is not None and high is not None and low > high:
            out.append(Finding(e.loc, f"{e.name}: interval_95 low {low} is above high {high}", "VAL-10", f))
        elif (low is not None and value < low) or (high is not None and value > high):
            out.append(Finding(e.loc, f"{e.name}: value {value} lies outside its own interval_95 "
                               f"[{low}, {high}]", "VAL-10", f))
        elif low is None or high is None:
            notices.append(Finding(e.loc, f"{e.name} is unidentified: its interval_95 is unbounded; it ranks "
                                   f"with assumed for VAL-3", "VAL-10", f))
        elif high - low > abs(value) / 2:
            notices.append(Finding(e.loc, f"{e.name} is unidentified: its interval_95 [{low}, {high}] is wider "
                                   f"than half its value {value}; it ranks with assumed for VAL-3", "VAL-10", f))
    for key, rng in (fit.get("input_range") or {}).items():
        if fam is not None and key not in fam["inputs"]:
            out.append(Finding(e.loc, f"{e.name}: input_range names {key!r}, not an input of {e.family} "
                               f"(inputs: {', '.join(fam['inputs'])})", "VAL-10", f))
        if isinstance(rng, dict) and isinstance(rng.get("min"), (int, float)) \
                and isinstance(rng.get("max"), (int, float)) and rng["min"] > rng["max"]:
            out.append(Finding(e.loc, f"{e.name}: input_range {key} has min {rng['min']} above max {rng['max']}",
                               "VAL-10", f))
    return out


def _check_identity(entries: list[Entry]) -> list[Finding]:
    out = []
    seen: dict[tuple, Entry] = {}
    for e in entries:
        key = e.identity()
        if key in seen:
            first = seen[key]
            out.append(Finding(e.loc, f"{e.describe()} has the identity (set, name, scope, method) of the entry "
                               f"at {first.loc}", "VAL-4", (e.doc.rel, first.doc.rel)))
        else:
            seen[key] = e
    return out


def _check_precedence(entries: list[Entry]) -> list[Finding]:
    """VAL-4: two entries of one rank that can answer one lookup must be ordered by the precedence."""
    out = []
    groups: dict[tuple, list[Entry]] = {}
    for e in entries:
        groups.setdefault((e.name, e.rank), []).append(e)
    for (name, rank), group in sorted(groups.items()):
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if a.identity() == b.identity():
                    continue  # reported as a duplicate identity
                if compatible(a.scope, b.scope) and precedes(a.scope, b.scope) is None:
                    out.append(Finding(b.loc, f"{b.describe()} and {a.describe()} at {a.loc} both answer a lookup "
                                       f"at rank {rank} and state the same scope dimensions, so the precedence of "
                                       f"registry/README.md does not order them", "VAL-4", (a.doc.rel, b.doc.rel)))
    return out


def _check_transfers(entries: list[Entry]) -> list[Finding]:
    out = []
    ids = {e.identity() for e in entries}
    for e in entries:
        if e.method != "transferred" or not isinstance(e.sources, dict):
            continue
        ref = e.sources.get("from") or {}
        key = (ref.get("set"), ref.get("name"), canonical_scope(ref.get("scope") or {}), ref.get("method"))
        if ref.get("method") not in FITTED:
            out.append(Finding(e.loc, f"{e.name} is transferred from a {ref.get('method')} entry; a transfer moves "
                               f"a measured or calibrated value", "VAL-1", (e.doc.rel,)))
        elif key not in ids:
            out.append(Finding(e.loc, f"{e.name} is transferred from {ref.get('name')} "
                               f"{scope_text(ref.get('scope') or {})} ({ref.get('method')}, set {ref.get('set')}), "
                               f"which is not in the registry", "VAL-1", (e.doc.rel,)))
    return out


def _check_complete(reg: Registry, entries: list[Entry]) -> list[Finding]:
    """VAL-2, SUB-7: every coefficient of every family answers every floor lookup on every catalog chip."""
    out = []
    if not reg.chips:
        return [Finding("catalog/hardware", "no catalog chips: completeness cannot be judged", "VAL-2")]
    by_name: dict[str, list[Entry]] = {}
    for e in entries:
        by_name.setdefault(e.name, []).append(e)
    for fam_name, fam in reg.families.items():
        for coef_name, coef in fam["coefficients"].items():
            name = f"{fam_name}.{coef_name}"
            for chip, (rel, data) in sorted(reg.chips.items()):
                for lookup in floor_lookups(chip, data, coef):
                    if not any(matches(e.scope, lookup) for e in by_name.get(name, [])):
                        out.append(Finding(rel, f"no entry answers {name} {scope_text(lookup)}: every family has a "
                                           f"value on every catalog chip (rerun registry/scripts/write_floor.py)",
                                           "VAL-2"))
    return out


def _check_acceptance(reg: Registry) -> list[Finding]:
    """D8: profile figures are consistent, and no exact key is held twice."""
    out = []
    seen: dict[tuple, tuple[str, str]] = {}
    for d in reg.docs:
        if d.kind != "acceptance-profile" or d.value is None or not isinstance(d.value.v, dict):
            continue
        plist = d.value.v.get("profiles")
        if plist is None or not isinstance(plist.v, list):
            continue
        set_name = d.value.plain().get("set")
        for node in plist.v:
            p = node.plain()
            if not isinstance(p, dict) or not isinstance(p.get("k"), int):
                continue
            loc, f = str(node.loc), (d.rel,)
            k, al = p["k"], p.get("mean_acceptance_length")
            if isinstance(al, (int, float)) and al > k + 1:
                out.append(Finding(loc, f"mean_acceptance_length {al} exceeds K + 1 = {k + 1}", "D8", f))
            rates = p.get("position_rates")
            if isinstance(rates, list):
                if len(rates) != k:
                    out.append(Finding(loc, f"position_rates has {len(rates)} rates for K = {k} positions", "D8", f))
                if any(isinstance(a, (int, float)) and isinstance(b, (int, float)) and b > a
                       for a, b in zip(rates, rates[1:])):
                    out.append(Finding(loc, "position_rates increase with position: a token is accepted only "
                                       "after every earlier one", "D8", f))
            key = (p.get("target"), repr(p.get("drafter")), p.get("method"), k, p.get("category"),
                   p.get("thinking"), repr(p.get("sampling")), p.get("rejection"))
            if key in seen:
                other_set, other_loc = seen[key]
                what = "twice in one set" if other_set == set_name else f"in two sets ({other_set}, {set_name})"
                out.append(Finding(loc, f"the exact key of this profile is held {what}, first at {other_loc}: the "
                                   f"lookup would be ambiguous", "D8", f))
            else:
                seen[key] = (set_name, loc)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", default=CODE_ROOT, help="the tree holding registry/ and catalog/ (default: this checkout)")
    a = p.parse_args(argv)
    reg = Registry(a.root)
    errors, notices = check(reg)
    for n in notices:
        print(f"notice: {n}")
    for e in errors:
        print(e)
    n_entries = len(reg.entries())
    if errors:
        print(f"check-registry: {len(errors)} refusal(s) in {len(reg.docs)} file(s), {n_entries} entries")
        return 1
    print(f"check-registry: {len(reg.docs)} file(s), {n_entries} entries, {len(reg.chips)} chip(s), "
          f"{len(reg.families)} families: valid ({len(notices)} unidentified)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
