#!/usr/bin/python3
"""Checks of the committed oracle traces, without the upstream checkout (issue 10).

  check_traces.py provenance --oracle engines/vllm/oracle --upstream engines/vllm/upstream.yaml TRACES_DIR
      FID-2: every trace records the pinned upstream commit, a manifest version the manifest's history
      holds, the harness environment's hash, its scenario's sha256 (which must match the scenario it
      holds) and its seed; a random scenario must be what the seeded generator makes for its name.
  check_traces.py coverage TRACES_DIR
      FID-10: every compared field takes at least two values across the trace set, except the fields
      TRACES_DIR/coverage.yaml declares constant, each with the reason. The compared fields are the traces'
      engine's (their "engine" key: vLLM's step record or SGLang's).

Exit 0 when the check holds, 1 with each finding printed, 2 when it cannot run.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
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


def scenario_hash(scenario: dict) -> str:
    return hashlib.sha256(json.dumps(scenario, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def provenance(args) -> int:
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


# FID-10: the compared fields, each as a function from one step record to the values it takes there.
def _rows(step, *path):
    x = step
    for p in path:
        x = x.get(p) if isinstance(x, dict) else None
        if x is None:
            return []
    return x


def _sched(s):
    return s.get("schedule") or {}


def _outputs(s):
    return (s.get("update") or {}).get("outputs", [])


def _stat(i):
    return lambda s: [] if (s.get("update") or {}).get("stats") is None else [s["update"]["stats"][i]]


FIELDS = {
    "arrivals.count": lambda s: [len(s["arrivals"])],
    "aborts.count": lambda s: [len(s["aborts"])],
    "schedule.present": lambda s: ["schedule" in s],
    "schedule.num_scheduled_tokens.count": lambda s: [len(_sched(s)["num_scheduled_tokens"])] if _sched(s) else [],
    "schedule.num_scheduled_tokens.tokens": lambda s: [n for _, n in _sched(s).get("num_scheduled_tokens", [])],
    "schedule.total_num_scheduled_tokens": lambda s: [_sched(s)["total_num_scheduled_tokens"]] if _sched(s) else [],
    "schedule.new_reqs.count": lambda s: [len(_sched(s)["new_reqs"])] if _sched(s) else [],
    "schedule.new_reqs.num_computed_tokens": lambda s: [r[1] for r in _sched(s).get("new_reqs", [])],
    "schedule.new_reqs.blocks": lambda s: [len(g) for r in _sched(s).get("new_reqs", []) for g in r[2]],
    "schedule.cached_reqs.count": lambda s: [len(_sched(s)["cached_reqs"])] if _sched(s) else [],
    "schedule.cached_reqs.resumed": lambda s: [r[1] for r in _sched(s).get("cached_reqs", [])],
    "schedule.cached_reqs.num_computed_tokens": lambda s: [r[2] for r in _sched(s).get("cached_reqs", [])],
    "schedule.cached_reqs.new_block_ids": lambda s: [None if r[3] is None else len(r[3][0])
                                                    for r in _sched(s).get("cached_reqs", [])],
    "schedule.num_common_prefix_blocks": lambda s: list(_sched(s).get("num_common_prefix_blocks", [])),
    "schedule.finished_req_ids.count": lambda s: [len(_sched(s)["finished_req_ids"])] if _sched(s) else [],
    "schedule.preempted_req_ids.count": lambda s: [len(_sched(s)["preempted_req_ids"])] if _sched(s) else [],
    "sampled.tokens": lambda s: [len(t) for _, t in s.get("sampled", [])],
    "update.present": lambda s: ["update" in s],
    "update.of_lag": lambda s: [s["step"] - s["update"]["of"]] if "update" in s else [],
    "outputs.count": lambda s: [len(_outputs(s))] if "update" in s else [],
    "outputs.new_token_ids": lambda s: [len(o[1]) for o in _outputs(s)],
    "outputs.finish_reason": lambda s: [o[2] for o in _outputs(s)],
    "outputs.stop_reason": lambda s: [o[3] for o in _outputs(s)],
    "stats.num_running_reqs": _stat(0),
    "stats.num_waiting_reqs": _stat(1),
    "stats.num_skipped_waiting_reqs": _stat(2),
    "stats.kv_cache_usage": _stat(3),
    "stats.prefix_cache_queries": _stat(4),
    "stats.prefix_cache_hits": _stat(5),
    "state.running.count": lambda s: [len(s["state"]["running"])],
    "state.waiting.count": lambda s: [len(s["state"]["waiting"])],
    "state.num_free_blocks": lambda s: [s["state"]["num_free_blocks"]],
    "state.has_requests": lambda s: [s["state"]["has_requests"]],
    "state.request_counts": lambda s: [s["state"]["request_counts"]],
    "state.kv_cache_usage": lambda s: [s["state"]["kv_cache_usage"]],
    "reset.result": lambda s: [s["reset"]] if "reset" in s else [],
    "kv_events.count": lambda s: [len(s["kv_events"])] if "kv_events" in s else [],
    "kv_events.type": lambda s: [e[0] for e in s.get("kv_events", [])],
}


def _batch(s):
    return s.get("batch") or {}


# The SGLang oracle's step record (engines/sglang/oracle/runner.py): the batch the scheduler chose, what the sampled
# tokens did, retractions, requests ended outside a batch, and the scheduler's state after the step.
SGLANG_FIELDS = {
    "arrivals.count": lambda s: [len(s["arrivals"])],
    "aborts.count": lambda s: [len(s["aborts"])],
    "batch.present": lambda s: [s["batch"] is not None],
    "batch.forward_mode": lambda s: [_batch(s)["forward_mode"]] if _batch(s) else [],
    "batch.rids.count": lambda s: [len(_batch(s)["rids"])] if _batch(s) else [],
    "batch.prefix_lens": lambda s: list(_batch(s).get("prefix_lens", [])),
    "batch.extend_lens": lambda s: list(_batch(s).get("extend_lens", [])),
    "batch.chunked_req.present": lambda s: [_batch(s)["chunked_req"] is not None] if _batch(s) else [],
    "batch.decoding_reqs.count": lambda s: [len(_batch(s)["decoding_reqs"])] if _batch(s) else [],
    "sampled.count": lambda s: [len(s["sampled"])],
    "processed.emitted.count": lambda s: [len(s["processed"]["emitted"])],
    "processed.emitted.tokens": lambda s: [n for _, n in s["processed"]["emitted"]],
    "processed.finished.reason": lambda s: [r for _, r in s["processed"]["finished"]],
    "retracted.count": lambda s: [len(s["retracted"])],
    "ended_outside.count": lambda s: [len(s["ended_outside"])],
    "ended_outside.type": lambda s: [t for _, t in s["ended_outside"]],
    "state.waiting.count": lambda s: [len(s["state"]["waiting"])],
    "state.running.count": lambda s: [len(s["state"]["running"])],
    "state.new_token_ratio": lambda s: [s["state"]["new_token_ratio"]],
    "state.available_size": lambda s: [s["state"]["available_size"]],
    "state.evictable_size": lambda s: [s["state"]["evictable_size"]],
    "state.protected_size": lambda s: [s["state"]["protected_size"]],
}

# The field table of each engine's step record, chosen by the traces' "engine" key (vLLM's when absent).
FIELDS_BY_ENGINE = {"vllm": FIELDS, "sglang": SGLANG_FIELDS}


def coverage(args) -> int:
    path = os.path.join(args.traces, "coverage.yaml")
    with open(path, encoding="utf-8") as f:
        declared = (yaml.safe_load(f) or {}).get("constant", {}) or {}
    traces = load_traces(args.traces)
    engines = sorted({t.get("engine", "vllm") for _, t in traces})
    if len(engines) != 1 or engines[0] not in FIELDS_BY_ENGINE:
        print(f"{args.traces}: traces of engines {engines}: one engine of {sorted(FIELDS_BY_ENGINE)} per directory")
        return 2
    FIELDS = FIELDS_BY_ENGINE[engines[0]]  # noqa: N806 (the engine's table, shadowing vLLM's)
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
    c.add_argument("traces")
    args = ap.parse_args()
    return provenance(args) if args.cmd == "provenance" else coverage(args)


if __name__ == "__main__":
    sys.exit(main())
