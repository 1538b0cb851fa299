#!/usr/bin/env python3
"""Writes the fitted operator coefficients: set `measured` (measured and calibrated entries fitted to the
operator tables of ../shared/data) and set `transferred` (the same values moved, by a stated rule, to the
lookups the measurements cannot reach). registry/README.md "Fitted operator coefficients" says how.

For each table (family, chip, kernel: aicdata.py) the fit (fitfamily.py, fitcurve.py) uses only the
rows of units whose role is fit (units.py), chooses its breakpoints on the select units, and never reads
validate or held rows; accuracy_report.py judges the committed entries on those.

Transferred entries:
- per chip and data type (per chip and span for collectives), without `kernel` in scope, from the
  measured entry of the kernel the chip's table measured most of for that data type: the pinned
  releases' kernels cannot be shown identical to the measured ones (no code hash), so lookups from the
  pinned engines get rank 3 and say why (D5, VAL-8);
- to catalog chips without measurements of the same architecture generation as a measured chip (the
  Blackwell parts B300, GB200-NVL72 and GB300-NVL72 from B200), for the data types the target states.
  No other transfer is defensible (L40S: no measured Ada chip; A100 has no balanced MoE sweep and no
  latent-attention kernel table): those keep the floor (VAL-2).

The data are read only when asked: `--data DIR` (the directory holding ai-dynamo/aiconfigurator).
Writing defaults to ROOT/../shared/data; `--check` without `--data` prints a notice and compares nothing,
because the required test tier reads no ../shared (INTERFACES.md "Test tiers"); the `data` suite runs
`--check --data`.

usage: write_measured.py [--root ROOT] [--check] [--data DIR] [--chips A,B]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aicdata  # noqa: E402
import fitfamily as ff  # noqa: E402
import writer  # noqa: E402

# Catalog chips without operator tables -> the measured chip of their architecture generation.
GENERATION = {"B300": "B200", "GB200-NVL72": "B200", "GB300-NVL72": "B200"}


def produce_from(tables: list[aicdata.Table]):
    def produce(ctx):
        rates = ff.Rates(ctx.root)
        measured: dict[str, list[dict]] = {}
        moved: dict[str, list[dict]] = {}
        by_key: dict[tuple, list[tuple]] = {}   # (chip, family, dtype or span) -> [(rows, entries)]
        every_unit = {r.unit for t in tables for r in t.rows}
        for t in tables:
            start = time.monotonic()
            res = ff.fit_table(t, rates, ctx.families)
            print(f"write_measured.py: fitted {t.path} {t.family} {t.variant} in {time.monotonic() - start:.0f} s",
                  file=sys.stderr, flush=True)
            if res is None:
                print(f"write_measured.py: notice: {t.path} ({t.family}, {t.variant}) has no fit unit; nothing written")
                continue
            res.cited_units = ff.cite_units(res.fit_units, every_unit)
            es = ff.measured_entries(res)
            measured.setdefault(t.family, []).extend(es)
            key = (t.chip, t.family, "node" if ff.is_link(t.family) else t.dtype)
            by_key.setdefault(key, []).append((len(t.rows), t.library == "nccl", t.variant, es, t.kv == ""))
        for (chip, family, k), cands in sorted(by_key.items()):
            # NCCL first among collectives (the general path); otherwise the kernel whose cache format is
            # the math's (the fp8-cache instantiations are kernels of their own), then the most-measured.
            _, _, _, es, _ = max(cands, key=lambda c: (c[1], c[4], c[0], c[2]))
            for e in es:
                kern = f"{e['scope']['kernel']['library']}/{e['scope']['kernel']['variant']}"
                rule = ff.PINNED_RULE.format(dtype="" if ff.is_link(family) else f" and data type {k}",
                                             kernel=kern, curve=" and curve" if "curve" in e else "")
                moved.setdefault(family, []).append(ff.transferred(e, chip, rule))
                for target, source in sorted(GENERATION.items()):
                    if source != chip or target not in ctx.chips:
                        continue
                    tdata = ctx.chips[target][1]
                    if not ff.is_link(family) and k not in (tdata.get("dense_peak") or {}):
                        continue
                    rule = ff.GENERATION_RULE.format(target=target, arch=tdata.get("architecture"), source=chip,
                                                     kernel=kern, curve=" with its curve" if "curve" in e else "")
                    moved[family].append(ff.transferred(e, target, rule))
        for family in sorted(measured):
            yield writer.coefficient_set(ff.SET_MEASURED, family, measured[family])
        for family in sorted(moved):
            yield writer.coefficient_set(ff.SET_TRANSFERRED, family, moved[family])
    return produce


def main(argv=None) -> int:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--root", default=writer.CODE_ROOT)
    p.add_argument("--check", action="store_true")
    p.add_argument("--data")
    p.add_argument("--chips")
    a, _ = p.parse_known_args(argv)
    data = a.data
    if data is None and not a.check:
        data = os.path.join(os.path.abspath(a.root), "..", "shared", "data")
    if data is None or not os.path.isdir(aicdata.data_root(data)):
        print(f"write_measured.py: notice: no operator tables ({'no --data given' if data is None else aicdata.data_root(data) + ' is missing'}); "
              f"compared nothing (the data suite runs this writer with --data)")
        return 0
    tables = aicdata.load(data, a.chips.split(",") if a.chips else None)
    rest = [x for x in (argv if argv is not None else sys.argv[1:])]
    drop = {"--data", "--chips"}
    keep, skip = [], False
    for x in rest:
        if skip:
            skip = False
            continue
        if x in drop:
            skip = True
            continue
        if any(x.startswith(d + "=") for d in drop):
            continue
        keep.append(x)
    return writer.run(__file__, produce_from(tables), argv=keep)


if __name__ == "__main__":
    sys.exit(main())
