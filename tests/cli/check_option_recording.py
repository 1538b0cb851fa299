#!/usr/bin/python3
"""SIM-10 cli-option-recording: every option that can change a byte of the Result is among its inputs.

  check_option_recording.py BLIS SRC_ROOT VARIATIONS.yaml   run each variation, then judge it
  check_option_recording.py BLIS SRC_ROOT ROWS.csv          judge rows recorded before (a known-bad input)

VARIATIONS.yaml names a scenario, the base arguments of `blis run`, and one variation per option: a flag with
its arguments, or an environment variable with its value (`@SRC@` is the source root, `@TMP@` a scratch
directory; `overlay_of` copies one data file into a scratch overlay first). Each variation is run beside
the base; its Result (from stdout, or the file `result` names) is compared with the base's without `inputs`
and `build`. A variation whose Result differs must add an input naming the option (`records`, by default
the flag without its dashes or the variable) given `via` flag or environment with the value it was given.
Coverage: every flag `blis run --help` lists and every variable it names (`(or BLIS_...)`) has a variation,
or is declared `output_only` with the reason.
Rows (`option,via,value,changed,recorded`, one per variation) are judged the same way.
Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml


def result_of(proc, path=None):
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip()[-400:])
    text = open(path, encoding="utf-8").read() if path else proc.stdout
    result = json.loads(text)
    inputs = result.pop("inputs", [])
    result.pop("build", None)
    return result, inputs


def expand(value, src, tmp):
    return value.replace("@SRC@", src).replace("@TMP@", tmp)


def coverage(blis, table):
    helptext = subprocess.run([blis, "run", "--help"], capture_output=True, text=True).stdout
    offered = set(re.findall(r"^\s+(--[a-z][a-z-]*)", helptext, re.M)) | set(re.findall(r"\(or (BLIS_[A-Z_]+)\)", helptext))
    covered = {v.get("flag") or v.get("variable") for v in table["variations"]}
    return [f"`blis run --help` offers {o}, which no variation tries and none declares output-only"
            for o in sorted(offered - covered)], len(offered)


def run_variations(blis, src, table):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        scenario = expand(table["scenario"], src, tmp)
        base_args = [expand(a, src, tmp) for a in table.get("base", [])]
        env0 = {k: v for k, v in os.environ.items() if not k.startswith("BLIS_")}
        base, base_inputs = result_of(subprocess.run([blis, "run", *base_args, scenario], capture_output=True,
                                                     text=True, env=env0))
        for v in table["variations"]:
            if "output_only" in v:
                continue
            if "overlay_of" in v:
                tree, _, rel = v["overlay_of"].partition("/")
                dest = os.path.join(tmp, f"{tree}-overlay", rel)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                shutil.copyfile(os.path.join(src, v["overlay_of"]), dest)
            env, args = dict(env0), list(base_args)
            if "variable" in v:
                option, via, value = v["variable"], "environment", expand(v["value"], src, tmp)
                env[option] = value
            else:
                given = [expand(a, src, tmp) for a in v["args"]]
                option, via, value = v["flag"].lstrip("-"), "flag", given[-1]
                args += given
            result, inputs = result_of(subprocess.run([blis, "run", *args, scenario], capture_output=True,
                                                      text=True, env=env),
                                       expand(v["result"], src, tmp) if "result" in v else None)
            names = v.get("records", [option])
            added = [i for i in inputs if i not in base_inputs]
            recorded = any(i["option"] in names and i["via"] == via and (i["value"] == value or "records" in v)
                           for i in added)
            rows.append({"option": option, "via": via, "value": value, "changed": str(result != base).lower(),
                         "recorded": str(recorded).lower()})
    return rows


def judge(rows):
    return [f"{r['option']} ({r['via']}, {r['value']}) changes bytes of the Result but is not recorded among its "
            f"inputs (SIM-10)" for r in rows if r["changed"] == "true" and r["recorded"] != "true"]


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    blis, src, path = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    findings = []
    try:
        if path.endswith(".csv"):
            with open(path, encoding="utf-8", newline="") as f:
                rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
            offered = None
        else:
            with open(path, encoding="utf-8") as f:
                table = yaml.safe_load(f)
            findings, offered = coverage(blis, table)
            rows = run_variations(blis, src, table)
    except (OSError, RuntimeError, KeyError, ValueError) as e:
        print(f"check_option_recording: cannot run: {e}", file=sys.stderr)
        return 2
    findings += judge(rows)
    for r in rows:
        print(f"  {r['option']:<20} {r['via']:<12} changed={r['changed']:<6} recorded={r['recorded']}")
    for f in findings:
        print(f)
    print(f"option recording: {len(rows)} variations" + (f" of {offered} offered options" if offered else "") +
          f"; {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
