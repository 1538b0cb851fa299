#!/usr/bin/env python3
"""X23: a version is written in one place. Flags version literals of this project, its toolchain, its
dependencies and its modelled upstreams anywhere but versions.yaml and generated files.

usage: version_literals.py --versions VERSIONS_YAML INPUT
Each version is looked for right after a name it belongs to (a compiler, meson, an upstream's name),
and an upstream commit anywhere it is not a citation (path@commit8). Exempt (INTERFACES.md): versions.yaml,
files blis-gen writes, Upstream records (*/upstream.*), an engine's generated field, surface and
upstream-test lists, oracle traces (*.trace.json) and coverage records, and `version:` lines of scenario files.
"""
import argparse
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tree  # noqa: E402

SEP = r"[\s\-_@:=v>=<~^'\"]{0,6}"
NAMES = {  # versions.yaml key -> the names a literal of that version follows
    "project.blis": [r"blis", r"version"],
    "toolchain.gxx_major": [r"g\+\+", r"gcc", r"gxx", r"libstdc\+\+"],
    "toolchain.llvm_major": [r"llvm", r"llvm-config", r"clang", r"libclang-cpp", r"libclang", r"lib/clang"],
    "toolchain.meson_min": [r"meson", r"meson_version"],
    "dependencies.tree_sitter_python": [r"tree-sitter-python"],
    "dependencies.tree_sitter_cpp": [r"tree-sitter-cpp"],
    "dependencies.tree_sitter_abi": [r"abi"],
    "upstreams.vllm": [r"vllm"],
    "upstreams.sglang": [r"sglang"],
    "upstreams.llm_d_router": [r"llm-d", r"llm-d-router", r"router"],
}
GENERATED = {"AGENTS.md", "docs/invariants.md", "docs/invariants.json", "docs/checklists/pull-request.md",
             "docs/checklists/maintainer.md", "versions.yaml"}
TEXT_ENDINGS = (".c", ".cc", ".cpp", ".h", ".hpp", ".py", ".sh", ".md", ".yaml", ".yml", ".json", ".txt",
                ".build", ".j2", ".toml", ".cfg", ".ini", "run")


def patterns(versions: dict):
    out = []
    for key, names in NAMES.items():
        group, name = key.split(".")
        entry = versions.get(group, {}).get(name)
        if entry is None:
            continue
        if isinstance(entry, dict):  # an upstream: its release after its name, its commit anywhere
            out.append((key, re.compile(rf"(?i)\b(?:{'|'.join(names)}){SEP}{re.escape(str(entry['release']))}(?![\w.])")))
            out.append((key, re.compile(rf"(?<![@\w]){re.escape(str(entry['commit']))}")))
        else:
            out.append((key, re.compile(rf"(?i)(?<![\w])(?:{'|'.join(names)}){SEP}{re.escape(str(entry))}(?![\w.])")))
    return out


def exempt(rel: str, line: str) -> bool:
    base = os.path.basename(rel)
    if rel in GENERATED or base.startswith("upstream."):
        return True
    if rel.startswith("engines/") and base in ("fields.json", "surface.json", "upstream_tests.json"):
        return True  # an engine's generated lists carry its Upstream record's release and commit
    if rel.startswith("engines/") and rel.endswith("/fields/statuses.yaml") and re.match(r"\s*(release|commit):", line):
        return True  # the field list's engine block (fields-list schema), which its generator copies
    if base.endswith(".trace.json") or (base == "upstream-coverage.json" and "/oracle/" in rel):
        return True  # an oracle trace, or its coverage record, names the upstream commit it was recorded from
    if rel.startswith("docs/") and base.startswith("vllm-transcriptions"):
        return True  # generated from the transcription manifests, which cite the pinned commit
    if rel.endswith((".yaml", ".yml")) and re.match(r"\s*version:", line) and "scenario" in rel:
        return True  # a scenario's engine.version names the release it asks for
    return False


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--versions", required=True)
    p.add_argument("input")
    a = p.parse_args()
    with open(a.versions, encoding="utf-8") as f:
        pats = patterns(yaml.safe_load(f))
    scanned, rows = tree.lines(
        a.input, lambda rel: rel.endswith(TEXT_ENDINGS) or os.path.basename(rel) in ("meson.build", "run"))
    findings = [f"{rel}:{n}: '{m.group(0).strip()}' writes the version of {key}, which only versions.yaml "
                f"may state [version-literals; X23]"
                for rel, n, line in rows if not exempt(rel, line) for key, pat in pats for m in [pat.search(line)] if m]
    return tree.finish(findings, f"version-literals: {scanned} files state no version outside versions.yaml")


if __name__ == "__main__":
    sys.exit(main())
