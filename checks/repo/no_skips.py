#!/usr/bin/env python3
"""X16: a skipped test in the required tier fails the run. Reads a Meson log directory after `meson test`:
testlog.json (one JSON object per test) and, when present, testlog.junit.xml (which holds the GoogleTest
cases of tests run with protocol gtest). Prints the closing count line and exits 1 on any skip or failure.

usage: no_skips.py MESON_LOGS_DIR
"""
import argparse
import json
import os
import sys
import xml.etree.ElementTree as ET

PASSING = {"OK", "EXPECTEDFAIL"}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("logs")
    a = p.parse_args()
    path = os.path.join(a.logs, "testlog.json")
    try:
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        print(f"{path}: no test log: the required tier did not run [no-skips; X16]")
        return 1
    passed = failed = skipped = 0
    for r in rows:
        if r["result"] == "SKIP":
            skipped += 1
            print(f"{path}: test '{r['name']}' was skipped: a skipped required test fails the run [no-skips; X16]")
        elif r["result"] in PASSING:
            passed += 1
        else:
            failed += 1
            print(f"{path}: test '{r['name']}' ended {r['result']}")
    junit = os.path.join(a.logs, "testlog.junit.xml")
    if os.path.exists(junit):
        for case in ET.parse(junit).getroot().iter("testcase"):
            if case.find("skipped") is not None:
                skipped += 1
                print(f"{junit}: case '{case.get('classname')}.{case.get('name')}' was skipped: a skipped "
                      f"required test fails the run [no-skips; X16]")
    if not rows:
        print(f"{path}: the log holds no test: the required tier ran nothing [no-skips; X16]")
        return 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 0 if failed == 0 and skipped == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
