#!/usr/bin/env python3
"""Derives the small committed fixture fixtures/aic-small/ from ../shared/data (Apache-2.0; see its NOTICE).

For H100-SXM and H200-SXM: of the GEMM table's main bf16 kernel, the decode attention table's main bf16
kernel and the NCCL table's all-reduce sweeps, a few whole units per role (units.py), every row of each
unit kept. Derived rows are modified in two ways only: the `framework` column is replaced by `harness`
and the kernel name loses its harness prefix (the fixture lives under registry/, which holds no engine
name); the harness directory of each path is named `harness` likewise. Rerun after changing units.py:
  /usr/bin/python3 registry/scripts/test/make_aic_fixture.py --data ../shared/data
"""
from __future__ import annotations

import argparse
import csv
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import aicdata  # noqa: E402
import units  # noqa: E402

OUT = os.path.join(HERE, "fixtures", "aic-small")
CHIPS = ("H100-SXM", "H200-SXM")
PER_ROLE = {"fit": 24, "select": 4, "validate": 1, "held": 4}
PICK = [("gemm", "bfloat16"), ("attention.decode", "bfloat16"), ("collective.all_reduce", "all_reduce")]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    a = p.parse_args()
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    base = os.path.join(OUT, aicdata.SUBDIR)
    tables = aicdata.load(a.data, list(CHIPS))
    for t in tables:
        if (t.family, t.fmt) not in PICK:
            continue
        by_role: dict[str, list[str]] = {}
        for u in sorted(t.units()):
            by_role.setdefault(units.role(u), []).append(u)
        wanted = set()
        for role, n in PER_ROLE.items():
            us = by_role.get(role, [])
            wanted.update(us[::max(1, len(us) // n)][:n])
        parts = t.path.split("/")
        if parts[1:3] != ["comm", "nccl"]:
            parts[2] = "harness"
        dest = os.path.join(base, *parts)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        rows = [r for r in t.rows if r.unit in wanted]
        fields = list(rows[0].raw)
        with open(dest, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
            w.writeheader()
            for r in rows:
                raw = dict(r.raw)
                fw = raw.get("framework", "")
                raw["kernel_source"] = aicdata.strip_framework(raw["kernel_source"], fw)
                if "framework" in raw:
                    raw["framework"] = "harness"
                w.writerow(raw)
        print(f"{os.path.relpath(dest, OUT)}: {len(rows)} rows, {len(wanted)} units")
    shutil.copy(os.path.join(a.data, "ai-dynamo", "aiconfigurator", "LICENSE"), os.path.join(OUT, "LICENSE"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
