#!/usr/bin/env python3
"""VLM-3: `blis fields vllm` prints the embedded field list (test vllm-fields-cli).

usage: test_fields_cli.py BLIS SRC_ROOT

`--json` must print engines/vllm/fields.json byte for byte; the table must have one line per field of that
file, in its order, each naming the field, its group (or kind), its status and a reason; an unknown engine
is refused.
"""
import json
import subprocess
import sys


def main() -> int:
    blis, root = sys.argv[1], sys.argv[2]
    committed = open(f"{root}/engines/vllm/fields.json", "rb").read()
    out = subprocess.run([blis, "fields", "vllm", "--json"], capture_output=True, check=True).stdout
    failures = []
    if out != committed:
        failures.append("blis fields vllm --json differs from engines/vllm/fields.json (rebuild blis after regenerating)")
    doc = json.loads(committed)
    table = subprocess.run([blis, "fields", "vllm"], capture_output=True, check=True, text=True).stdout.splitlines()
    if not table or f"{len(doc['fields'])} fields" not in table[0]:
        failures.append(f"the table's header does not count {len(doc['fields'])} fields: {table[:1]}")
    rows = [line.split("\t") for line in table[1:]]
    if len(rows) != len(doc["fields"]):
        failures.append(f"{len(rows)} table rows for {len(doc['fields'])} fields")
    for row, f in zip(rows, doc["fields"]):
        status = next(iter(f["status"]))
        want = [f["name"], f.get("group", f["kind"]), status]
        if len(row) != 4 or row[:3] != want or not row[3]:
            failures.append(f"row {row[:3]} should be {want} with a reason")
            break
    bad = subprocess.run([blis, "fields", "no-such-engine"], capture_output=True, text=True)
    if bad.returncode == 0 or "unknown engine" not in bad.stderr:
        failures.append("an unknown engine is not refused")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"blis fields: {len(doc['fields'])} fields, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
