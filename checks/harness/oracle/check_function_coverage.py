#!/usr/bin/python3
"""FID-4: every ported function is exercised by some recorded oracle scenario.

  check_function_coverage.py --port DIR --declared UNCOVERED.yaml COVERAGE.json

COVERAGE.json is what the engine's oracle runner wrote with --coverage while recording the committed traces:
every function and method of every upstream module the oracle runs, and whether a scenario called it. The
port's functions are found by their citations (`<file>.py@<commit8> <Qualified.name>`, with `/ other`
continuations naming more methods of the same class) in DIR's .h and .cpp files. Each cited function is
  - exercised: defined in a module the oracle runs, and called by a scenario;
  - not exercised: defined there but never called: a finding, unless UNCOVERED.yaml declares it with why;
  - outside the oracle: its file is not a module the oracle runs (configuration resolution, which the design
    checks by transcription; the model lowering), or the name is not a function there (a class, a constant).
A declaration for a function that is exercised, or that the port does not cite, is a finding too.
Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

import yaml


def citations(port_dir: str, commit8: str) -> set[tuple[str, str]]:
    pat = re.compile(r"([A-Za-z0-9_]+\.py)@" + commit8 + r" ([A-Za-z_]\w*(?:\.\w+)*)((?:\s*/\s*\w+)*)")
    out = set()
    for root, _, files in os.walk(port_dir):
        for name in files:
            if not name.endswith((".h", ".cpp")):
                continue
            with open(os.path.join(root, name), encoding="utf-8") as f:
                text = f.read()
            for m in pat.finditer(text):
                base, qual, more = m.group(1), m.group(2).rstrip("."), m.group(3)
                out.add((base, qual))
                owner = qual.rsplit(".", 1)[0] + "." if "." in qual else ""
                for extra in re.findall(r"\w+", more):
                    out.add((base, owner + extra))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", required=True)
    ap.add_argument("--declared", required=True)
    ap.add_argument("coverage")
    a = ap.parse_args()
    with open(a.coverage, encoding="utf-8") as f:
        cov = json.load(f)
    with open(a.declared, encoding="utf-8") as f:
        declared = (yaml.safe_load(f) or {}).get("not_exercised") or {}
    commit8 = cov["upstream_commit"][:8]
    by_base: dict[str, list[str]] = {}
    for path in cov["modules"]:
        by_base.setdefault(os.path.basename(path), []).append(path)
    cited = citations(a.port, commit8)
    if not cited:
        print(f"{a.port}: no citation of a function at {commit8}", file=sys.stderr)
        return 2
    exercised, missed, outside = [], [], []
    for base, qual in sorted(cited):
        paths = [p for p in by_base.get(base, []) if qual in cov["modules"][p]]
        if not paths:
            outside.append(f"{base} {qual}")
        elif any(cov["modules"][p][qual] for p in paths):
            exercised.append(f"{base} {qual}")
        else:
            missed.append(f"{base} {qual}")
    findings = []
    for name in missed:
        if name not in declared:
            findings.append(f"{name}: ported (cited in {a.port}) but no recorded scenario calls upstream's {name} "
                            f"(FID-4): add a scenario, or declare it in {a.declared} with why")
    for name, why in sorted(declared.items()):
        if name in exercised:
            findings.append(f"{name}: declared not exercised ({why}), but a scenario calls it: remove the declaration")
        elif name not in missed:
            findings.append(f"{name}: declared in {a.declared}, but the port cites no such function the oracle runs")
    for f in findings:
        print(f)
    print(f"oracle function coverage: {len(cited)} cited functions: {len(exercised)} exercised by a recorded scenario, "
          f"{len(missed)} not ({len(missed) - len([m for m in missed if m not in declared])} declared), "
          f"{len(outside)} outside the modules the oracle runs; {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
