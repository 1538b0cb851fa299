#!/usr/bin/python3
"""FID-8: the oracle harness holds no copy of an upstream decision function.

  check_copies.py index --checkout DIR --out FILE ROOT...   (upstream tier: needs the pinned checkout)
      Writes the fingerprint of every function and method (of at least MIN_NODES syntax nodes) in the .py
      files under each ROOT of the checkout: sha256 of its normalised syntax tree, first 16 hex digits, one
      per line, sorted. Only hashes are committed, never upstream code.
  check_copies.py check [--harness DIR]... ENGINES_DIR
      For each ENGINES_DIR/<engine>/oracle holding manifest.yaml and upstream-fingerprints.txt, fingerprints
      every function of its Python files (and of each --harness DIR/*.py, the shared machinery) the same way
      and compares them with every engine's upstream fingerprints; a match is a copy, and a finding unless
      that oracle's manifest declares it a transcription (a replacement of kind transcription listing it under
      `functions:` as "<file>:<qualified name>").

The normal form ignores the function's name, docstring, decorators and source positions, so a copy that is
only renamed or re-documented still matches; a copy with renamed locals does not (review covers that, X5).
Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import argparse
import ast
import copy
import glob
import hashlib
import os
import sys

import yaml

MIN_NODES = 25  # smaller functions (accessors, one-line delegations) say nothing about who wrote them


def _functions(tree: ast.AST):
    def walk(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield prefix + node.name, node
                yield from walk(node.body, prefix + node.name + ".<locals>.")
            elif isinstance(node, ast.ClassDef):
                yield from walk(node.body, prefix + node.name + ".")

    yield from walk(tree.body, "")


def fingerprint(node: ast.AST) -> str | None:
    fn = copy.deepcopy(node)
    fn.name = "_"
    fn.decorator_list = []
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        fn.body = body[1:] or [ast.Pass()]
    if sum(1 for _ in ast.walk(fn)) < MIN_NODES:
        return None
    text = ast.dump(fn, annotate_fields=False, include_attributes=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def file_fingerprints(path: str):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    for qual, node in _functions(tree):
        fp = fingerprint(node)
        if fp is not None:
            yield qual, fp


def index(args) -> int:
    prints = set()
    for root in args.roots:
        top = os.path.join(args.checkout, root)
        paths = [top] if os.path.isfile(top) else glob.glob(os.path.join(top, "**", "*.py"), recursive=True)
        for path in paths:
            try:
                prints.update(fp for _, fp in file_fingerprints(path))
            except SyntaxError:
                continue
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(f"# FID-8: fingerprints of the upstream functions under {', '.join(args.roots)} at the pin of the\n"
                f"# engine's upstream.yaml (checks/harness/oracle/check_copies.py index); hashes only.\n")
        for fp in sorted(prints):
            f.write(fp + "\n")
    print(f"{args.out}: {len(prints)} fingerprints")
    return 0


def check(args) -> int:
    oracles = sorted(d for d in glob.glob(os.path.join(args.engines, "*", "oracle"))
                     if os.path.exists(os.path.join(d, "manifest.yaml"))
                     and os.path.exists(os.path.join(d, "upstream-fingerprints.txt")))
    if not oracles:
        print(f"{args.engines}: no <engine>/oracle with manifest.yaml and upstream-fingerprints.txt", file=sys.stderr)
        return 2
    upstream = set()
    for d in oracles:
        with open(os.path.join(d, "upstream-fingerprints.txt"), encoding="utf-8") as f:
            upstream |= {line.strip() for line in f if line.strip() and not line.startswith("#")}
    findings, scanned, matched_declared, nfiles = [], 0, set(), 0
    for d in oracles:
        with open(os.path.join(d, "manifest.yaml"), encoding="utf-8") as f:
            manifest = yaml.safe_load(f)
        declared = set()
        for e in manifest.get("replacements", []):
            if e.get("kind") == "transcription":
                declared.update(e.get("functions", []))
        files = sorted(glob.glob(os.path.join(d, "*.py")))
        for h in args.harness:
            files += sorted(glob.glob(os.path.join(h, "*.py")))
        nfiles += len(files)
        for path in files:
            name = os.path.basename(path)
            for qual, fp in file_fingerprints(path):
                scanned += 1
                if fp not in upstream:
                    continue
                if f"{name}:{qual}" in declared:
                    matched_declared.add(f"{name}:{qual}")
                    continue
                findings.append(f"{path}: {qual} has the syntax of an upstream function (fingerprint {fp}): the "
                                f"harness must import upstream's code, not copy it, or declare it a transcription (FID-8)")
    findings = sorted(set(findings))
    for f in findings:
        print(f)
    print(f"oracle harness copies: {len(oracles)} oracles, {scanned} harness functions of {nfiles} files against "
          f"{len(upstream)} upstream fingerprints: {len(matched_declared)} declared transcriptions matched, "
          f"{len(findings)} findings")
    return 1 if findings else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("index")
    i.add_argument("--checkout", required=True)
    i.add_argument("--out", required=True)
    i.add_argument("roots", nargs="+")
    c = sub.add_parser("check")
    c.add_argument("--harness", action="append", default=[])
    c.add_argument("engines")
    a = ap.parse_args()
    return index(a) if a.cmd == "index" else check(a)


if __name__ == "__main__":
    sys.exit(main())
