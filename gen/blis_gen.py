#!/usr/bin/env python3
"""blis-gen: compiles invariants/ and schemas/ into C++ tables, docs, checklists and Meson registrations.

Exit status: 0 done, 1 the inputs are wrong or a committed output is stale (messages say where), 2 usage.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from blisgen import (emit_cpp, emit_docs, emit_json, emit_jsonschema, emit_lint_docs, emit_meson,  # noqa: E402
                     emit_refusals, emit_schema_cpp, emit_schema_docs, lints, versions)
from blisgen.registry import list_record_files, load_registry  # noqa: E402
from blisgen.render import write_if_changed  # noqa: E402
from blisgen.schema import Schema, load_schemas  # noqa: E402
from blisgen.yamlnodes import GenError, load  # noqa: E402

REFRESH = "meson compile -C build gen-refresh  (or: /usr/bin/python3 gen/blis_gen.py refresh --root .)"


def committed_outputs(records, root: str) -> dict[str, str]:
    out = emit_docs.emit_all(records)
    out["docs/invariants.json"] = emit_json.emit(records)
    schemas = load_schemas(os.path.join(root, "schemas"))
    out.update(emit_jsonschema.emit_all(schemas))
    out["docs/schemas.md"] = emit_schema_docs.emit(schemas)
    out["docs/lints.md"] = emit_lint_docs.emit(records, root)
    return dict(sorted(out.items()))


def schema_inputs(root: str) -> list[str]:
    """Every file the generated schema code depends on (for the build's dependency list)."""
    sdir = os.path.join(root, "schemas")
    out = []
    for dirpath, dirnames, filenames in os.walk(sdir):
        dirnames[:] = sorted(d for d in dirnames if d not in ("json",))
        out += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith((".yaml", ".json"))]
    return sorted(out)


def _schema_output_names(root: str) -> list[str]:
    sdir = os.path.join(root, "schemas")
    names = ["common"] if os.path.exists(os.path.join(sdir, "common.yaml")) else []
    for group in sorted(os.listdir(sdir)):
        gdir = os.path.join(sdir, group)
        if os.path.isdir(gdir) and group not in ("examples", "json"):
            names += [f[:-5] for f in sorted(os.listdir(gdir)) if f.endswith(".yaml")]
    return sorted([f"schema/{n}.{ext}" for n in names for ext in ("cpp", "h")]
                  + ["schema/kinds.cpp", "schema/field_walk.h"])


def _schema_cpp(root: str) -> dict[str, str]:
    sdir = os.path.join(root, "schemas")
    schemas = load_schemas(sdir)
    common_path = os.path.join(sdir, "common.yaml")
    common = next(iter(schemas.values())).common if schemas else (
        Schema(common_path) if os.path.exists(common_path) else None)
    out = emit_schema_cpp.emit_all(schemas, common)
    out["schema/kinds.cpp"] = emit_schema_cpp.emit_kinds(schemas, emit_jsonschema.emit_all(schemas))
    return dict(sorted(out.items()))


def _validate_docs(root: str, kind: str, files: list[str]) -> int:
    schemas = load_schemas(os.path.join(root, "schemas"))
    if kind not in schemas:
        print(f"blis-gen: no schema {kind!r}; known: {', '.join(sorted(schemas))}", file=sys.stderr)
        return 2
    bad = 0
    for path in files:
        try:
            errors = schemas[kind].validate(load(path))
        except GenError as e:
            errors = [str(e)]
        for e in errors:
            print(e, file=sys.stderr)
        bad += bool(errors)
    print(f"blis-gen: {len(files) - bad} of {len(files)} {kind} document(s) valid")
    return 1 if bad else 0


