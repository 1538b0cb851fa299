#!/usr/bin/env python3
"""DEV-7's round trip: run -> export -> replay gives the same run.

usage: round_trip.py RUNNER SCENARIO

Runs SCENARIO for one replication with its trace exported, replays the trace under the same scenario, and
requires the per-request CSV (every request's fate and times) and every figure's value to be the same. The
two Results differ only where the frame says how the workload was given (clients, then replay) and in what
the figures' uncertainty covers (a replay has no random input).
"""
import json
import os
import subprocess
import sys
import tempfile


def main() -> int:
    runner, scenario = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        first, second, trace = os.path.join(tmp, "run"), os.path.join(tmp, "replay"), os.path.join(tmp, "trace")
        for argv in ([runner, "--replications", "1", "--out", first, "--trace-out", trace, scenario],
                     [runner, "replay", "--out", second, scenario, trace]):
            p = subprocess.run(argv, capture_output=True, text=True)
            if p.returncode != 0:
                print(f"{scenario}: {' '.join(argv[1:2])} failed:\n{p.stderr}")
                return 1
        with open(os.path.join(first, "requests.csv"), encoding="utf-8") as f:
            csv_a = f.read()
        with open(os.path.join(second, "requests.csv"), encoding="utf-8") as f:
            csv_b = f.read()
        if csv_a != csv_b:
            for n, (x, y) in enumerate(zip(csv_a.splitlines(), csv_b.splitlines())):
                if x != y:
                    print(f"{scenario}: the replay's requests differ from the run's, first at line {n + 1}:\n  run:    {x}\n  replay: {y}")
                    break
            else:
                print(f"{scenario}: the replay's requests differ from the run's in number")
            return 1
        with open(os.path.join(first, "result.json"), encoding="utf-8") as f:
            a = json.load(f)
        with open(os.path.join(second, "result.json"), encoding="utf-8") as f:
            b = json.load(f)
        if a["fates"] != b["fates"]:
            print(f"{scenario}: the replay's fates differ from the run's: {a['fates']} and {b['fates']}")
            return 1
        for x, y in zip(a["metrics"], b["metrics"]):
            if (x["metric"], x.get("value"), x.get("withheld")) != (y["metric"], y.get("value"), y.get("withheld")):
                print(f"{scenario}: figure {x['metric']} differs: run {x.get('value')}, replay {y.get('value')}")
                return 1
        print(f"{scenario}: run, export and replay give the same {len(csv_a.splitlines()) - 1} requests and figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
