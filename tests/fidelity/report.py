#!/usr/bin/env python3
"""The transcription report of an engine port (X5, FID-4): how each upstream test of the pinned test files
is accounted for in the port's GoogleTest suites.

usage: report.py --root ROOT [--engine vllm|sglang] [--markdown [FILE] | --check-markdown FILE]

Reads engines/<engine>/fidelity/upstream_tests.json (every test function of the pinned test files: module-level
functions by name, unittest methods as `Class.method`; written by `vllm-surface-gen tests` or
`sglang-upstream-tests`) and one manifest per file, engines/<engine>/fidelity/<file stem>.yaml:
    source: <upstream path>.py@<commit8>
    functions:
      - {name: test_x, status: transcribed, tests: [Suite.Name, ...], stands_in_for: "..."}
      - {name: test_y, status: not_applicable, reason: "..."}
      - {name: test_z, status: pending, reason: "..."}
Fails (exit 1) when a manifest is missing or names another source, when an upstream function is absent
from its manifest or listed twice, when a manifest names a function upstream does not have, when a
transcribed entry lacks stands_in_for or names a Suite.Name that no TEST/TEST_F/TEST_P under tests/<engine>/
defines, or when an entry lacks its reason. `pending` passes but is counted. Prints per file: total,
transcribed, not_applicable, pending. --markdown writes the report as Markdown (default
docs/<engine>-transcriptions.md); --check-markdown FILE fails when FILE differs from what --markdown writes.
"""
import argparse
import json
import os
import re
import sys

import yaml

STATUSES = ("transcribed", "not_applicable", "pending")
GTEST = re.compile(r"\bTEST(?:_F|_P)?\s*\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*\)")
ENGINES = {"vllm": "vLLM", "sglang": "SGLang"}  # --engine -> the name the report prints


def gtest_names(tests_dir: str) -> set[str]:
    """Every Suite.Name a TEST, TEST_F or TEST_P under tests_dir defines."""
    out = set()
    for dirpath, dirnames, filenames in os.walk(tests_dir):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith((".cpp", ".cc", ".h")):
                with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                    out.update(f"{s}.{n}" for s, n in GTEST.findall(fh.read()))
    return out


def judge(root: str, tests_dir: str, engine: str = "vllm"):
    """(per-file rows for the report, findings)."""
    fid = os.path.join(root, "engines", engine, "fidelity")
    with open(os.path.join(fid, "upstream_tests.json"), encoding="utf-8") as f:
        upstream = json.load(f)
    defined = gtest_names(tests_dir)
    files, findings = [], []
    for entry in upstream["files"]:
        source = entry["source"]
        path = source.split("@")[0]
        stem = os.path.splitext(os.path.basename(path))[0]
        manifest = os.path.join("engines", engine, "fidelity", f"{stem}.yaml")
        names = [fn["name"] for fn in entry["functions"]]
        line_of = {fn["name"]: fn["line"] for fn in entry["functions"]}
        row = {"source": source, "manifest": manifest, "total": len(names), "functions": [],
               **{s: 0 for s in STATUSES}}
        files.append(row)
        if not os.path.isfile(os.path.join(root, manifest)):
            findings.append(f"{manifest}: missing; every upstream test of {path} needs a status")
            continue
        with open(os.path.join(root, manifest), encoding="utf-8") as f:
            try:
                doc = yaml.safe_load(f) or {}
            except yaml.YAMLError as e:
                findings.append(f"{manifest}: not YAML: {e}")
                continue
        if doc.get("source") != source:
            findings.append(f"{manifest}: source is {doc.get('source')!r}, not {source}")
        seen = {}
        for fn in doc.get("functions") or []:
            name = fn.get("name") if isinstance(fn, dict) else None
            if not name:
                findings.append(f"{manifest}: an entry without a name: {fn!r}")
                continue
            seen[name] = seen.get(name, 0) + 1
            if seen[name] == 2:
                findings.append(f"{manifest}: {name} is listed more than once")
            if name not in line_of:
                findings.append(f"{manifest}: {name} is no test function of {source}")
                continue
            if seen[name] > 1:
                continue
            status = fn.get("status")
            if status not in STATUSES:
                findings.append(f"{manifest}: {name}: status {status!r} is none of {', '.join(STATUSES)}")
                continue
            row[status] += 1
            if status == "transcribed":
                tests = fn.get("tests") or []
                if not tests:
                    findings.append(f"{manifest}: {name}: transcribed, but names no test")
                for t in tests:
                    if t not in defined:
                        findings.append(f"{manifest}: {name}: {t} is no TEST/TEST_F/TEST_P(Suite, Name) under "
                                        f"{os.path.relpath(tests_dir, root)}/")
                if not str(fn.get("stands_in_for") or "").strip():
                    findings.append(f"{manifest}: {name}: transcribed, but says nothing in stands_in_for")
            elif not str(fn.get("reason") or "").strip():
                findings.append(f"{manifest}: {name}: {status} needs a reason")
            row["functions"].append({"name": name, "line": line_of[name], **fn})
        for name in names:
            if name not in seen:
                findings.append(f"{manifest}: {name} ({source}:{line_of[name]}) has no entry")
    return files, findings


