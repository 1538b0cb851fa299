#!/usr/bin/env python3
"""Runs SGL-6's refused-types check (tests/sglang/refused_types/refused_types_test.cpp) on one surface list.

usage: run_refused_types.py <sglang-refused-types-test executable> <surface.json>
The exit status is the check's (1: a finding, 2: it could not judge).
"""
import os
import subprocess
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    exe, surface = sys.argv[1], sys.argv[2]
    if not os.path.isfile(exe):
        print(f"run_refused_types: {exe} is not built (ninja builds it with the default target)", file=sys.stderr)
        return 2
    return subprocess.run([exe, surface]).returncode


if __name__ == "__main__":
    sys.exit(main())
