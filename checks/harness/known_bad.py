#!/usr/bin/env python3
"""The known-bad harness (X18): runs one check on its known-bad input and passes only if the check fails.

A check fails by exiting 1 after printing what it found. Exit 0 on the known-bad input means the check
cannot fail there; any other status means the check broke rather than judged, and both fail the harness.
With --expect, the check's output must also name the expected finding, so it fails for the right reason.
"""
import argparse
import subprocess
import sys


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--id", required=True)
    p.add_argument("--check", required=True)
    p.add_argument("--expect", default="-", help="text the failing check must print ('-': none)")
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        print("known-bad harness: no command given", file=sys.stderr)
        return 2
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = proc.stdout
    sys.stdout.write(out)
    who = f"check '{a.check}' of {a.id}"
    if proc.returncode == 0:
        print(f"known-bad harness: {who} passed on its known-bad input: a check that cannot fail is not a check [X18]")
        return 1
    if proc.returncode != 1:
        print(f"known-bad harness: {who} broke (exit {proc.returncode}) instead of reporting a finding [X18]")
        return 1
    if a.expect != "-" and a.expect not in out:
        print(f"known-bad harness: {who} failed, but not with the expected finding {a.expect!r} [X18]")
        return 1
    print(f"known-bad harness: {who} fails on its known-bad input, as it must")
    return 0


if __name__ == "__main__":
    sys.exit(main())