def text_report(files) -> str:
    out = []
    for r in files:
        out.append(f"{r['source']}: total {r['total']}, transcribed {r['transcribed']}, "
                   f"not_applicable {r['not_applicable']}, pending {r['pending']}")
    tot = {k: sum(r[k] for r in files) for k in ("total",) + STATUSES}
    out.append(f"all: total {tot['total']}, transcribed {tot['transcribed']}, "
               f"not_applicable {tot['not_applicable']}, pending {tot['pending']}")
    return "\n".join(out) + "\n"


def cell(s: str) -> str:
    return " ".join(str(s).split()).replace("|", "\\|")


def markdown(files, engine: str = "vllm") -> str:
    flag = "" if engine == "vllm" else f" --engine {engine}"
    out = [f"<!-- Generated by tests/fidelity/report.py{flag} --markdown from engines/{engine}/fidelity/. Do not edit. -->",
           f"# {ENGINES[engine]} test transcriptions", "",
           "For agents. How each upstream test function of the pinned KV-cache and scheduler tests is accounted",
           f"for in the port's GoogleTest suites under `tests/{engine}/` (X5, FID-4). Each file's manifest is",
           f"`engines/{engine}/fidelity/<file stem>.yaml`; the upstream list is `engines/{engine}/fidelity/upstream_tests.json`.",
           "", "| Upstream file | Total | Transcribed | Not applicable | Pending |", "|---|---|---|---|---|"]
    for r in files:
        out.append(f"| `{r['source']}` | {r['total']} | {r['transcribed']} | {r['not_applicable']} | {r['pending']} |")
    for r in files:
        out += ["", f"## `{r['source']}`", "", "| Upstream test | Status | Tests or reason |", "|---|---|---|"]
        for fn in sorted(r["functions"], key=lambda f: f["line"]):
            what = ", ".join(f"`{t}`" for t in fn.get("tests") or []) if fn["status"] == "transcribed" \
                else cell(fn.get("reason", ""))
            out.append(f"| `{fn['name']}` (line {fn['line']}) | {fn['status']} | {what} |")
    return "\n".join(out) + "\n"


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--engine", default="vllm", choices=sorted(ENGINES))
    p.add_argument("--tests-dir", help="where the GoogleTest sources live (default ROOT/tests/<engine>)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--markdown", nargs="?", const="", metavar="FILE")
    g.add_argument("--check-markdown", metavar="FILE")
    a = p.parse_args()
    root = os.path.abspath(a.root)
    try:
        files, findings = judge(root, a.tests_dir or os.path.join(root, "tests", a.engine), a.engine)
    except (OSError, ValueError, KeyError) as e:
        print(f"report: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(text_report(files))
    for line in findings:
        print(line)
    if findings:
        print(f"{a.engine}-transcription-report: {len(findings)} finding(s)")
        return 1
    if a.markdown is not None:
        path = a.markdown or os.path.join(root, "docs", f"{a.engine}-transcriptions.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(markdown(files, a.engine))
        print(f"{a.engine}-transcription-report: wrote {path}")
    elif a.check_markdown:
        try:
            with open(a.check_markdown, encoding="utf-8") as f:
                old = f.read()
        except OSError:
            old = None
        if old != markdown(files, a.engine):
            flag = "" if a.engine == "vllm" else f" --engine {a.engine}"
            print(f"{a.check_markdown} is stale: run tests/fidelity/report.py --root .{flag} --markdown")
            return 1
        print(f"{a.engine}-transcription-report: {a.check_markdown} is fresh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
