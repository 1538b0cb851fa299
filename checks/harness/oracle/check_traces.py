#!/usr/bin/python3
"""Checks of the committed oracle traces, without the upstream checkout (issue 10).

  check_traces.py provenance --oracle engines/vllm/oracle --upstream engines/vllm/upstream.yaml TRACES_DIR
      FID-2: every trace records the pinned upstream commit, a manifest version the manifest's history
      holds, the harness environment's hash, its scenario's sha256 (which must match the scenario it
      holds) and its seed; a random scenario must be what the seeded generator makes for its name.
  check_traces.py coverage --fields FIELDS.py TRACES_DIR
      FID-10: every compared field takes at least two values across the trace set, except the fields
      TRACES_DIR/coverage.yaml declares constant, each with the reason. FIELDS.py (the engine's
      engines/<engine>/oracle/trace_fields.py) defines FIELDS: name -> function(step) -> values.

Exit 0 when the check holds, 1 with each finding printed, 2 when it cannot run.
"""

from __future__ import annotations

import argparse
import importlib.util
import glob
import json
import os
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..")))


def load_traces(directory: str) -> list[tuple[str, dict]]:
    paths = sorted(glob.glob(os.path.join(directory, "*.trace.json")))
    if not paths:
        raise SystemExit(f"{directory}: holds no *.trace.json")
    out = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            out.append((os.path.basename(p), json.load(f)))
    return out


def provenance(args) -> int:
    from checks.harness.oracle.record import scenario_hash

    from checks.harness.oracle import manifest_history

    with open(args.upstream, encoding="utf-8") as f:
        pin = yaml.safe_load(f)["commit"]
    versions = manifest_history.versions(args.oracle)
    sys.path.insert(0, args.oracle)
    import scenarios as scenario_lib  # the engine's generator

    findings = []
    generated: dict[int, list] = {}
    for name, t in load_traces(args.traces):
        for key in ("format", "engine", "upstream_commit", "manifest_version", "environment", "scenario_sha256",
                    "seed", "scenario", "steps"):
            if key not in t:
                findings.append(f"{name}: records no {key!r}")
        if any(f.startswith(name) for f in findings):
            continue
        if t["upstream_commit"] != pin:
            findings.append(f"{name}: upstream_commit {t['upstream_commit']} is not the pinned {pin}")
        if t["manifest_version"] not in versions:
            findings.append(f"{name}: manifest_version {t['manifest_version']} is not in the manifest's history "
                            f"({sorted(versions)})")
        env = t["environment"]
        if not isinstance(env, dict) or not env.get("sha256") or not env.get("python"):
            findings.append(f"{name}: environment {env!r} has no sha256 or python version")
        if scenario_hash(t["scenario"]) != t["scenario_sha256"]:
            findings.append(f"{name}: scenario_sha256 {t['scenario_sha256']} does not match the scenario it holds")
        if t["seed"] != t["scenario"].get("seed"):
            findings.append(f"{name}: seed {t['seed']} is not the scenario's seed {t['scenario'].get('seed')}")
        sname = t["scenario"].get("name", "")
        if name != sname + ".trace.json":
            findings.append(f"{name}: holds scenario {sname!r}")
        if sname.startswith("random-"):
            _, seed, index = sname.split("-")
            seed, index = int(seed), int(index)
            if seed not in generated or len(generated[seed]) <= index:
                generated[seed] = scenario_lib.random_scenarios(seed, index + 1)
            if generated[seed][index] != t["scenario"]:
                findings.append(f"{name}: its scenario is not what the generator makes for seed {seed}, index {index}")
        elif sname.startswith("designed-"):
            designed = {s["name"]: s for s in scenario_lib.designed()}
            if designed.get(sname) != t["scenario"]:
                findings.append(f"{name}: its scenario is not scenarios.designed()'s {sname!r} (re-record it)")
    for f in findings:
        print(f)
    print(f"oracle traces provenance: {len(load_traces(args.traces))} traces, {len(findings)} findings")
    return 1 if findings else 0


def coverage(args) -> int:
    path = os.path.join(args.traces, "coverage.yaml")
    with open(path, encoding="utf-8") as f:
        declared = (yaml.safe_load(f) or {}).get("constant", {}) or {}
    traces = load_traces(args.traces)
    spec = importlib.util.spec_from_file_location("oracle_trace_fields_under_check", args.fields)
    fields_mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = fields_mod
    spec.loader.exec_module(fields_mod)
    FIELDS = fields_mod.FIELDS  # noqa: N806 (the engine's table)
    values = {name: set() for name in FIELDS}
    findings = []
    for name, t in traces:
        for step in t["steps"]:
            for field, get in FIELDS.items():
                try:
                    values[field].update(json.dumps(v) for v in get(step))
                except (KeyError, IndexError, TypeError) as e:
                    findings.append(f"{name}: step {step.get('step')}: field {field} cannot be read ({e!r})")
                    break
    for field in FIELDS:
        n = len(values[field])
        if field in declared:
            if n >= 2:
                findings.append(f"{field}: declared constant in {path} ({declared[field]}), but takes {n} values: "
                                f"remove the declaration")
            continue
        if n < 2:
            findings.append(f"{field}: takes {n} value(s) ({', '.join(sorted(values[field])) or 'none'}) across "
                            f"{len(traces)} traces: a comparison that never varies cannot catch a difference (FID-10)")
    for field in declared:
        if field not in FIELDS:
            findings.append(f"{path}: declares {field!r}, which is not a compared field")
    for f in findings:
        print(f)
    print(f"oracle value coverage: {len(FIELDS)} fields over {len(traces)} traces, {len(findings)} findings")
    return 1 if findings else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("provenance")
    p.add_argument("--oracle", required=True)
    p.add_argument("--upstream", required=True)
    p.add_argument("traces")
    c = sub.add_parser("coverage")
    c.add_argument("--fields", required=True, help="the engine's trace_fields.py (FIELDS: name -> function)")
    c.add_argument("traces")
    args = ap.parse_args()
    return provenance(args) if args.cmd == "provenance" else coverage(args)


if __name__ == "__main__":
    sys.exit(main())
