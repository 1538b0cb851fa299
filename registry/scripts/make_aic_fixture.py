#!/usr/bin/env python3
"""Derives the small committed fixture test/fixtures/aic-small/ from ../shared/data (Apache-2.0; see its NOTICE).

For H100-SXM and H200-SXM: of the GEMM table's main bf16 kernel, the decode attention table's main bf16
kernel and the NCCL table's all-reduce sweeps, a few whole units per role (units.py), every row of each
unit kept. Derived rows are modified in two ways only: the `framework` column is replaced by `harness`
and the kernel name loses its harness prefix (the fixture lives under registry/, which holds no engine
name); the harness directory of each path is named `harness` likewise. Rerun after changing units.py:
  /usr/bin/python3 registry/scripts/make_aic_fixture.py --data ../shared/data
"""
from __future__ import annotations

import argparse
import csv
import os
import shutil
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test")
sys.path.insert(0, os.path.dirname(HERE))
import aicdata  # noqa: E402
import units  # noqa: E402

OUT = os.path.join(HERE, "fixtures", "aic-small")
CHIPS = ("H100-SXM", "H200-SXM")
PER_ROLE = {"fit": 24, "select": 4, "validate": 1, "held": 4}
PICK = [("gemm", "bfloat16"), ("attention.decode", "bfloat16"), ("collective.all_reduce", "all_reduce")]


NOTICE = """Derived from ai-dynamo/aiconfigurator (https://github.com/ai-dynamo/aiconfigurator) at commit
095f58a51c4ca8e61b66ec108d86f223f8d559ce, Copyright (c) 2025-2026 NVIDIA CORPORATION & AFFILIATES,
licensed under the Apache License 2.0 (LICENSE in this folder). Notice of modification (Apache-2.0 s.4(b)):

The CSV files below ai-dynamo/ are subsets of the CSV conversions of the parquet tables at the same
paths in that commit (the shared data's ai-dynamo/aiconfigurator, CONVERSION-NOTE.md there), for h100_sxm
and h200_sxm: the bf16 GEMM table, the bf16 decode-attention table and the NCCL all-reduce sweeps. They
were written by registry/scripts/make_aic_fixture.py, which keeps a few whole sweeps (units) per role
and every row of each, and changes three things: the `framework` column reads `harness`, each kernel
name has lost the collecting harness's name prefix, and the harness directory of each path (between the
operation and the release directory) is named `harness`. No latency or shape was changed.
"""


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
    with open(os.path.join(OUT, "NOTICE"), "w", encoding="utf-8") as f:
        f.write(NOTICE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
