#!/usr/bin/env python3
"""Runs the registry validators on one coefficient-set case file set into the fixture tree.

The tree is registry/scripts/test/fixtures/tree (a small catalog with its chips) with the floor written
by write_floor.py; the case file goes in as registry/sets/extra/<family>.yaml. Every refusal is printed and
the exit status is 1 when there is one, 0 otherwise: the invariant records run a rule's accepted twin and
its known-bad case (registry/scripts/test/fixtures/fit-cases) through this, as fit_tests.py does.

usage: check_case.py CASE.yaml
"""
from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check_registry as cr  # noqa: E402
import write_floor  # noqa: E402
import writer  # noqa: E402

TREE = os.path.join(HERE, "test", "fixtures", "tree")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    case = argv[0]
    try:
        with open(case, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"check_case.py: {case}: cannot be read: {e.strerror}", file=sys.stderr)
        return 2
    root = tempfile.mkdtemp(prefix="blis-case-")
    try:
        shutil.copytree(TREE, root, dirs_exist_ok=True)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            rc = writer.run(write_floor.__file__, write_floor.produce, True, ["--root", root])
        if rc != 0:
            print(f"check_case.py: the fixture floor could not be written:\n{out.getvalue()}", file=sys.stderr)
            return 2
        import yaml
        family = (yaml.safe_load(text) or {}).get("family", "case")
        os.makedirs(os.path.join(root, "registry", "sets", "extra"), exist_ok=True)
        with open(os.path.join(root, "registry", "sets", "extra", f"{family}.yaml"), "w", encoding="utf-8") as f:
            f.write(text)
        errors, _ = cr.check(cr.Registry(root))
    finally:
        shutil.rmtree(root)
    for e in errors:
        print(f"{case}: {e.message} [{e.rule}]")
    if errors:
        return 1
    print(f"{case}: every validator passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
