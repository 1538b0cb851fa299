#!/usr/bin/env python3
"""The framework every coefficient-registry writer script uses (SUB-4; registry/README.md).

A writer script declares what it writes and calls `run`:

    import writer

    def produce(ctx):                      # ctx: the families list and the catalog, read once
        yield writer.coefficient_set("floor", "gemm", entries, sources)

    if __name__ == "__main__":
        sys.exit(writer.run(__file__, produce))

The framework puts every mapping in its schema's field order, formats the YAML deterministically under
the header "# written by registry/scripts/<script>; do not edit", validates the result against the
schema (gen/blisgen/schema.py) and the registry's validators (check_registry.py) before anything is
written, and owns the files whose header names the script: a file the writer no longer produces is
removed. `--check` regenerates in memory and compares byte for byte, exiting 1 and naming each stale
file.

usage: <writer>.py [--root ROOT] [--check]
       writer.py --check-all [--root ROOT]     run every registry/scripts/write_*.py with --check
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_registry as cr  # noqa: E402

CODE_ROOT = cr.CODE_ROOT

# Small mappings written on one line, so an entry reads as one block.
FLOW_TYPES = {"Scope", "Boundary", "Interval95", "Range", "CatalogFact", "Sampling", "Drafter", "Curve"}


@dataclasses.dataclass
class Output:
    kind: str   # the schema: coefficient-set | acceptance-profile
    rel: str    # where it is written, relative to the root
    body: dict


def coefficient_set(set_name: str, family: str, entries: list[dict], sources: dict | None = None) -> Output:
    body = {"set": set_name, "family": family}
    if sources:
        body["sources"] = sources
    body["entries"] = entries
    return Output("coefficient-set", f"{cr.SETS_DIR}/{set_name}/{family}.yaml", body)


def acceptance_set(set_name: str, profiles: list[dict], sources: dict | None = None) -> Output:
    body = {"set": set_name}
    if sources:
        body["sources"] = sources
    body["profiles"] = profiles
    return Output("acceptance-profile", f"{cr.ACCEPTANCE_DIR}/{set_name}.yaml", body)


class Context:
    """What writers read: the families list and the catalog (plain data), under one root."""

    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        reg = cr.Registry(self.root, overrides={}, removed=set(_all_registry_files(self.root)))
        self.families: dict = reg.families
        self.chips: dict[str, tuple[str, dict]] = reg.chips       # name -> (relative path, data)
        self.networks: dict[str, tuple[str, dict]] = reg.networks
        self.catalog_findings = reg.findings


# --- formatting ---------------------------------------------------------------------------------------

class _FlowMap(dict):
    pass


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data):  # never anchors: a reused dict is written out each time
        return True


_Dumper.add_representer(_FlowMap, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v, flow_style=True))


def _canonical(schema, spec: dict, value, type_name: str | None = None):
    """Orders every object by its schema's fields and every map by key; lists keep their order."""
    t = spec.get("type")
    if t == "ref":
        return _canonical(schema, schema.resolve(spec["ref"]), value, spec["ref"])
    if t == "object" and isinstance(value, dict):
        fields = spec.get("fields", {})
        out = {k: _canonical(schema, fields[k], value[k]) for k in fields if k in value}
        out.update({k: v for k, v in value.items() if k not in fields})  # left for the validator to refuse
        return _FlowMap(out) if type_name in FLOW_TYPES else out
    if t == "map" and isinstance(value, dict):
        return {k: _canonical(schema, spec["values"], value[k]) for k in sorted(value)}
    if t == "list" and isinstance(value, list):
        return [_canonical(schema, spec["items"], v) for v in value]
    return value


def header(script: str) -> str:
    return cr.HEADER.format(script=script) + f"\n# regenerate: /usr/bin/python3 registry/scripts/{script}\n"


def render(schema, out: Output, script: str) -> str:
    body = dict(out.body)
    body["written_by"] = f"registry/scripts/{script}"
    data = _canonical(schema, {"type": "object", "fields": schema.root["fields"]}, body)
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, default_flow_style=False, allow_unicode=True,
                     width=100)
    return header(script) + text


# --- running ------------------------------------------------------------------------------------------

def _all_registry_files(root: str) -> list[str]:
    return cr._yaml_files(root, cr.SETS_DIR) + cr._yaml_files(root, cr.ACCEPTANCE_DIR)


