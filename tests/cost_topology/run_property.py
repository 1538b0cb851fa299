#!/usr/bin/env python3
"""Runs SUB-17's property check (tests/cost_topology/property_test.cpp) on one demand-function variant file.

usage: run_property.py <cost-path-property-test executable> <variant file>
The RapidCheck seed is fixed (RC_PARAMS, unless the caller sets it) so a run is reproducible; the exit
status is the test's (1: a property failed).
"""
import os
import subprocess
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    exe, variant = sys.argv[1], sys.argv[2]
    if not os.path.isfile(exe):
        print(f"run_property: {exe} is not built (ninja builds it with the default target)", file=sys.stderr)
        return 2
    env = dict(os.environ)
    env.setdefault("RC_PARAMS", "seed=1717 max_success=150")
    return subprocess.run([exe, variant], env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
