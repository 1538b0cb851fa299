"""What every oracle runner shares (issue 10): the command line, the refusal to overwrite a recorded trace
without --update (FID-3), the refusal to record outside the locked environment (FID-2), the hash seed, the
scenario hash and the trace's provenance header (FID-2).

An engine's runner supplies its Oracle (constructed from the checkout path; `run(scenario)` returns
{"steps": [...]} or raises Unfinished; `manifest` and `environment` attributes) and calls main().
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

from . import check_lock


class Unfinished(RuntimeError):
    """A scenario that did not finish within its step bound (a request that can never fit: upstream waits
    forever). A random scenario that raises it is skipped, a named or designed one is an error."""


def reexec_with_hash_seed() -> None:
    """Re-runs the process with PYTHONHASHSEED=0, so set iteration (and anything seeded from it) is the same
    on every run."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        env = dict(os.environ)
        env["PYTHONHASHSEED"] = "0"
        os.execve(sys.executable, [sys.executable] + sys.argv, env)


def scenario_hash(scenario: dict) -> str:
    return hashlib.sha256(json.dumps(scenario, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def main(*, make_oracle, engine: str, here: str, doc: str, trace_format: int, checkout_help: str,
         argv=None) -> int:
    reexec_with_hash_seed()
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkout", required=True, help=checkout_help)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--update", action="store_true", help="overwrite existing traces (FID-3)")
    ap.add_argument("--designed", action="store_true", help="record scenarios.designed()")
    ap.add_argument("--random", type=int, action="append", default=[],
                    help="record N seeded random scenarios (repeatable: the i-th --random pairs with the i-th --seed)")
    ap.add_argument("--seed", type=int, action="append", default=[], help="the generator's seed (default 1)")
    ap.add_argument("--coverage", help="write which functions of the real modules the scenarios ran (FID-4)")
    ap.add_argument("scenarios", nargs="*")
    args = ap.parse_args(argv)
    sys.path.insert(0, here)
    import scenarios as scenario_lib  # the engine's, beside its runner

    todo = []
    for path in args.scenarios:
        with open(path, encoding="utf-8") as f:
            todo.append((json.load(f), False))
    if args.designed:
        todo += [(s, False) for s in scenario_lib.designed()]
    seeds = args.seed or [1]
    if len(seeds) != max(len(args.random), 1):
        ap.error(f"{len(args.random)} --random counts for {len(seeds)} --seed values (give one seed per count)")
    for count, seed in zip(args.random, seeds):
        todo += [(s, True) for s in scenario_lib.random_scenarios(seed, count)]
    if not todo:
        ap.error("no scenario given")
    for scenario, _ in todo:
        out = os.path.join(args.out_dir, scenario["name"] + ".trace.json")
        if os.path.exists(out) and not args.update:
            print(f"{out}: exists; refusing to overwrite a recorded trace without --update (FID-3)", file=sys.stderr)
            return 2
    unlocked = check_lock.differences()
    if unlocked:
        for d in unlocked:
            print(f"environment: {d}", file=sys.stderr)
        print(f"refusing to record outside the locked environment ({check_lock.DEFAULT_LOCK}; FID-2)",
              file=sys.stderr)
        return 2
    oracle = make_oracle(args.checkout)
    os.makedirs(args.out_dir, exist_ok=True)
    ran = None
    if args.coverage:
        from . import coverage
        ran = coverage.start(args.checkout, oracle.manifest)
    skipped = 0
    for scenario, is_random in todo:
        out = os.path.join(args.out_dir, scenario["name"] + ".trace.json")
        try:
            result = oracle.run(scenario)
        except Unfinished as e:
            if not is_random:
                raise
            skipped += 1  # a request that can never fit the pool: upstream waits forever; not recorded
            print(f"{scenario['name']}: skipped ({e})", file=sys.stderr)
            continue
        trace = {
            "format": trace_format,
            "engine": engine,
            "upstream_commit": oracle.manifest["commit"],
            "manifest_version": oracle.manifest["version"],
            "environment": oracle.environment,
            "scenario_sha256": scenario_hash(scenario),
            "seed": scenario.get("seed", 0),
            "scenario": scenario,
            "steps": result["steps"],
        }
        with open(out, "w", encoding="utf-8") as f:
            json.dump(trace, f, separators=(",", ":"), sort_keys=True)
            f.write("\n")
        print(f"{out}: {len(result['steps'])} steps")
    if skipped:
        print(f"{skipped} random scenarios skipped (never finish)", file=sys.stderr)
    if args.coverage:
        coverage.write(args.coverage, args.checkout, oracle.manifest, ran)
    return 0
