#!/usr/bin/env python3
"""The router's transcription report (X4, FID-4): how every test function of every upstream package the
router port draws on is accounted for in the GoogleTest suites under tests/router/.

usage: report.py --root ROOT [--markdown [FILE] | --check-markdown FILE | --refresh-upstream MIRROR_GIT_DIR]

The packages in scope are the directories of the upstream files router/'s ported files name on their
"Changed for BLIS:" lines (so porting a file from a new package brings that package's tests into scope).
router/fidelity/upstream_tests.json lists every `func TestX(t *testing.T)` of every *_test.go file of those
packages at the pinned commit (written by --refresh-upstream from a mirror of the upstream repository).

A function is `transcribed` when a comment `<path>_test.go@<commit8> TestX` stands inside a GoogleTest
TEST/TEST_F/TEST_P body under tests/router/ or in the comment lines directly above one. Every other
function needs an entry in router/fidelity/untranscribed.yaml:
    - {source: pkg/.../x_test.go, test: TestY, status: not_applicable, reason: "..."}
    - {source: pkg/.../x_test.go, test: TestZ, status: pending, reason: "..."}
Fails (exit 1) when a package in scope is missing from upstream_tests.json, when a function has neither a
transcription nor an entry (or has both), when an entry or a citation names a function upstream does not
have, or when an entry lacks its reason. `pending` passes but is counted. --markdown writes the report
(default docs/router-transcriptions.md); --check-markdown FILE fails when FILE differs from it.
"""
import argparse
import json
import os
import re
import subprocess
import sys

import yaml

STATUSES = ("transcribed", "not_applicable", "pending")
UPSTREAM = os.path.join("router", "fidelity", "upstream_tests.json")
ENTRIES = os.path.join("router", "fidelity", "untranscribed.yaml")
MARKDOWN = os.path.join("docs", "router-transcriptions.md")
CHANGED = "// Changed for BLIS:"
CITED = re.compile(r"((?:pkg|cmd|apix)/[\w./-]+\.go)@([0-9a-f]{8})")
TEST_CITE = re.compile(r"((?:pkg|cmd|apix)/[\w./-]+_test\.go)@([0-9a-f]{8})[ :]+(Test\w*)")
GTEST = re.compile(r"^\s*TEST(?:_F|_P)?\s*\(")
GO_TEST = re.compile(r"^func (Test\w*)\(\w+ \*testing\.T\)", re.M)


def commit_of(root: str) -> str:
    with open(os.path.join(root, "router", "upstream.yaml"), encoding="utf-8") as f:
        m = re.search(r"^commit:\s*([0-9a-f]{40})\s*$", f.read(), re.M)
    if not m:
        raise ValueError("router/upstream.yaml names no commit")
    return m.group(1)


def walk(top: str, exts: tuple[str, ...]):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith(exts):
                yield os.path.join(dirpath, f)


def scope(root: str, commit8: str) -> list[str]:
    """The upstream package directories router/'s ports name on their Changed-for-BLIS lines."""
    dirs = set()
    for path in walk(os.path.join(root, "router"), (".h", ".cpp")):
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(4000).splitlines()
        block, on = [], False
        for line in head:
            if line.startswith(CHANGED):
                on = True
            elif on and not line.startswith("//"):
                break
            if on:
                block.append(line)
        text = " ".join(block)
        # A citation's path may be a bare file name after a full one ("a/b/x.go@c and y.go@c"): only full paths.
        for m in CITED.finditer(text):
            if m.group(2) == commit8:
                dirs.add(os.path.dirname(m.group(1)))
    return sorted(dirs)


def citations(tests_dir: str, commit8: str) -> tuple[dict, list[str]]:
    """{(test file, TestName): [where]} for citations that stand in or directly above a TEST."""
    out, findings = {}, []
    for path in walk(tests_dir, (".cpp", ".cc", ".h")):
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        in_test = False
        for i, line in enumerate(lines):
            if GTEST.match(line):
                in_test = True
            elif line.startswith("}"):
                in_test = False
            for m in TEST_CITE.finditer(line):
                if m.group(2) != commit8:
                    findings.append(f"{path}:{i + 1}: cites {m.group(1)}@{m.group(2)}, not the pin {commit8}")
                    continue
                above = False
                if not in_test:
                    j = i + 1
                    while j < len(lines) and lines[j].lstrip().startswith("//"):
                        j += 1
                    above = j < len(lines) and GTEST.match(lines[j]) is not None
                if in_test or above:
                    out.setdefault((m.group(1), m.group(3)), []).append(f"{os.path.basename(path)}:{i + 1}")
    return out, findings


