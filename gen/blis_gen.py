#!/usr/bin/env python3
"""blis-gen: compiles invariants/ and schemas/ into C++ tables, docs, checklists and Meson registrations.

Exit status: 0 done, 1 the inputs are wrong or a committed output is stale (messages say where), 2 usage.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from blisgen import emit_cpp, emit_docs, emit_json, emit_meson, versions  # noqa: E402
from blisgen.registry import list_record_files, load_registry  # noqa: E402
from blisgen.render import write_if_changed  # noqa: E402
from blisgen.yamlnodes import GenError  # noqa: E402

REFRESH = "meson compile -C build gen-refresh  (or: /usr/bin/python3 gen/blis_gen.py refresh --root .)"


def committed_outputs(records) -> dict[str, str]:
    out = emit_docs.emit_all(records)
    out["docs/invariants.json"] = emit_json.emit(records)
    return dict(sorted(out.items()))


def _exes(arg: str | None):
    return None if arg is None else {e for e in arg.split(",") if e}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="blis-gen", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("validate", "refresh", "check-fresh", "emit-cpp", "meson-checks", "list-records",
                 "emit-versions", "check-toolchain", "version"):
        sp = sub.add_parser(name)
        sp.add_argument("--root", required=True, help="the repository root (invariants/, schemas/)")
        sp.add_argument("--exes", help="comma-separated executables the build makes")
        if name == "version":
            sp.add_argument("key", help="group.name in versions.yaml, e.g. toolchain.llvm_major")
        if name == "check-toolchain":
            sp.add_argument("--cxx", required=True)
            sp.add_argument("--meson", required=True)
            sp.add_argument("--llvm")
        if name in ("emit-cpp", "meson-checks", "emit-versions"):
            sp.add_argument("-o", "--output", required=True)
        if name == "validate":
            sp.add_argument("--only", nargs="*", help="validate just these IDs (skips the completeness check)")
            sp.add_argument("--schemas", help="the schemas directory (default: ROOT/schemas)")
            sp.add_argument("--no-complete", action="store_true",
                            help="do not require a record for every identifier of the design")
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
        if a.cmd == "list-records":
            print("\n".join(list_record_files(root)))
            return 0
        records = load_registry(root, exes=_exes(a.exes), only=getattr(a, "only", None),
                                require_complete=not getattr(a, "no_complete", False),
                                schemas=getattr(a, "schemas", None))
        if a.cmd == "validate":
            print(f"blis-gen: {len(records)} records valid")
        elif a.cmd == "refresh":
            for rel, text in committed_outputs(records).items():
                if write_if_changed(os.path.join(root, rel), text):
                    print(f"blis-gen: wrote {rel}")
        elif a.cmd == "check-fresh":
            outputs = os.path.abspath(a.outputs or root)
            stale = []
            for rel, text in committed_outputs(records).items():
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
                          f"renders from invariants/ [gen-staleness; X7]")
                print(f"refresh with: {REFRESH}")
                return 1
            print(f"blis-gen: {len(committed_outputs(records))} committed outputs are fresh")
        elif a.cmd == "emit-cpp":
            write_if_changed(a.output, emit_cpp.emit(records))
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
