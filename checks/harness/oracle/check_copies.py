#!/usr/bin/python3
"""FID-8: the oracle harness holds no copy of an upstream decision function.

  check_copies.py index --checkout DIR [--out FILE] [--names-out FILE [--stand-ins MANIFEST]] ROOT...
      (upstream tier: needs the pinned checkout.) --out writes the fingerprint of every function and method
      (of at least MIN_NODES syntax nodes) in the .py files under each ROOT of the checkout: sha256 of its
      normalised syntax tree, first 16 hex digits, one per line, sorted. --names-out writes the short
      qualified name (see short_names) of every function, method and class under the same ROOTs and, with
      --stand-ins, in the upstream modules MANIFEST's replacements stand in for (those found in the
      checkout), sorted, one per line. Only hashes and names are committed, never upstream code.
  check_copies.py check [--harness DIR]... ENGINES_DIR
      For each ENGINES_DIR/<engine>/oracle holding manifest.yaml and upstream-fingerprints.txt, fingerprints
      every function of its Python files (and of each --harness DIR/*.py, the shared machinery) the same way
      and compares them with every engine's upstream fingerprints; a match is a copy, and a finding unless
      that oracle's manifest declares it a transcription (a replacement of kind transcription listing it under
      `functions:` as "<file>:<qualified name>").
  check_copies.py names [--harness DIR]... ENGINES_DIR
      For each ENGINES_DIR/<engine>/oracle holding manifest.yaml and upstream-names.txt, compares the short
      qualified name of every function, method and class of its Python files with that engine's upstream
      names, and those of each --harness DIR/*.py (the shared machinery) with every engine's. A dunder name
      (__init__, __getattr__, ...) never matches on its own (a dunder method is named like upstream only
      through its class). A match is a finding unless that engine's manifest declares it under
      `named_like_upstream:` as {name: "<file>:<short qualified name>", kind: stand-in | coincidence |
      transcription, reason: ...} (a stand-in class covers its methods); a declaration naming no definition,
      or one that collides with nothing of that engine, is a finding too (stale). A harness file whose first
      HEADER_LINES lines carry a derived-from header (HEADER: "derived", "ported", "adapted", "copied",
      "transcribed", "translated" or "lifted", then "from", in any case) is a finding unless the manifest
      declares a function of that file a transcription (in a transcription replacement's `functions:` or a
      `named_like_upstream` entry of kind transcription); for the shared machinery, either manifest may.

A fingerprint's normal form ignores the function's name, docstring, decorators and source positions, so a copy that is
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
import re
import sys

import yaml

MIN_NODES = 25  # smaller functions (accessors, one-line delegations) say nothing about who wrote them
HEADER_LINES = 30
HEADER = re.compile(r"\b(derived|ported|adapted|copied|transcribed|translated|lifted)\s+from\b", re.IGNORECASE)
DECLARED_KINDS = ("stand-in", "coincidence", "transcription")


def _functions(tree: ast.AST):
    def walk(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield prefix + node.name, node
                yield from walk(node.body, prefix + node.name + ".<locals>.")
            elif isinstance(node, ast.ClassDef):
                yield from walk(node.body, prefix + node.name + ".")

    yield from walk(tree.body, "")


def short_names(tree: ast.AST):
    """(short qualified name, node, the enclosing class's short qualified name or None) of every function, method and class:
    the innermost enclosing class plus the name (`Scheduler.schedule`; a nested class `Outer.Inner`), with the
    frames of enclosing functions dropped (a function or class defined in a function is named alone, as is a
    top-level one)."""
    def walk(body, cls, cls_short):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                short = f"{cls}.{node.name}" if cls else node.name
                yield short, node, cls_short
                if isinstance(node, ast.ClassDef):
                    yield from walk(node.body, node.name, short)
                else:
                    yield from walk(node.body, None, None)
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)):
                # definitions under `if TYPE_CHECKING:`, try/except imports and the like keep their scope
                for part in ("body", "orelse", "finalbody"):
                    yield from walk(getattr(node, part, []), cls, cls_short)
                for handler in getattr(node, "handlers", []):
                    yield from walk(handler.body, cls, cls_short)

    yield from walk(tree.body, None, None)


def is_dunder(qual: str) -> bool:
    last = qual.rsplit(".", 1)[-1]
    return last.startswith("__") and last.endswith("__") and len(last) > 4


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


def _py_files(checkout: str, root: str) -> list[str]:
    top = os.path.join(checkout, root)
    return [top] if os.path.isfile(top) else sorted(glob.glob(os.path.join(top, "**", "*.py"), recursive=True))


def _parse(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            return ast.parse(f.read(), filename=path)
    except (SyntaxError, UnicodeDecodeError):
        return None


def stand_in_paths(checkout: str, manifest_path: str) -> tuple[list[str], list[str]]:
    """The checkout paths of the modules the manifest's replacements stand in for, and the modules not found
    there (torch, numpy, ...: not upstream's)."""
    with open(manifest_path, encoding="utf-8") as f:
        manifest = yaml.safe_load(f)
    found, missing = [], []
    for e in manifest.get("replacements") or []:
        rel = e["module"].replace(".", "/")
        for cand in (rel + ".py", rel + "/__init__.py", "python/" + rel + ".py", "python/" + rel + "/__init__.py"):
            if os.path.isfile(os.path.join(checkout, cand)):
                found.append(cand)
                break
        else:
            missing.append(e["module"])
    return sorted(set(found)), missing


def _comment(text: str, width: int = 110) -> str:
    lines, line = [], "#"
    for word in text.split():
        if len(line) + 1 + len(word) > width and line != "#":
            lines.append(line)
            line = "#"
        line += " " + word
    lines.append(line)
    return "\n".join(lines) + "\n"


def index(args) -> int:
    if not args.out and not args.names_out:
        print("index: give --out, --names-out or both", file=sys.stderr)
        return 2
    if args.out:
        prints = set()
        for root in args.roots:
            for path in _py_files(args.checkout, root):
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
    if args.names_out:
        paths = [p for root in args.roots for p in _py_files(args.checkout, root)]
        extra = []
        if args.stand_ins:
            extra, missing = stand_in_paths(args.checkout, args.stand_ins)
            if missing:
                print(f"{args.stand_ins}: {len(missing)} replaced modules are not in the checkout: {', '.join(missing)}")
            paths += [os.path.join(args.checkout, p) for p in extra]
        names, nfiles = set(), 0
        for path in sorted(set(os.path.normpath(p) for p in paths)):
            tree = _parse(path)
            if tree is None:
                continue
            nfiles += 1
            names.update(short for short, _, _ in short_names(tree))
        with open(args.names_out, "w", encoding="utf-8") as f:
            f.write(_comment(f"FID-8: the short qualified names (innermost class plus name; checks/harness/oracle/"
                             f"check_copies.py short_names) of the upstream functions, methods and classes under "
                             f"{', '.join(args.roots)}"
                             + (f" and in the {len(extra)} modules {args.stand_ins}'s replacements stand in for: "
                                f"{', '.join(extra)}" if args.stand_ins else "")
                             + f"; {nfiles} files at the pin of the engine's upstream.yaml (check_copies.py index "
                               f"--names-out); names only."))
            for name in sorted(names):
                f.write(name + "\n")
        print(f"{args.names_out}: {len(names)} names of {nfiles} files ({len(extra)} stand-in modules)")
    return 0


def oracle_dirs(engines: str, index_file: str) -> list[str]:
    """Each ENGINES/<engine>/oracle holding manifest.yaml and the given upstream index; says so when none does."""
    found = sorted(d for d in glob.glob(os.path.join(engines, "*", "oracle"))
                   if os.path.exists(os.path.join(d, "manifest.yaml")) and os.path.exists(os.path.join(d, index_file)))
    if not found:
        print(f"{engines}: no <engine>/oracle with manifest.yaml and {index_file}", file=sys.stderr)
    return found


def check(args) -> int:
    oracles = oracle_dirs(args.engines, "upstream-fingerprints.txt")
    if not oracles:
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


def _declarations(manifest: dict, where: str, findings: list) -> dict:
    decls = {}
    for i, e in enumerate(manifest.get("named_like_upstream") or []):
        name = e.get("name") if isinstance(e, dict) else None
        if not isinstance(name, str) or ":" not in name or e.get("kind") not in DECLARED_KINDS or not e.get("reason"):
            findings.append(f"{where}: named_like_upstream[{i}] is not {{name: \"<file>:<qualified name>\", kind: "
                            f"{' | '.join(DECLARED_KINDS)}, reason: ...}} (FID-8)")
            continue
        if name in decls:
            findings.append(f"{where}: named_like_upstream declares {name} twice (FID-8)")
        decls[name] = e
    return decls


def _transcriptions(manifest: dict) -> set:
    declared = set()
    for e in manifest.get("replacements") or []:
        if isinstance(e, dict) and e.get("kind") == "transcription":
            declared.update(e.get("functions") or [])
    for e in manifest.get("named_like_upstream") or []:
        if isinstance(e, dict) and e.get("kind") == "transcription" and isinstance(e.get("name"), str):
            declared.add(e["name"])
    return declared


def header_line(path: str):
    """(line number, phrase) of the first derived-from phrase in the file's first HEADER_LINES lines, or None."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if n > HEADER_LINES:
                break
            m = HEADER.search(line)
            if m:
                return n, line.strip()
    return None


def names(args) -> int:
    oracles = oracle_dirs(args.engines, "upstream-names.txt")
    if not oracles:
        return 2
    shared = [p for h in args.harness for p in sorted(glob.glob(os.path.join(h, "*.py")))]
    defs, fulls = {}, {}  # path -> [(short qualified name, enclosing class's)], path -> [qualified names]
    for path in sorted({p for d in oracles for p in glob.glob(os.path.join(d, "*.py"))} | set(shared)):
        tree = _parse(path)
        if tree is None:
            print(f"{path}: cannot be parsed", file=sys.stderr)
            return 2
        defs[path] = [(short, cls) for short, _, cls in short_names(tree)]
        fulls[path] = [qual for qual, _ in _functions(tree)]
    findings, collisions, by_kind, upstream_total = [], 0, {}, 0
    transcribed_files = {}  # basename -> engines whose manifest declares a transcription in it
    per_engine = []
    for d in oracles:
        engine = os.path.basename(os.path.dirname(d))
        with open(os.path.join(d, "upstream-names.txt"), encoding="utf-8") as f:
            upstream = {line.strip() for line in f if line.strip() and not line.startswith("#")}
        upstream_total += len(upstream)
        mpath = os.path.join(d, "manifest.yaml")
        with open(mpath, encoding="utf-8") as f:
            manifest = yaml.safe_load(f) or {}
        decls = _declarations(manifest, mpath, findings)
        files = sorted(glob.glob(os.path.join(d, "*.py"))) + shared
        existing, used = set(), set()
        for path in files:
            base = os.path.basename(path)
            existing.update(f"{base}:{short}" for short, _ in defs[path])
            existing.update(f"{base}:{full}" for full in fulls[path])
            for short, cls in defs[path]:
                if is_dunder(short) or short not in upstream:
                    continue
                collisions += 1
                key, cover = f"{base}:{short}", f"{base}:{cls}" if cls else None
                if key in decls:
                    used.add(key)
                    by_kind[decls[key]["kind"]] = by_kind.get(decls[key]["kind"], 0) + 1
                elif cover in decls and decls[cover]["kind"] == "stand-in":
                    used.add(cover)
                    by_kind["stand-in (by its class)"] = by_kind.get("stand-in (by its class)", 0) + 1
                else:
                    findings.append(f"{path}: {short} is named like an upstream {engine} function or class (in "
                                    f"{engine}/oracle/upstream-names.txt) and {engine}'s manifest does not declare it: "
                                    f"name the harness's own code differently, or declare \"{key}\" under "
                                    f"named_like_upstream as a stand-in, coincidence or transcription (FID-8)")
        for key in sorted(decls):
            if key not in existing:
                findings.append(f"{mpath}: named_like_upstream declares {key}, which names no definition of the "
                                f"{engine} oracle or the shared harness (a stale declaration; FID-8)")
            elif key not in used:
                findings.append(f"{mpath}: named_like_upstream declares {key}, which is not named like any upstream "
                                f"{engine} function or class (a stale declaration; FID-8)")
        for key in _transcriptions(manifest):
            if key in existing:
                transcribed_files.setdefault(key.split(":", 1)[0], set()).add(d)
        per_engine.append((d, files))
    headers = 0
    for d, files in per_engine:
        for path in files:
            if path in shared and d != per_engine[0][0]:
                continue  # the shared machinery's headers are read once
            hit = header_line(path)
            if hit is None:
                continue
            headers += 1
            base = os.path.basename(path)
            owners = transcribed_files.get(base, set())
            if (path in shared and owners) or d in owners:
                continue
            findings.append(f"{path}:{hit[0]}: carries a derived-from header ({hit[1]!r}) and no manifest declares a "
                            f"function of {base} a transcription: the harness must import upstream's code, not copy "
                            f"it (FID-8)")
    findings = sorted(set(findings))
    for f in findings:
        print(f)
    print(f"oracle harness names: {len(oracles)} oracles, {sum(len(v) for v in defs.values())} harness definitions "
          f"of {len(defs)} files against {upstream_total} upstream names: "
          f"{collisions} collisions, declared by kind {dict(sorted(by_kind.items()))}; {headers} derived-from headers; "
          f"{len(findings)} findings")
    return 1 if findings else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("index")
    i.add_argument("--checkout", required=True)
    i.add_argument("--out", help="the fingerprints file (upstream-fingerprints.txt)")
    i.add_argument("--names-out", help="the names file (upstream-names.txt)")
    i.add_argument("--stand-ins", metavar="MANIFEST",
                   help="with --names-out: also index the modules MANIFEST's replacements stand in for")
    i.add_argument("roots", nargs="+")
    c = sub.add_parser("check")
    c.add_argument("--harness", action="append", default=[])
    c.add_argument("engines")
    n = sub.add_parser("names")
    n.add_argument("--harness", action="append", default=[])
    n.add_argument("engines")
    a = ap.parse_args()
    return {"index": index, "check": check, "names": names}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