def judge(root: str, tests_dir: str):
    commit = commit_of(root)
    c8 = commit[:8]
    with open(os.path.join(root, UPSTREAM), encoding="utf-8") as f:
        upstream = json.load(f)
    findings = []
    # The pin is written as a citation of the Upstream record (X23: only versions.yaml and the Upstream records
    # state versions; a `path@commit8` citation is exempt).
    if upstream.get("pinned") != f"router/upstream.yaml@{c8}":
        findings.append(f"{UPSTREAM}: pinned {upstream.get('pinned')!r} is not router/upstream.yaml@{c8}")
    dirs = scope(root, c8)
    listed = set(upstream.get("packages") or [])
    for d in dirs:
        if d not in listed:
            findings.append(f"{UPSTREAM}: package {d} (named by a port under router/) is not listed: run "
                            f"tests/router/fidelity/report.py --root . --refresh-upstream <mirror git dir>")
    functions = {}  # (file, name) -> line
    for entry in upstream.get("files") or []:
        if os.path.dirname(entry["source"]) in dirs:
            for fn in entry["functions"]:
                functions[(entry["source"], fn["name"])] = fn["line"]
    cited, cite_findings = citations(tests_dir, c8)
    findings += cite_findings
    in_scope_files = {f for f, _ in functions}
    for (f, name), where in sorted(cited.items()):
        if f in in_scope_files and (f, name) not in functions:
            findings.append(f"{where[0]}: cites {f} {name}, which is no test function of that file at the pin")
    try:
        with open(os.path.join(root, ENTRIES), encoding="utf-8") as f:
            entries = yaml.safe_load(f) or []
    except FileNotFoundError:
        entries = []
    status = {}
    for e in entries:
        key = (e.get("source"), e.get("test"))
        if key not in functions:
            if os.path.dirname(str(key[0])) in dirs or key[0] in {x["source"] for x in upstream.get("files") or []}:
                findings.append(f"{ENTRIES}: {key[0]} {key[1]} is no test function of a package in scope")
            continue
        if key in status:
            findings.append(f"{ENTRIES}: {key[0]} {key[1]} is listed more than once")
            continue
        if e.get("status") not in ("not_applicable", "pending"):
            findings.append(f"{ENTRIES}: {key[0]} {key[1]}: status {e.get('status')!r} is neither not_applicable nor pending")
            continue
        if not str(e.get("reason") or "").strip():
            findings.append(f"{ENTRIES}: {key[0]} {key[1]}: {e['status']} needs a reason")
        if key in cited:
            findings.append(f"{ENTRIES}: {key[0]} {key[1]} is transcribed ({cited[key][0]}) and also listed as {e['status']}")
        status[key] = e
    rows = {}
    for (f, name), line in sorted(functions.items(), key=lambda kv: (kv[0][0], kv[1])):
        row = rows.setdefault(f, {"source": f, "total": 0, "functions": [], **{s: 0 for s in STATUSES}})
        row["total"] += 1
        if (f, name) in cited:
            st, what = "transcribed", ", ".join(sorted(set(cited[(f, name)])))
        elif (f, name) in status:
            st, what = status[(f, name)]["status"], status[(f, name)].get("reason", "")
        else:
            findings.append(f"{f}:{line}: {name} is neither transcribed under tests/router/ nor listed in {ENTRIES}")
            continue
        row[st] += 1
        row["functions"].append({"name": name, "line": line, "status": st, "what": what})
    return c8, [rows[k] for k in sorted(rows)], findings


def text_report(files) -> str:
    out = [f"{r['source']}: total {r['total']}, transcribed {r['transcribed']}, not_applicable "
           f"{r['not_applicable']}, pending {r['pending']}" for r in files]
    tot = {k: sum(r[k] for r in files) for k in ("total",) + STATUSES}
    out.append(f"all: total {tot['total']}, transcribed {tot['transcribed']}, not_applicable "
               f"{tot['not_applicable']}, pending {tot['pending']}")
    return "\n".join(out) + "\n"


