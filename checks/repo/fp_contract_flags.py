#!/usr/bin/env python3
"""X6, the build half of the FMA rule: every compile command of the project's own code passes
-ffp-contract=off (and nothing later turns contraction back on),
except a source whose first line marks fusion as intended.

usage: fp_contract_flags.py COMPILE_COMMANDS_JSON
"""
import argparse
import json
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tree  # noqa: E402

MARK = "fusion intended:"  # a source whose first line says this may turn contraction on, on purpose


def intended(entry: dict) -> bool:
    path = os.path.join(entry.get("directory", ""), entry["file"])
    try:
        with open(path, encoding="utf-8") as f:
            return MARK in f.readline()
    except OSError:
        return False


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("compile_commands")
    a = p.parse_args()
    with open(a.compile_commands, encoding="utf-8") as f:
        entries = json.load(f)
    findings = [] if entries else [f"{a.compile_commands}: no compile commands to check [fp-contract-flags; X6]"]
    for e in entries:
        args = e.get("arguments") or shlex.split(e["command"])
        modes = [x.split("=", 1)[1] for x in args if x.startswith("-ffp-contract=")]
        if (not modes or modes[-1] != "off") and not (modes and intended(e)):
            why = "has no -ffp-contract=off" if not modes else f"ends with -ffp-contract={modes[-1]}"
            findings.append(f"{a.compile_commands}: {e['file']}: compile command {why} [fp-contract-flags; X6]")
    return tree.finish(findings, f"fp-contract-flags: all {len(entries)} compile commands pass -ffp-contract=off")


if __name__ == "__main__":
    sys.exit(main())