def _exes(arg: str | None):
    return None if arg is None else {e for e in arg.split(",") if e}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="blis-gen", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("validate", "refresh", "check-fresh", "emit-cpp", "meson-checks", "list-records",
                 "emit-versions", "check-toolchain", "version", "validate-doc", "schema-outputs",
                 "emit-schemas", "list-schema-inputs", "emit-schema-cases", "emit-lints", "lint-sources"):
        sp = sub.add_parser(name)
        sp.add_argument("--root", required=True, help="the repository root (invariants/, schemas/)")
        sp.add_argument("--exes", help="comma-separated executables the build makes")
        if name == "version":
            sp.add_argument("key", help="group.name in versions.yaml, e.g. toolchain.llvm_major")
        if name == "check-toolchain":
            sp.add_argument("--cxx", required=True)
            sp.add_argument("--meson", required=True)
            sp.add_argument("--llvm")
        if name in ("emit-cpp", "meson-checks", "emit-versions", "emit-schemas", "emit-schema-cases", "emit-lints"):
            sp.add_argument("-o", "--output", required=True)
        if name == "validate":
            sp.add_argument("--only", nargs="*", help="validate just these IDs (skips the completeness check)")
            sp.add_argument("--schemas", help="the schemas directory (default: ROOT/schemas)")
            sp.add_argument("--no-complete", action="store_true",
                            help="do not require a record for every identifier of the design")
        if name == "validate-doc":
            sp.add_argument("--schema", required=True, help="the document kind (schemas/<group>/<kind>.yaml)")
            sp.add_argument("files", nargs="+")
        if name == "check-fresh":
            sp.add_argument("--outputs", help="where the committed outputs are (default: --root)")
    a = p.parse_args(argv)
    root = os.path.abspath(a.root)
    try:
        if a.cmd == "emit-versions":
            write_if_changed(a.output, versions.emit_cpp(root))
            return 0
        if a.cmd == "version":
            group, _, key = a.key.partition(".")
            value = versions.load_versions(root).get(group, {}).get(key)
            if value is None or isinstance(value, dict):
                print(f"versions.yaml: no version {a.key}", file=sys.stderr)
                return 1
            print(value)
            return 0
        if a.cmd == "check-toolchain":
            errs = versions.check_toolchain(root, a.cxx, a.meson, a.llvm)
            for e in errs:
                print(e, file=sys.stderr)
            return 1 if errs else 0
        if a.cmd == "schema-outputs":
            # From file names alone, so that a schema error surfaces when building, with its message.
            print("\n".join(_schema_output_names(root)))
            return 0
        if a.cmd == "emit-schema-cases":
            write_if_changed(a.output, emit_refusals.emit(root, load_schemas(os.path.join(root, "schemas"))))
            return 0
        if a.cmd == "list-schema-inputs":
            print("\n".join(schema_inputs(root)))
            return 0
        if a.cmd == "emit-schemas":
            for rel, text in _schema_cpp(root).items():
                write_if_changed(os.path.join(a.output, os.path.basename(rel)), text)
            return 0
        if a.cmd == "validate-doc":
            return _validate_docs(root, a.schema, a.files)
        if a.cmd == "list-records":
            print("\n".join(list_record_files(root)))
            return 0
        records = load_registry(root, exes=_exes(a.exes), only=getattr(a, "only", None),
                                require_complete=not getattr(a, "no_complete", False),
                                schemas=getattr(a, "schemas", None))
        if a.cmd == "validate":
            print(f"blis-gen: {len(records)} records valid")
        elif a.cmd == "refresh":
            for rel, text in committed_outputs(records, root).items():
                if write_if_changed(os.path.join(root, rel), text):
                    print(f"blis-gen: wrote {rel}")
        elif a.cmd == "check-fresh":
            outputs = os.path.abspath(a.outputs or root)
            stale = []
            for rel, text in committed_outputs(records, root).items():
                try:
                    with open(os.path.join(outputs, rel), encoding="utf-8") as f:
                        same = f.read() == text
                except FileNotFoundError:
                    same = False
                if not same:
                    stale.append(rel)
            if stale:
                for rel in stale:
                    print(f"{os.path.join(outputs, rel)}: {rel} is stale: it differs from what blis-gen "
                          f"renders from invariants/ and schemas/ [gen-staleness; X7]")
                print(f"refresh with: {REFRESH}")
                return 1
            print(f"blis-gen: {len(committed_outputs(records, root))} committed outputs are fresh")
        elif a.cmd == "emit-cpp":
            write_if_changed(a.output, emit_cpp.emit(records))
        elif a.cmd == "emit-lints":
            write_if_changed(a.output, lints.emit_cpp(lints.specs(records, root)[0]))
        elif a.cmd == "lint-sources":
            print("\n".join(lints.sources(lints.specs(records, root)[0])))
        elif a.cmd == "meson-checks":
            text = emit_meson.emit(records)
            if a.output == "-":
                sys.stdout.write(text)
            else:
                write_if_changed(a.output, text)
    except GenError as e:
        print(str(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