def cell(s: str) -> str:
    return " ".join(str(s).split()).replace("|", "\\|")


def markdown(c8: str, files) -> str:
    tot = {k: sum(r[k] for r in files) for k in ("total",) + STATUSES}
    out = ["<!-- Generated by tests/router/fidelity/report.py --markdown. Do not edit. -->",
           "# llm-d router test transcriptions", "",
           "For agents. How each test function of the upstream packages `router/` ports (at the pin of",
           "`router/upstream.yaml`) is accounted",
           "for in the GoogleTest suites under `tests/router/` (X4, FID-4): transcribed (a TEST citing",
           "`<file>_test.go@<commit8> TestName`), not applicable, or pending, with the reason",
           "(`router/fidelity/untranscribed.yaml`). The upstream list is `router/fidelity/upstream_tests.json`.", "",
           f"All: {tot['total']} functions, {tot['transcribed']} transcribed, {tot['not_applicable']} not applicable, "
           f"{tot['pending']} pending.", "",
           "| Upstream file | Total | Transcribed | Not applicable | Pending |", "|---|---|---|---|---|"]
    for r in files:
        out.append(f"| `{r['source']}` | {r['total']} | {r['transcribed']} | {r['not_applicable']} | {r['pending']} |")
    for r in files:
        out += ["", f"## `{r['source']}`", "", "| Upstream test | Status | Where, or why not |", "|---|---|---|"]
        for fn in r["functions"]:
            out.append(f"| `{fn['name']}` (line {fn['line']}) | {fn['status']} | {cell(fn['what'])} |")
    return "\n".join(out) + "\n"


def refresh(root: str, mirror: str) -> int:
    commit = commit_of(root)
    dirs = scope(root, commit[:8])
    files = []
    for d in dirs:
        names = subprocess.run(["git", "-C", mirror, "ls-tree", "--name-only", f"{commit}:{d}"], check=True,
                               stdout=subprocess.PIPE, text=True).stdout.split()
        for n in sorted(names):
            if not n.endswith("_test.go"):
                continue
            text = subprocess.run(["git", "-C", mirror, "show", f"{commit}:{d}/{n}"], check=True,
                                  stdout=subprocess.PIPE, text=True).stdout
            fns = [{"name": m.group(1), "line": text.count("\n", 0, m.start()) + 1} for m in GO_TEST.finditer(text)]
            files.append({"source": f"{d}/{n}", "functions": fns})
    doc = {"note": "Generated by tests/router/fidelity/report.py --refresh-upstream from the pinned commit; do not edit.",
           "pinned": f"router/upstream.yaml@{commit[:8]}", "packages": dirs, "files": files}
    with open(os.path.join(root, UPSTREAM), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"router-transcription-report: wrote {UPSTREAM}: {len(dirs)} packages, {len(files)} test files, "
          f"{sum(len(x['functions']) for x in files)} test functions")
    return 0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--tests-dir", help="where the GoogleTest sources live (default ROOT/tests/router)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--markdown", nargs="?", const="", metavar="FILE")
    g.add_argument("--check-markdown", metavar="FILE")
    g.add_argument("--refresh-upstream", metavar="MIRROR_GIT_DIR")
    a = p.parse_args()
    root = os.path.abspath(a.root)
    if a.refresh_upstream:
        return refresh(root, a.refresh_upstream)
    try:
        c8, files, findings = judge(root, a.tests_dir or os.path.join(root, "tests", "router"))
    except (OSError, ValueError, KeyError) as e:
        print(f"report: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(text_report(files))
    for line in findings:
        print(line)
    if findings:
        print(f"router-transcription-report: {len(findings)} finding(s)")
        return 1
    if a.markdown is not None:
        path = a.markdown or os.path.join(root, MARKDOWN)
        with open(path, "w", encoding="utf-8") as f:
            f.write(markdown(c8, files))
        print(f"router-transcription-report: wrote {path}")
    elif a.check_markdown:
        try:
            with open(a.check_markdown, encoding="utf-8") as f:
                old = f.read()
        except OSError:
            old = None
        if old != markdown(c8, files):
            print(f"{a.check_markdown} is stale: run tests/router/fidelity/report.py --root . --markdown")
            return 1
        print(f"router-transcription-report: {a.check_markdown} is fresh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
