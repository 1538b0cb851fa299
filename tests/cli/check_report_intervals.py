#!/usr/bin/python3
"""DEV-11 report-schemas: every figure a report of BLIS publishes or compares carries its interval and says
which uncertainty that interval covers, or says why it has none.

  check_report_intervals.py BLIS SRC_ROOT REPORTS.yaml

REPORTS.yaml lists reports, each `kind: result | compare | score` with either `args` (the `blis` command line
that writes the report as JSON on stdout; `@SRC@` is the source root) or `file` (a report recorded before,
relative to REPORTS.yaml: how the known-bad input is given). Every kind BLIS writes must be listed. Rules:

  result   each of `metrics[]` with a value has `uncertainty` {random_input, covers, leaves_out}; with random
           input it has an `interval` {low, high, confidence, method, samples}, without it `covers` is empty;
           a metric with no value names why it is `withheld`.
  compare  the report states `covers` (what the intervals span), `family_confidence` and `adjustment` (how the
           chance of a false winner is held across all comparisons); each of `compared[]` has a `difference`
           {low, high, confidence} and one of three outcomes (better, worse, not_distinguished).
  score    each point's `simulated` has `uncertainty` {random_input, covers, leaves_out}, and with random input
           and two or more replications, `ttft_interval_ms` and `tpot_interval_ms`; each lane's median APE has
           `*_median_ape_interval` {low, high, confidence} or `withheld` with the reason, and the lane states
           its `uncertainty` {method, covers, leaves_out}.
An interval's low must not exceed its high and its confidence lies in (0, 1).
Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import yaml

KINDS = ("result", "compare", "score")
OUTCOMES = ("better", "worse", "not_distinguished")


def interval_findings(where: str, iv, keys=("low", "high", "confidence")) -> list[str]:
    if not isinstance(iv, dict):
        return [f"{where}: no interval"]
    out = [f"{where}: the interval has no {k}" for k in keys if k not in iv]
    if not out:
        if iv["low"] > iv["high"]:
            out.append(f"{where}: the interval's low {iv['low']} exceeds its high {iv['high']}")
        if not 0 < iv["confidence"] < 1:
            out.append(f"{where}: the interval's confidence {iv['confidence']} is not in (0, 1)")
    return out


def uncertainty_findings(where: str, u, keys=("random_input", "covers", "leaves_out")) -> list[str]:
    if not isinstance(u, dict):
        return [f"{where}: no uncertainty statement (which uncertainty the interval covers, DEV-11)"]
    return [f"{where}: the uncertainty statement has no {k}" for k in keys if k not in u]


def judge_result(r: dict) -> list[str]:
    out = []
    metrics = r.get("metrics")
    if not metrics:
        return ["the Result has no metrics"]
    for m in metrics:
        where = f"metrics {m.get('metric')} at {json.dumps(m.get('scope'), sort_keys=True)}"
        if m.get("value") is None:
            if not m.get("withheld"):
                out.append(f"{where}: no value and no reason it is withheld")
            continue
        u = m.get("uncertainty")
        found = uncertainty_findings(where, u)
        out += found
        if found:
            continue
        if u["random_input"]:
            out += interval_findings(where, m.get("interval"), ("low", "high", "confidence", "method", "samples"))
        elif u["covers"]:
            out.append(f"{where}: no random input, yet the interval is said to cover {u['covers']}")
    return out


def judge_compare(r: dict) -> list[str]:
    out = [f"the comparison report has no {k}" for k in ("covers", "family_confidence", "adjustment") if not r.get(k)]
    if not r.get("compared") and not r.get("left_out"):
        out.append("the comparison report compares nothing and leaves nothing out")
    for c in r.get("compared", []):
        where = f"compared {c.get('metric')}"
        out += interval_findings(where, c.get("difference"))
        if c.get("outcome") not in OUTCOMES:
            out.append(f"{where}: outcome {c.get('outcome')!r} is not one of {', '.join(OUTCOMES)}")
    return out


def judge_score(r: dict) -> list[str]:
    out = []
    scored = [p for p in r.get("points", []) if p.get("status") == "scored"]
    if not scored:
        out.append("the score report has no scored point")
    for p in scored:
        where = f"point {p.get('id')} simulated"
        s = p.get("simulated") or {}
        u = s.get("uncertainty")
        found = uncertainty_findings(where, u)
        out += found
        if not found and u["random_input"] and s.get("replications", 0) >= 2:
            for k in ("ttft_interval_ms", "tpot_interval_ms"):
                iv = s.get(k)
                if not (isinstance(iv, list) and len(iv) == 2 and iv[0] <= iv[1]):
                    out.append(f"{where}: {k} is {iv!r}, not [low, high] (random input, {s.get('replications')} replications)")
    if not r.get("lanes"):
        out.append("the score report has no lane")
    for lane in r.get("lanes", []):
        where = "lane " + " | ".join(str(lane.get(k)) for k in ("engine", "release", "chip", "model", "layout"))
        out += uncertainty_findings(where, lane.get("uncertainty"), ("method", "covers", "leaves_out"))
        for fig in ("ttft", "tpot"):
            iv = lane.get(f"{fig}_median_ape_interval")
            if isinstance(iv, dict) and iv.get("withheld"):
                continue
            out += interval_findings(f"{where} {fig} median APE", iv)
    return out


JUDGES = {"result": judge_result, "compare": judge_compare, "score": judge_score}


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print("usage: check_report_intervals.py BLIS SRC_ROOT REPORTS.yaml", file=sys.stderr)
        return 2
    blis, src, listing = argv[1:]
    try:
        with open(listing, encoding="utf-8") as f:
            reports = yaml.safe_load(f)["reports"]
    except (OSError, KeyError, TypeError, yaml.YAMLError) as e:
        print(f"check_report_intervals: {listing}: {e}", file=sys.stderr)
        return 2
    findings, kinds = [], set()
    for i, rep in enumerate(reports):
        kind = rep.get("kind")
        if kind not in KINDS:
            print(f"check_report_intervals: {listing}: report {i}: kind {kind!r} is not one of {', '.join(KINDS)}", file=sys.stderr)
            return 2
        kinds.add(kind)
        if "file" in rep:
            name = rep["file"]
            try:
                with open(os.path.join(os.path.dirname(listing), name), encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                print(f"check_report_intervals: {e}", file=sys.stderr)
                return 2
        else:
            args = [a.replace("@SRC@", src) for a in rep["args"]]
            name = "blis " + " ".join(rep["args"])
            proc = subprocess.run([blis, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if proc.returncode != 0:
                print(f"check_report_intervals: {name}: exit {proc.returncode}: {proc.stderr.strip()}", file=sys.stderr)
                return 2
            text = proc.stdout
        try:
            report = json.loads(text)
        except json.JSONDecodeError as e:
            print(f"check_report_intervals: {name}: not JSON: {e}", file=sys.stderr)
            return 2
        found = JUDGES[kind](report)
        findings += [f"{kind} report ({name}): {f}" for f in found]
        print(f"{kind} report ({name}): {len(found)} finding(s)")
    missing = [k for k in KINDS if k not in kinds]
    if missing and not any("file" in r for r in reports):
        findings.append(f"no report of kind {', '.join(missing)} is checked: every report BLIS writes is listed")
    for f in findings:
        print(f)
    print(f"check_report_intervals: {len(reports)} report(s), {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
