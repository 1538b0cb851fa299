#!/usr/bin/env python3
"""Fixed points for the C++ cost model's agreement test: registry/scripts/test/fixtures/agreement.json.

Each point names a family, a chip, the kernel identity the lookup carries (or none: the pinned engines'
lookups, answered by transferred entries), the compute dtype, the family inputs, the data formats, the
entries that answer it and the seconds forms.py prices from the committed registry (floor rates and the
fitted or transferred efficiency curves). The C++ side must give the same seconds (relative 1e-9).

The inputs are taken, with --data, from one held row of each fitted table (plus the same rows looked up
on the chips that receive a transferred entry by generation); without --data the committed points'
inputs are re-priced. --check re-prices and compares (no ../shared read).

usage: agreement_points.py [--root ROOT] [--data DIR] [--check]
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_report as ar  # noqa: E402
import aicdata  # noqa: E402
import fitfamily as ff  # noqa: E402
import forms  # noqa: E402
import units  # noqa: E402

OUT = "registry/scripts/test/fixtures/agreement.json"


def answer(entries, family, coef, chip, kernel_hash, dtype):
    """The entry a lookup resolves to among the fitted sets: kernel-keyed measured first, else transferred."""
    best = None
    for e in entries:
        if e["name"] != f"{family}.{coef}" or e["scope"].get("chip") != chip:
            continue
        if not ff.is_link(family) and e["scope"].get("dtype") != dtype:
            continue
        k = e["scope"].get("kernel")
        if k is not None and kernel_hash not in k["code_hashes"]:
            continue
        rank = 1 if k is not None else 3
        if best is None or rank < best[0]:
            best = (rank, e)
    return best[1] if best else None


def price(root, entries, p) -> tuple[float, list[str]]:
    rates = ff.Rates(root)
    fam, chip = p["family"], p["chip"]
    h = p["kernel"]["code_hash"] if p["kernel"] else None
    if ff.is_link(fam):
        eff = answer(entries, fam, "link_efficiency", chip, h, None)
        lat = answer(entries, fam, "latency", chip, h, None)
        s = forms.link_time(fam, p["inputs"], rates.link(fam, chip), forms.coefficient(eff, p["inputs"]),
                            forms.coefficient(lat, p["inputs"]))
        used = [eff, lat]
    else:
        ce = answer(entries, fam, "compute_efficiency", chip, h, p["dtype"])
        me = answer(entries, fam, "memory_efficiency", chip, h, p["dtype"])
        lat = answer(entries, fam, "latency", chip, h, p["dtype"])
        s = forms.compute_time(fam, p["inputs"], p["formats"], rates.compute(fam, chip, p["dtype"]), rates.memory(fam, chip),
                               forms.coefficient(ce, p["inputs"]), forms.coefficient(me, p["inputs"]),
                               latency=forms.coefficient(lat, p["inputs"]))
        used = [ce, me, lat]
    return s, [f"{e['_set']}:{e['name']}:{next(iter(e['method']))}" for e in used]


def points_from_data(data):
    out = []
    seen = set()
    for t in sorted(aicdata.load(data), key=lambda t: (t.family, t.chip, t.fmt)):
        if (t.family, t.chip) in seen:
            continue  # one table per family and chip: about thirty points in all
        seen.add((t.family, t.chip))
        held = sorted((r for r in t.rows if units.role(r.unit) == "held"), key=lambda r: (r.seconds, r.unit))
        if not held:
            continue
        r = held[len(held) // 2]
        kern = {"library": t.library, "variant": t.variant, "code_hash": t.code_hash()}
        base = {"family": t.family, "dtype": t.dtype or None, "inputs": r.inputs, "formats": r.formats}
        out.append(dict(base, chip=t.chip, kernel=kern))
        if t.chip in ("H100-SXM", "B200"):
            out.append(dict(base, chip=t.chip, kernel=None))
        if t.chip == "B200" and t.family in ("gemm", "collective.all_reduce"):
            out.append(dict(base, chip="GB200-NVL72", kernel=None))
    return out


def build(root, data, old):
    entries = ar.load_entries(root)
    pts = points_from_data(data) if data else [{k: v for k, v in p.items() if k not in ("seconds", "entries")} for p in old]
    out = []
    for p in pts:
        try:
            s, used = price(root, entries, p)
        except (TypeError, KeyError):
            continue  # no fitted entry answers this lookup (the floor does; not an agreement point)
        out.append(dict(p, seconds=s, entries=used))
    return json.dumps({"doc": "Agreement points: forms.py prices from the committed registry "
                              "(registry/scripts/agreement_points.py); the cost model must agree at relative 1e-9.",
                       "points": out}, indent=1, sort_keys=True) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    p.add_argument("--data")
    p.add_argument("--check", action="store_true")
    a = p.parse_args(argv)
    root = os.path.abspath(a.root)
    path = os.path.join(root, OUT)
    old = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = json.load(f)["points"]
    text = build(root, a.data, old)
    if a.check:
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{OUT}: stale: rerun /usr/bin/python3 registry/scripts/agreement_points.py --data ../shared/data")
                return 1
        print(f"agreement_points.py: {OUT} fresh ({len(old)} points)")
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"agreement_points.py: wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
