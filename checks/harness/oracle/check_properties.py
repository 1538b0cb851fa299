#!/usr/bin/python3
"""FID-6: a property of an engine port is adopted only if upstream's own code satisfies it.

  check_properties.py --properties PROPERTIES.py --traces TRACES_DIR PROPERTIES.yaml

PROPERTIES.py defines PROPERTIES = {name: function(trace) -> None | counterexample}; PROPERTIES.yaml lists
each name under `adopted` (with the upstream behaviour it rests on) or `rejected` (with why upstream violates
it). The check runs every property on every oracle trace: an adopted property upstream violates fails (with
the first counterexample), a rejected one that now holds on every trace fails (adopt it or say why not), and
a property defined but not listed, or listed but not defined, fails. Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import json
import os
import sys

import yaml


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--properties", required=True)
    ap.add_argument("--traces", required=True)
    ap.add_argument("registry")
    a = ap.parse_args()
    spec = importlib.util.spec_from_file_location("oracle_properties_under_check", a.properties)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    with open(a.registry, encoding="utf-8") as f:
        reg = yaml.safe_load(f) or {}
    adopted, rejected = reg.get("adopted") or {}, reg.get("rejected") or {}
    paths = sorted(glob.glob(os.path.join(a.traces, "*.trace.json")))
    if not paths:
        print(f"{a.traces}: holds no *.trace.json", file=sys.stderr)
        return 2
    traces = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            traces.append((os.path.basename(p), json.load(f)))
    findings = []
    for name in sorted(set(mod.PROPERTIES) - set(adopted) - set(rejected)):
        findings.append(f"{name}: defined in {a.properties} but neither adopted nor rejected in {a.registry}")
    for name in sorted((set(adopted) | set(rejected)) - set(mod.PROPERTIES)):
        findings.append(f"{name}: listed in {a.registry} but not defined in {a.properties}")
    for name in sorted(set(adopted) & set(rejected)):
        findings.append(f"{name}: both adopted and rejected")
    summary = []
    for name, fn in sorted(mod.PROPERTIES.items()):
        violations = [(t, r) for t, trace in traces for r in [fn(trace)] if r]
        summary.append(f"{name}: violated on {len(violations)} of {len(traces)} traces")
        if name in adopted and violations:
            t, r = violations[0]
            findings.append(f"{name}: adopted, but upstream violates it on {len(violations)} trace(s), first {t}: {r} "
                            f"(FID-6: a property upstream does not satisfy cannot be asserted of the port)")
        if name in rejected and not violations:
            findings.append(f"{name}: rejected ({rejected[name]}), but upstream satisfies it on every trace: adopt "
                            f"it, or add a trace where it fails")
    for line in summary:
        print(line)
    for f in findings:
        print(f)
    print(f"oracle properties: {len(mod.PROPERTIES)} properties ({len(adopted)} adopted, {len(rejected)} rejected) "
          f"over {len(traces)} traces, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
