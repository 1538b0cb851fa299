#!/usr/bin/env python3
"""`blis score` end to end on tests/score/fixtures/e2e.csv (tiny points: concurrency 1-2, short ISL/OSL).

Asserts the report's shape, never its accuracy: every vLLM and SGLang point of the file is listed exactly once
(scored, not scored with a reason, or failed with the simulator's message), the totals add up to those points,
a backend with no port is counted and not read, each scored point ran on its own engine kind, and the text
report lists the same points.

usage: score_e2e.py BLIS POINTS_CSV
"""
import csv
import json
import subprocess
import sys


def main() -> int:
    blis, points = sys.argv[1], sys.argv[2]
    with open(points, newline="") as f:
        rows = list(csv.DictReader(f))
    ported = ("vllm", "sglang")
    vllm = [r["id"] for r in rows if r["backend"] in ported]
    backend = {r["id"]: r["backend"] for r in rows}
    per_engine = {}
    for r in rows:
        if r["backend"] in ported:
            per_engine[r["backend"]] = per_engine.get(r["backend"], 0) + 1
    others = {}
    for r in rows:
        if r["backend"] not in ported:
            others[r["backend"]] = others.get(r["backend"], 0) + 1

    run = subprocess.run([blis, "score", "--points", points, "--json"], capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stdout, run.stderr, sep="\n")
        return 1
    rep = json.loads(run.stdout)
    failures = []
    ids = [p["id"] for p in rep["points"]]
    if sorted(ids) != sorted(vllm):
        failures.append(f"points listed {sorted(ids)} are not the file's vLLM and SGLang points {sorted(vllm)}")
    if len(ids) != len(set(ids)):
        failures.append(f"a point is listed more than once: {ids}")
    if rep["points_by_engine"] != per_engine or rep["selected"] != len(vllm):
        failures.append(f"points_by_engine {rep['points_by_engine']} / selected {rep['selected']}, want {per_engine} / {len(vllm)}")
    if sum(rep["totals"].values()) != len(vllm):
        failures.append(f"totals {rep['totals']} do not sum to {len(vllm)}")
    if rep["other_backends"] != others:
        failures.append(f"other backends {rep['other_backends']}, want {others}")
    by = {p["id"]: p for p in rep["points"]}
    for p in rep["points"]:
        if p["status"] == "scored":
            if p["grade"] not in ("G2", "G3", "G4") or "simulated" not in p or not p["estimates"]:
                failures.append(f"{p['id']}: a scored point needs a grade G2-G4, its figures and its named estimates")
            elif p["lane"]["engine"] != backend[p["id"]]:
                failures.append(f"{p['id']}: a {backend[p['id']]} point ran in lane {p['lane']}")
        elif p["status"] == "not_scored":
            if p["grade"] != "G5" or not p["not_scored"]:
                failures.append(f"{p['id']}: a G5 point needs its reasons")
        elif p["status"] == "failed":
            if not p.get("error"):
                failures.append(f"{p['id']}: a failed point needs the simulator's message")
        else:
            failures.append(f"{p['id']}: unknown status {p['status']}")
    if by.get("e2e-disagg-not-scored", {}).get("not_scored", [{}])[0].get("reason") != "topology_unsupported":
        failures.append("e2e-disagg-not-scored: want G5 topology_unsupported")
    for want in ("e2e-sglang-llama-8b-h200-tp1-c1",):
        if by.get(want, {}).get("status") != "scored":
            failures.append(f"{want}: want scored on SGLang, got {by.get(want)}")
    lane_points = sum(l["points"] for l in rep["lanes"])
    if lane_points != rep["totals"].get("G2", 0) + rep["totals"].get("G3", 0) + rep["totals"].get("G4", 0):
        failures.append(f"lanes hold {lane_points} points, not the scored count {rep['totals']}")

    text = subprocess.run([blis, "score", "--points", points], capture_output=True, text=True)
    for i in vllm:
        if text.stdout.count(i + "  ") != 1:
            failures.append(f"the text report lists {i} {text.stdout.count(i + '  ')} times")
    print(text.stdout)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
