#!/usr/bin/env python3
"""The byte gate (SIM-4): every scenario under scenarios/ must give the same Result bytes as expected/.

usage: byte_gate.py RUNNER GOLDEN_DIR [--update]

Each scenario runs four times: at one thread and at two threads, each twice. Every run's Result, without
its `build` record (which names the commit), must equal expected/<scenario>.json byte for byte, and every
run's per-request CSV must be the same bytes, whose SHA-256 is expected/<scenario>.csv.sha256 (the CSVs
run to megabytes; the hash keeps the repository small, and --update on the old commit shows a difference).
--update rewrites the expected files from the one-thread run (a change to them is a change to the model,
reviewed as such, §8.9).
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile


def run(runner, scenario, threads, out):
    subprocess.run([runner, "--threads", str(threads), "--out", out, scenario], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with open(os.path.join(out, "result.json"), encoding="utf-8") as f:
        result = json.load(f)
    del result["build"]
    with open(os.path.join(out, "requests.csv"), encoding="utf-8") as f:
        csv = f.read()
    return json.dumps(result, indent=2) + "\n", csv


def main() -> int:
    runner, golden = sys.argv[1], sys.argv[2]
    update = "--update" in sys.argv[3:]
    scenarios = sorted(n for n in os.listdir(os.path.join(golden, "scenarios")) if n.endswith(".yaml"))
    if not scenarios:
        print("byte gate: no scenario under", golden)
        return 1
    failed = 0
    for name in scenarios:
        stem = name[: -len(".yaml")]
        path = os.path.join(golden, "scenarios", name)
        outputs = []
        before = failed
        with tempfile.TemporaryDirectory() as tmp:
            for k, threads in enumerate((1, 2, 1, 2)):
                try:
                    outputs.append(run(runner, path, threads, os.path.join(tmp, str(k))))
                except subprocess.CalledProcessError as e:
                    print(f"{stem}: the run failed at {threads} thread(s):\n{e.stderr.decode()}")
                    return 1
        expected_json = os.path.join(golden, "expected", stem + ".json")
        expected_csv = os.path.join(golden, "expected", stem + ".csv.sha256")
        csv_hash = hashlib.sha256(outputs[0][1].encode()).hexdigest() + "\n"
        if update:
            with open(expected_json, "w", encoding="utf-8") as f:
                f.write(outputs[0][0])
            with open(expected_csv, "w", encoding="utf-8") as f:
                f.write(csv_hash)
        for k, (result, csv) in enumerate(outputs):
            if result != outputs[0][0] or csv != outputs[0][1]:
                print(f"{stem}: run {k} ({(1, 2, 1, 2)[k]} threads) differs from run 0")
                failed += 1
        with open(expected_json, encoding="utf-8") as f:
            if f.read() != outputs[0][0]:
                print(f"{stem}: the Result differs from {expected_json}")
                failed += 1
        with open(expected_csv, encoding="utf-8") as f:
            if f.read() != csv_hash:
                print(f"{stem}: the per-request CSV differs from {expected_csv}")
                failed += 1
        print(f"{stem}: {'ok' if failed == before else 'FAILED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
