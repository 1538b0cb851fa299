#!/usr/bin/env python3
"""X25: tests read only their declared inputs. Test sources may reach ../shared, the home directory or
sibling checkouts only from a declared suite (tests/data/ for the data tier, tests/upstream/ for the
upstream tier), never from the required tier.

usage: declared_inputs.py INPUT
Scans INPUT's test sources (tests/, gen/tests/, checks/**/test/, and every meson.build) and exits 1
listing each undeclared read with its line.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tree  # noqa: E402

DECLARED = ("tests/data/", "tests/upstream/")
READS = [
    (re.compile(r"\.\./shared\b|/work/shared\b"), "the shared data directory"),
    (re.compile(r"\$HOME\b|\$\{HOME\}|getenv\(\s*\"HOME\"|environ(?:\.get\(|\[)\s*['\"]HOME|expanduser\(|(?<![\w.])~/"),
     "the home directory"),
    (re.compile(r"\.\./\.\./|(?<![\w.])\.\./(?!shared\b)[A-Za-z0-9_\-]+/"), "a path outside the repository (a sibling checkout)"),
]


def is_test_source(rel: str) -> bool:
    return (rel.startswith(("tests/", "gen/tests/")) or "/test/" in rel or os.path.basename(rel) == "meson.build")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("input")
    a = p.parse_args()
    scanned, rows = tree.lines(a.input, lambda rel: is_test_source(rel) and not rel.startswith(DECLARED))
    findings = [f"{rel}:{n}: reads {what} ('{m.group(0)}') outside a declared suite ({', '.join(DECLARED)}) "
                f"[declared-inputs; X25]"
                for rel, n, line in rows for pat, what in READS for m in [pat.search(line)] if m]
    return tree.finish(findings, f"declared-inputs: {scanned} test sources read only declared inputs")


if __name__ == "__main__":
    sys.exit(main())
