#!/usr/bin/python3
"""SIM-11 invalid-value-parity: a value refused through one input is refused, for the same cause, through every other.

  check_value_parity.py BLIS SRC_ROOT CASES.yaml [--write-rows OUT.csv]   run every route, then judge
  check_value_parity.py BLIS SRC_ROOT ROWS.csv                            judge rows recorded before (known-bad)

CASES.yaml lists kinds of value that more than one input carries. Each kind has routes (a way to give the
value: `command`, the arguments of blis, with `env` variables; `scenario`/`deployment`, key paths set in a
scratch copy of the table's scenario's Scenario/Deployment document; `trace`, key paths set in the header of
a scratch copy of a trace that `blis run --replications 1 --trace-out` exports from that scenario), the field
each route's refusal must name, its `invalid` values (smallest invalid, overflow, malformed, unknown) and one
closest `valid` value. A value is the same text on every route, or a map from route to text. In arguments,
variables and set values `@VALUE@` is the value, `@SCENARIO@` and `@TRACE@` the scratch files, `@SRC@` the
source root, `@TMP@` the scratch directory (which holds an empty file for each name in `scratch_files`).

Every route is run (in parallel) and judged:
  - an invalid value must be refused (exit non-zero) by every route; a route that accepts it while another
    refuses it is a finding naming both, and a value no route refuses is a finding (the table is wrong);
  - the refusal must name the field and the value: the line of its output that names the route's field
    (the field's text, after a space or colon and before a colon or space) must name the value after it;
  - every route must refuse for the same cause. The cause is that line after the field name (so the
    program's name, the file:line:col and the field path, which differ by route, are cut away), without the
    leading ': ', with each occurrence of the value (as a whole token) replaced by <value>. So
    "blis run: s.yaml:17:7: seed: -1 is below the minimum 0" and "blis run: t.trace:15:11: seed: -1 is
    below the minimum 0" are one cause, "<value> is below the minimum 0"; a bound or wording that differs is
    another cause;
  - the closest valid value must be accepted (exit 0) by every route (the SIM-9 pair);
  - a route killed by a signal is a finding.
Rows (`kind,case,valid,route,field,given,exit,message`: one per run, message the refusal line) are judged the
same way. Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import concurrent.futures
import copy
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import yaml

COLUMNS = ["kind", "case", "valid", "route", "field", "given", "exit", "message"]
MARK = "PARITYVALUEMARK"  # stands for the value in a document until its text is put in


def expand(value: str, subs: dict) -> str:
    for k, v in subs.items():
        value = value.replace(k, v)
    return value


def marked(tree):
    """The set value with each '@VALUE@' replaced by MARK (the value's text goes in after dumping)."""
    if isinstance(tree, dict):
        return {k: marked(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [marked(v) for v in tree]
    return MARK if tree == "@VALUE@" else tree


def put(doc, path: str, value) -> None:
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    for k in keys[:-1]:
        doc = doc[k]
    doc[keys[-1]] = value


def scenario_text(docs: list, route: dict, given: str) -> str:
    docs = copy.deepcopy(docs)
    for index, key in ((0, "deployment"), (1, "scenario")):
        for path, v in route.get(key, {}).items():
            put(docs[index], path, marked(v))
    text = "---\n".join(yaml.safe_dump(d, sort_keys=False, width=1000) for d in docs)
    return text.replace(MARK, given)


def trace_text(trace: str, sets: dict, given: str) -> str:
    head, sep, rest = trace.partition("\n...\n")
    header = json.loads(head)
    for path, v in sets.items():
        put(header, path, marked(v))
    return json.dumps(header, indent=2).replace(f'"{MARK}"', given) + sep + rest


def field_at(message: str, field: str):
    return re.search(r"(?:^|(?<=[\s:]))" + re.escape(field) + r"(?=[:\s]|$)", message)


def value_re(given: str):
    return re.compile(r"(?<![\w.\-/])" + re.escape(given) + r"(?![\w.\-/])")


def refusal_line(stderr: str, field: str) -> str:
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    return next((l for l in lines if field_at(l, field)), lines[0] if lines else "")


def cause(row: dict):
    """(cause, None) or (None, what the refusal fails to name)."""
    m = field_at(row["message"], row["field"])
    if not m:
        return None, f"the field {row['field']!r}"
    rest = row["message"][m.end():].lstrip(": ").strip()
    if not value_re(row["given"]).search(rest):
        return None, f"the value {row['given']!r}"
    return value_re(row["given"]).sub("<value>", rest), None


def run_table(blis: str, src: str, table: dict, tmp: str) -> list[dict]:
    scenario_path = expand(table["scenario"], {"@SRC@": src})
    with open(scenario_path, encoding="utf-8") as f:
        docs = list(yaml.safe_load_all(f))
    for name in table.get("scratch_files", []):
        open(os.path.join(tmp, name), "w").close()
    env0 = {k: v for k, v in os.environ.items() if not k.startswith("BLIS_")}
    base_trace = os.path.join(tmp, "base.trace")
    proc = subprocess.run([blis, "run", "--replications", "1", "--trace-out", base_trace, scenario_path],
                          capture_output=True, text=True, env=env0)
    if proc.returncode != 0:
        raise RuntimeError(f"exporting the base trace failed: {proc.stderr.strip()[-400:]}")
    with open(base_trace, encoding="utf-8") as f:
        trace = f.read()
    jobs = []
    for kind in table["kinds"]:
        routes = {r["route"]: r for r in kind["routes"]}
        values = [(v, "false") for v in kind["invalid"]] + [(kind["valid"], "true")]
        for value, valid in values:
            label = value if isinstance(value, str) else next(iter(value.values()))
            for name, route in routes.items():
                given = expand(value if isinstance(value, str) else value[name], {"@SRC@": src, "@TMP@": tmp})
                case_dir = tempfile.mkdtemp(prefix="c", dir=tmp)
                subs = {"@VALUE@": given, "@SRC@": src, "@TMP@": tmp, "@SCENARIO@": scenario_path,
                        "@TRACE@": base_trace}
                if "scenario" in route or "deployment" in route:
                    subs["@SCENARIO@"] = os.path.join(case_dir, "s.yaml")
                    with open(subs["@SCENARIO@"], "w", encoding="utf-8") as f:
                        f.write(scenario_text(docs, route, given))
                if "trace" in route:
                    subs["@TRACE@"] = os.path.join(case_dir, "t.trace")
                    with open(subs["@TRACE@"], "w", encoding="utf-8") as f:
                        f.write(trace_text(trace, route["trace"], given))
                argv = [blis] + [expand(a, subs) for a in route["command"]]
                env = dict(env0, **{k: expand(v, subs) for k, v in route.get("env", {}).items()})
                row = {"kind": kind["kind"], "case": label, "valid": valid, "route": name, "field": route["field"],
                       "given": given}
                jobs.append((row, argv, env))

    def one(job):
        row, argv, env = job
        p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=240)
        row["exit"] = str(p.returncode)
        row["message"] = "" if p.returncode == 0 else refusal_line(p.stderr or p.stdout, row["field"])
        return row

    # The acceptances (each loads the data; compare loads it twice) start first, so no worker idles at the end.
    order = sorted(range(len(jobs)), key=lambda i: (jobs[i][0]["valid"] != "true", jobs[i][1][1] != "compare"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        done = dict(zip(order, pool.map(one, [jobs[i] for i in order])))
    return [done[i] for i in range(len(jobs))]


def judge(rows: list[dict]) -> list[str]:
    groups: dict = {}
    for r in rows:
        groups.setdefault((r["kind"], r["case"], r["valid"]), []).append(r)
    out = []
    for (kind, case, valid), group in groups.items():
        for r in group:
            if int(r["exit"]) < 0:
                out.append(f"{kind}: {r['route']} crashed (signal {-int(r['exit'])}) on {r['given']!r}")
        refusing = [r for r in group if r["exit"] != "0"]
        if valid == "true":
            out += [f"{kind}: {r['route']} refuses the closest valid value {r['given']!r}: {r['message']}"
                    for r in refusing]
            continue
        if not refusing:
            out.append(f"{kind}: every route accepts {case!r}, listed as invalid")
        for r in (r for r in group if refusing and r["exit"] == "0"):
            o = refusing[0]
            out.append(f"{kind}: {r['route']} accepts {r['given']!r}, which {o['route']} refuses "
                       f"({o['given']!r}: {o['message']})")
        first = None
        for r in refusing:
            c, missing = cause(r)
            if missing:
                out.append(f"{kind}: {r['route']} refuses {r['given']!r} without naming {missing}: {r['message']}")
            elif first is None:
                first = (r, c)
            elif c != first[1]:
                out.append(f"{kind}: {r['route']} refuses {r['given']!r} for another cause than {first[0]['route']}: "
                           f"{c!r} ({r['message']}) vs {first[1]!r} ({first[0]['message']})")
    return out


def main() -> int:
    args = sys.argv[1:]
    write_rows = None
    if len(args) == 5 and args[3] == "--write-rows":
        write_rows, args = args[4], args[:3]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    blis, src, path = args[0], os.path.abspath(args[1]), args[2]
    started = time.monotonic()
    try:
        if path.endswith(".csv"):
            with open(path, encoding="utf-8", newline="") as f:
                rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
            if rows and set(COLUMNS) - set(rows[0]):
                raise ValueError(f"{path}: the columns are not {','.join(COLUMNS)}")
        else:
            with open(path, encoding="utf-8") as f:
                table = yaml.safe_load(f)
            with tempfile.TemporaryDirectory() as tmp:
                rows = run_table(blis, src, table, tmp)
    except (OSError, RuntimeError, KeyError, ValueError, TypeError, yaml.YAMLError,
            subprocess.TimeoutExpired) as e:
        print(f"check_value_parity: cannot run: {e}", file=sys.stderr)
        return 2
    if write_rows:
        with open(write_rows, "w", encoding="utf-8", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(rows)
    findings = judge(rows)
    for r in rows:
        verdict = "accepts" if r["exit"] == "0" else f"refuses (exit {r['exit']})"
        print(f"  {r['kind']:<20} {r['route']:<28} {'valid' if r['valid'] == 'true' else 'invalid':<8} "
              f"{r['given'][-40:]!r:<44} {verdict}")
    for f in findings:
        print(f)
    kinds = len({r["kind"] for r in rows})
    print(f"value parity: {kinds} kinds, {len({(r['kind'], r['case']) for r in rows})} values, {len(rows)} "
          f"{'recorded rows' if path.endswith('.csv') else 'runs'}"
          f" in {time.monotonic() - started:.1f} s; {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
