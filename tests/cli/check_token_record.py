#!/usr/bin/python3
"""SIM-12 consumers-read-token-record: what a run reports of each request's tokens is what the engine's token
record says, never a recount from the workload's draws.

  check_token_record.py BLIS CASES.yaml

CASES.yaml lists cases, each a `scenario` (run with `blis run --replications 1 --out DIR --trace-out
DIR/run.trace`) or a `recorded` directory holding those two outputs from an earlier run (how the known-bad
input is given), with what the engine decides: `output_tokens`, the tokens every completed request's
response has (the scenario makes the engine, not the draw, decide it: a max_tokens below the output draw),
and `new_tokens`, the prompt tokens each round adds. Three consumers of the token record are judged:
  per-request figures   requests.csv (the records latency metrics and the Result are computed from): every
                        completed request's output_tokens equals `output_tokens`;
  session growth        in the exported trace, a request whose prompt begins with the prompt of the request it
                        follows (`after`) continues that session: its prompt is the earlier prompt, the earlier
                        response's tokens as requests.csv counts them, then `new_tokens` new ones; any other
                        request starts a session with `new_tokens` tokens;
  trace export          the trace's prompt lengths agree with requests.csv's prompt_tokens.
Paths are relative to CASES.yaml. Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile

import yaml


def read_outputs(directory: str) -> tuple[dict, dict]:
    with open(os.path.join(directory, "requests.csv"), newline="", encoding="utf-8") as f:
        rows = {r["request"]: r for r in csv.DictReader(f) if r["replication"] == "0"}
    with open(os.path.join(directory, "run.trace"), encoding="utf-8") as f:
        text = f.read()
    body = text.split("\n...\n", 1)[1]
    trace = {r["request"]: r for r in csv.DictReader(body.splitlines())}
    return rows, trace


def judge(rows: dict, trace: dict, output_tokens: int, new_tokens: int) -> list[str]:
    out = []
    if not any(r["fate"] == "completed" for r in rows.values()):
        out.append("no request completed: nothing to judge")
    for rid, r in sorted(rows.items()):
        if r["fate"] == "completed" and int(r["output_tokens"]) != output_tokens:
            out.append(f"{rid}: requests.csv counts {r['output_tokens']} output tokens; the engine's record gives "
                       f"{output_tokens}")
    prompts = {rid: t["prompt"].split() for rid, t in trace.items()}
    for rid, t in sorted(trace.items()):
        prompt = prompts[rid]
        if rid in rows and int(rows[rid]["prompt_tokens"]) != len(prompt):
            out.append(f"{rid}: the trace's prompt has {len(prompt)} tokens, requests.csv {rows[rid]['prompt_tokens']}")
        before = t["after"]
        if t["cause"] == "after" and before in prompts and prompt[: len(prompts[before])] == prompts[before]:
            response = int(rows[before]["output_tokens"]) if before in rows else None
            want = len(prompts[before]) + (response or 0) + new_tokens
            if response is None or len(prompt) != want:
                out.append(f"{rid}: continues {before}'s session with a {len(prompt)}-token prompt; {before}'s prompt "
                           f"({len(prompts[before])}), its response as the token record counts it ({response}) and "
                           f"{new_tokens} new tokens make {want}")
        elif len(prompt) != new_tokens:
            out.append(f"{rid}: starts a session with {len(prompt)} prompt tokens, not {new_tokens}")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: check_token_record.py BLIS CASES.yaml", file=sys.stderr)
        return 2
    blis, listing = argv[1:]
    base = os.path.dirname(os.path.abspath(listing))
    try:
        with open(listing, encoding="utf-8") as f:
            cases = yaml.safe_load(f)["cases"]
    except (OSError, KeyError, TypeError, yaml.YAMLError) as e:
        print(f"check_token_record: {listing}: {e}", file=sys.stderr)
        return 2
    findings = []
    for case in cases:
        with tempfile.TemporaryDirectory() as tmp:
            if "recorded" in case:
                name, directory = case["recorded"], os.path.join(base, case["recorded"])
            else:
                name, directory = case["scenario"], tmp
                proc = subprocess.run([blis, "run", "--replications", "1", "--out", tmp, "--trace-out",
                                       os.path.join(tmp, "run.trace"), os.path.join(base, case["scenario"])],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                if proc.returncode != 0:
                    print(f"check_token_record: {name}: exit {proc.returncode}: {proc.stderr.strip()}", file=sys.stderr)
                    return 2
            try:
                rows, trace = read_outputs(directory)
            except (OSError, IndexError, KeyError) as e:
                print(f"check_token_record: {name}: {e}", file=sys.stderr)
                return 2
            found = judge(rows, trace, int(case["output_tokens"]), int(case["new_tokens"]))
            print(f"{name}: {len(rows)} requests, {len(found)} finding(s)")
            findings += [f"{name}: {f}" for f in found]
    for f in findings:
        print(f)
    print(f"check_token_record: {len(cases)} case(s), {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
