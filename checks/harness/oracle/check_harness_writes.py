#!/usr/bin/python3
"""FID-1 write-outside-listed-site: every write the oracle runner makes into upstream's world sits at a site the
manifest's harness section lists. Run without the upstream checkout.

  check_harness_writes.py ORACLE_DIR

ORACLE_DIR (engines/<engine>/oracle) holds runner.py and manifest.yaml. The check reads runner.py's syntax tree
and finds its writes into objects that are not the runner's own:
  - an assignment (plain, augmented or annotated) or deletion whose target is an attribute of anything but the
    enclosing method's `self` (`s.enable_overlap = ...`, `batch.forward_iter = ...`, `time.monotonic = ...`);
  - a subscript write or deletion on `os.environ` or `sys.modules`;
  - a call of `setattr`, `delattr`, `<x>.__dict__.update`, `<x>.__setattr__`, `os.environ.pop`, `os.putenv` or
    `os.unsetenv`.
Each write belongs to the functions and classes that enclose it (qualified names: `Oracle.run`,
`Oracle.attach_environment.Tokenizer.send`, ...). The manifest's harness sites name where the runner replaces
something: a site's text `runner.py <name> ...` lists every qualified name of runner.py that appears in it as a
word (`runner.py Oracle.model_runner and Oracle.launch` lists both; a class nested in a method may be named by
its own name when that is capitalised or private: `RecordingPublisher`). A write is inside a listed site when one of
its enclosing names is listed; a write at module level, or inside no listed name, is a finding naming the line,
the enclosing function and what it writes. A site that names no definition of runner.py is a finding too (a
renamed function would otherwise leave its site pointing nowhere). stubs.py is not read here: its replacements
are listed module by module (check_manifest.py).

Exit 0 when every write is inside a listed site, 1 with each finding printed, 2 when it cannot run.
"""

from __future__ import annotations

import ast
import os
import re
import sys

import yaml

CALLS = {"setattr", "delattr"}
METHOD_CALLS = {("__dict__", "update"), (None, "__setattr__"), (None, "__delattr__")}
ENV_CALLS = {("environ", "pop"), ("os", "putenv"), ("os", "unsetenv")}
GUARDED_MAPPINGS = {"environ", "modules"}  # os.environ[...] / sys.modules[...]


def dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Subscript):
        return f"{dotted(node.value)}[...]"
    if isinstance(node, ast.Call):
        return f"{dotted(node.func)}(...)"
    return type(node).__name__


class Writes(ast.NodeVisitor):
    """Collects (line, enclosing qualified names, what) for every write into objects not the runner's own. A def
    directly inside a class is a method, whose first parameter is its own self."""

    def __init__(self):
        self.scope: list[tuple[str, str | None]] = []  # (name, the method's self parameter, if a method)
        self.kinds: list[str] = []                      # "class" / "def", innermost last
        self.defined: set[str] = set()
        self.found: list[tuple[int, list[str], str]] = []

    def qualnames(self) -> list[str]:
        names = [n for n, _ in self.scope]
        return [".".join(names[: i + 1]) for i in range(len(names))]

    def _enter(self, node, name: str, self_name: str | None, kind: str):
        self.scope.append((name, self_name))
        self.kinds.append(kind)
        self.defined.add(".".join(n for n, _ in self.scope))
        self.generic_visit(node)
        self.kinds.pop()
        self.scope.pop()

    def visit_ClassDef(self, node):
        self._enter(node, node.name, None, "class")

    def visit_FunctionDef(self, node):
        args = node.args.posonlyargs + node.args.args
        is_method = bool(self.kinds) and self.kinds[-1] == "class"
        self._enter(node, node.name, args[0].arg if is_method and args else None, "def")

    visit_AsyncFunctionDef = visit_FunctionDef

    def _own_self(self) -> str | None:
        return self.scope[-1][1] if self.scope else None

    def _note(self, node, what: str):
        self.found.append((node.lineno, self.qualnames(), what))

    def _target(self, t):
        if isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                self._target(e)
        elif isinstance(t, ast.Starred):
            self._target(t.value)
        elif isinstance(t, ast.Attribute):
            if not (isinstance(t.value, ast.Name) and t.value.id == self._own_self()):
                self._note(t, f"writes {dotted(t)}")
        elif isinstance(t, ast.Subscript):
            if isinstance(t.value, ast.Attribute) and t.value.attr in GUARDED_MAPPINGS:
                self._note(t, f"writes {dotted(t)}")

    def visit_Assign(self, node):
        for t in node.targets:
            self._target(t)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self._target(node.target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self._target(node.target)
        self.generic_visit(node)

    def visit_Delete(self, node):
        for t in node.targets:
            self._target(t)
        self.generic_visit(node)

    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Name) and f.id in CALLS:
            self._note(node, f"calls {f.id}({', '.join(dotted(a) for a in node.args[:2])})")
        elif isinstance(f, ast.Attribute):
            owner = f.value.attr if isinstance(f.value, ast.Attribute) else (
                f.value.id if isinstance(f.value, ast.Name) else None)
            if (owner, f.attr) in METHOD_CALLS or (None, f.attr) in METHOD_CALLS or (owner, f.attr) in ENV_CALLS:
                self._note(node, f"calls {dotted(f)}")
        self.generic_visit(node)


def collect(source: str, filename: str) -> Writes:
    w = Writes()
    w.visit(ast.parse(source, filename))
    return w


def listed_names(sites: list[str], defined: set[str]) -> tuple[set[str], list[str]]:
    """The runner's qualified names each `runner.py ...` site names, and the sites that name none."""
    names, empty = set(), []
    for site in sites:
        if not site.startswith("runner.py "):
            continue
        words = {w.rstrip(".") for w in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", site[len("runner.py "):])}
        # A qualified name as written, or a class's own name (capitalised or private) for a class nested in a method.
        hit = {q for q in defined if q in words or (q.rsplit(".", 1)[-1] in words and q.rsplit(".", 1)[-1][0] in
                                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ_")}
        if hit:
            names |= hit
        else:
            empty.append(site)
    return names, empty


def check(oracle_dir: str) -> list[str]:
    runner = os.path.join(oracle_dir, "runner.py")
    with open(runner, encoding="utf-8") as f:
        source = f.read()
    with open(os.path.join(oracle_dir, "manifest.yaml"), encoding="utf-8") as f:
        manifest = yaml.safe_load(f) or {}
    sites = [str(h.get("site", "")) for h in (manifest.get("harness") or [])]
    w = collect(source, runner)
    names, empty = listed_names(sites, w.defined)
    findings = [f"manifest harness site {s!r} names no definition of runner.py" for s in empty]
    for line, enclosing, what in w.found:
        if not any(q in names for q in enclosing):
            where = enclosing[-1] if enclosing else "module level"
            findings.append(f"runner.py:{line} {where} {what} outside the manifest's harness sites (FID-1)")
    return findings


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        findings = check(argv[0])
    except (OSError, SyntaxError, yaml.YAMLError) as e:
        print(f"check_harness_writes: {e}", file=sys.stderr)
        return 2
    for f in findings:
        print(f)
    print(f"oracle harness writes ({argv[0]}): {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