def owned_files(root: str, script: str) -> list[str]:
    """The registry files whose header names this script."""
    want = cr.HEADER.format(script=script)
    out = []
    for rel in _all_registry_files(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            if f.readline().rstrip("\n") == want:
                out.append(rel)
    return out


def build(root: str, script: str, produce, require_complete: bool = False):
    """Runs the writer in memory: (texts by path, files it owns but no longer writes, refusals)."""
    ctx = Context(root)
    schemas = cr.registry_schemas()
    texts: dict[str, str] = {}
    for out in produce(ctx):
        if out.rel in texts:
            raise SystemExit(f"{script}: writes {out.rel} twice")
        texts[out.rel] = render(schemas[out.kind], out, script)
    orphans = sorted(set(owned_files(root, script)) - set(texts))
    reg = cr.Registry(root, overrides=texts, removed=set(orphans))
    errors, _ = cr.check(reg, require_complete=require_complete)
    mine = [e for e in errors if not e.files and require_complete or set(e.files) & set(texts)]
    return texts, orphans, mine


def run(script_path: str, produce, require_complete: bool = False, argv: list[str] | None = None) -> int:
    script = os.path.basename(script_path)
    p = argparse.ArgumentParser(prog=script)
    p.add_argument("--root", default=CODE_ROOT, help="the tree holding registry/ and catalog/ (default: this checkout)")
    p.add_argument("--check", action="store_true", help="regenerate in memory and compare; write nothing")
    a = p.parse_args(argv)
    root = os.path.abspath(a.root)
    texts, orphans, errors = build(root, script, produce, require_complete)
    if errors:
        for e in errors:
            print(e)
        print(f"{script}: refused: what it would write breaks {len(errors)} rule(s); nothing written")
        return 1
    regen = f"/usr/bin/python3 registry/scripts/{script}"
    if a.check:
        stale = []
        for rel, text in sorted(texts.items()):
            path = os.path.join(root, rel)
            try:
                with open(path, encoding="utf-8", newline="") as f:
                    same = f.read() == text
            except FileNotFoundError:
                stale.append(f"{rel}: missing: {script} writes it [registry-writers-check; SUB-4]")
                continue
            if not same:
                stale.append(f"{rel}: stale: it differs from what {script} writes (edited by hand, or its "
                             f"inputs changed) [registry-writers-check; SUB-4]")
        for rel in orphans:
            stale.append(f"{rel}: stale: {script} no longer writes it [registry-writers-check; SUB-4]")
        for s in stale:
            print(s)
        if stale:
            print(f"regenerate with: {regen}")
            return 1
        print(f"{script}: {len(texts)} file(s) fresh")
        return 0
    changed = 0
    for rel, text in sorted(texts.items()):
        path = os.path.join(root, rel)
        try:
            with open(path, encoding="utf-8", newline="") as f:
                if f.read() == text:
                    continue
        except FileNotFoundError:
            pass
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        changed += 1
        print(f"{script}: wrote {rel}")
    for rel in orphans:
        os.remove(os.path.join(root, rel))
        print(f"{script}: removed {rel}")
    print(f"{script}: {len(texts)} file(s), {changed} changed, {len(orphans)} removed")
    return 0


def check_all(root: str) -> int:
    """Runs every writer script's --check (the registry-writers-check test)."""
    scripts = sorted(f for f in os.listdir(cr.SCRIPTS) if f.startswith("write_") and f.endswith(".py"))
    if not scripts:
        print("writer.py: no writer scripts (registry/scripts/write_*.py)")
        return 1
    bad = 0
    for s in scripts:
        r = subprocess.run([sys.executable, os.path.join(cr.SCRIPTS, s), "--check", "--root", root],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(r.stdout, end="")
        bad += r.returncode != 0
    # Every registry file is some writer's (SUB-4): its header names an existing writer script.
    known = {cr.HEADER.format(script=s) for s in scripts}
    for rel in _all_registry_files(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            first = f.readline().rstrip("\n")
        if first not in known:
            print(f"{rel}:1:1: no writer script wrote it (its first line names none of "
                  f"registry/scripts/write_*.py) [registry-writers-check; SUB-4]")
            bad += 1
    print(f"writer.py: {len(scripts)} writer(s) checked, {bad} failing")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="the writer framework; run alone, checks every writer")
    p.add_argument("--check-all", action="store_true", required=True)
    p.add_argument("--root", default=CODE_ROOT)
    a = p.parse_args(argv)
    return check_all(os.path.abspath(a.root))


if __name__ == "__main__":
    sys.exit(main())
