#!/usr/bin/env python3
"""The router provenance check (RTR-2, LIF-5) on each of its known-bad trees, on a well-formed one, and on
the repository itself.

usage: test_check_provenance.py SOURCE_ROOT
Only the well-formed tree is kept, under tests/router/provenance/fixtures/good; each known-bad tree is that
tree copied into a temporary directory with one change (CASES). The check must exit 1 naming that fault and
nothing else, exit 0 on fixtures/good, and exit 0 on SOURCE_ROOT. The definition heuristic is also run
directly on snippets that must and must not count as definitions.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from typing import Callable

ROOT = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else ".")
HERE = os.path.join(ROOT, "tests", "router", "provenance")
CHECK = os.path.join(HERE, "check_provenance.py")
FIXTURES = os.path.join(HERE, "fixtures")
GOOD = os.path.join(FIXTURES, "good")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))
import check_provenance as cp  # noqa: E402
from provenance_common import versions_entry  # noqa: E402


def run(root: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, CHECK, "--root", root], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def pinned_commit8() -> str:
    with open(os.path.join(GOOD, "versions.yaml"), encoding="utf-8") as f:
        return versions_entry(f.read(), "versions.yaml", cp.VERSIONS_KEY)[1][:8]


# ---------------------------------------------------------------------------------------------------------
# The known-bad trees: fixtures/good plus one change each.

def read(tree: str, rel: str) -> str:
    with open(os.path.join(tree, *rel.split("/")), encoding="utf-8") as f:
        return f.read()


def write(tree: str, rel: str, text: str) -> None:
    with open(os.path.join(tree, *rel.split("/")), "w", encoding="utf-8") as f:
        f.write(text)


def bad_header() -> list[str]:
    """The well-formed header of the file each header case breaks (router/epp/bad.h, bad.cpp)."""
    return ["// SPDX-License-Identifier: Apache-2.0",
            "// Copyright 2025 The Kubernetes Authors.",
            f"// Changed for BLIS: a C++ port of pkg/epp/scheduling/scheduler.go@{pinned_commit8()}; the "
            f"known-bad file."]


def bad_h(drop: int | None = None, then: tuple[str, ...] = ()) -> Callable[[str], None]:
    """Adds router/epp/bad.h: the well-formed header without its line `drop` (0-based), then `then`."""
    def build(tree: str) -> None:
        header = [line for i, line in enumerate(bad_header()) if i != drop]
        write(tree, "router/epp/bad.h", "\n".join(header + ["#pragma once", *then]) + "\n")
    return build


def uncited_definition(tree: str) -> None:
    write(tree, "router/epp/bad.cpp", "\n".join(bad_header() + [
        "namespace blis::router::scheduling {",
        "",
        f"// pkg/epp/scheduling/scheduler.go@{pinned_commit8()} NewScheduler",
        "int NewScheduler() { return 1; }",
        "",
        "// A helper with no citation.",
        "int Helper(int x) {",  # line 10
        "  return x;",
        "}",
        "",
        "}  // namespace blis::router::scheduling",
    ]) + "\n")


def notice_without_llm_d(tree: str) -> None:
    """NOTICE keeps its first paragraph (this work's own) and loses the one naming the llm-d router."""
    write(tree, "NOTICE", read(tree, "NOTICE").split("\n\n")[0] + "\n")


def record_disagrees(tree: str) -> None:
    rec = read(tree, cp.RECORD)
    assert 'release: "0.10.0"' in rec
    write(tree, cp.RECORD, rec.replace('release: "0.10.0"', 'release: "0.9.0"'))


CASES = {  # known-bad tree -> (the change to fixtures/good, the finding it must produce)
    "no-spdx": (bad_h(drop=0),
                "router/epp/bad.h:1: expected the licence header line '// SPDX-License-Identifier: Apache-2.0'"),
    "no-copyright": (bad_h(drop=1), "router/epp/bad.h:2: expected '// Copyright <year> The Kubernetes Authors.'"),
    "no-changed-line": (bad_h(drop=2), "router/epp/bad.h:3: no '// Changed for BLIS:' line"),
    "other-commit": (bad_h(then=("", "// pkg/epp/scheduling/scheduler.go@0123abcd Scheduler.Schedule")),
                     "router/epp/bad.h:6: cites pkg/epp/scheduling/scheduler.go@0123abcd, not the Upstream "
                     "record's commit"),
    "other-release": (bad_h(then=("", "// As llm-d v0.9.0 did, the scheduler runs every profile.")),
                      "router/epp/bad.h:6: names llm-d release 0.9.0, not the Upstream record's"),
    "uncited-definition": (uncited_definition,
                           "router/epp/bad.cpp:10: definition of Helper has no `<upstream path>.go@"),
    "notice-without-llm-d": (notice_without_llm_d,
                             "NOTICE: does not name llm-d and its repository github.com/llm-d/llm-d-router"),
    "record-disagrees": (record_disagrees, "router/upstream.yaml: release 0.9.0 disagrees with versions.yaml's "
                                           "upstreams.llm_d_router release"),
}


def good_copy(tmp: str, name: str) -> str:
    tree = os.path.join(tmp, name)
    shutil.copytree(GOOD, tree)
    return tree


class KnownBad(unittest.TestCase):
    def test_each_case_fails_for_its_reason_alone(self):
        for case, (change, expect) in CASES.items():
            with self.subTest(case=case), tempfile.TemporaryDirectory() as tmp:
                tree = good_copy(tmp, case)
                change(tree)
                p = run(tree)
                self.assertEqual(p.returncode, 1, p.stdout)
                self.assertIn(expect, p.stdout)
                # One finding, then the summary: the well-formed files beside the fault pass.
                self.assertIn("router-provenance: 1 finding(s)", p.stdout)
                self.assertNotIn("good.", p.stdout)
                self.assertNotIn("original.h", p.stdout)

    def test_the_bad_files_are_well_formed_but_for_the_change(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = good_copy(tmp, "t")
            bad_h()(tree)
            p = run(tree)
            self.assertEqual(p.returncode, 0, p.stdout)
            self.assertIn("router-provenance: 4 router source files state their origin (3 ports,", p.stdout)

    def test_only_the_good_tree_is_on_disk(self):
        trees = sorted(d for d in os.listdir(FIXTURES) if os.path.isdir(os.path.join(FIXTURES, d)))
        self.assertEqual(trees, ["good"])

    def test_well_formed_tree_passes(self):
        p = run(GOOD)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("router-provenance: 3 router source files state their origin (2 ports, 6 definitions",
                      p.stdout)
        self.assertEqual(len(p.stdout.strip().splitlines()), 1, p.stdout)

    def test_missing_licence_files_fail(self):
        for name, expect in (("NOTICE", "NOTICE: missing"), ("LICENSE", "LICENSE: missing")):
            with self.subTest(missing=name), tempfile.TemporaryDirectory() as tmp:
                tree = good_copy(tmp, "t")
                os.remove(os.path.join(tree, name))
                p = run(tree)
                self.assertEqual(p.returncode, 1, p.stdout)
                self.assertIn(expect, p.stdout)

    def test_record_commit_must_match(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = good_copy(tmp, "t")
            text = read(tree, cp.RECORD)
            write(tree, cp.RECORD, text.replace("commit: " + pinned_commit8(), "commit: 0123abcd"))
            p = run(tree)
            self.assertEqual(p.returncode, 1, p.stdout)
            self.assertIn("disagrees with versions.yaml's upstreams.llm_d_router commit", p.stdout)

    def test_usage_errors_exit_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(run(tmp).returncode, 2)  # no router/ under the root
        p = subprocess.run([sys.executable, CHECK], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(p.returncode, 2, p.stdout)  # no --root


class Definitions(unittest.TestCase):
    """The heuristic that finds function and method definitions at namespace scope."""

    def names(self, text: str) -> list[tuple[int, str]]:
        return cp.definitions(text)

    def test_counts_functions_methods_constructors_operators_templates(self):
        text = "\n".join([
            "namespace a::b {",                                          # 1
            "namespace {",                                               # 2
            "[[noreturn]] void fail(const std::string& w) { throw 1; }",  # 3
            "}  // namespace",                                           # 4
            "template <typename T, typename = std::enable_if_t<X<T>>>",  # 5
            "T clamp(T v) {",                                            # 6
            "  return v;",
            "}",
            "Foo::Foo(int n)",                                           # 9
            "    : a_{n},",
            "      b_(n) {}",
            "std::map<std::string, int> Foo::Table(",                    # 12
            "    int n) const {",
            "  return {};",
            "}",
            "bool operator==(const Foo& x, const Foo& y) { return x.a_ == y.a_; }",  # 16
            "std::ostream& operator<<(std::ostream& os, const Foo& f) {",           # 17
            "  return os;",
            "}",
            "Foo::~Foo() {}",                                            # 20
            "}  // namespace a::b",
        ])
        self.assertEqual(self.names(text), [(3, "fail"), (5, "clamp"), (9, "Foo::Foo"), (12, "Foo::Table"),
                                            (16, "operator=="), (17, "operator<<"), (20, "Foo::~Foo")])

    def test_ignores_types_variables_lambdas_declarations_and_inner_code(self):
        text = "\n".join([
            "#include <map>",
            "#define M(x) \\",
            "  do { f(x); } while (0)",
            "namespace a {",
            "struct S {",
            "  int Get() const { return 1; }",
            "  S() {}",
            "};",
            "enum class E { kA, kB };",
            "class C final : public S {",
            "};",
            "const std::map<std::string, int> kM = {",
            "    {\"x{\", 1},",
            "};",
            "const std::array<int, 2> kA{1, 2};",
            "const auto kF = [](int x) {",
            "  return x;",
            "};",
            "int Declared(int x);",
            "Foo::Foo() = default;",
            "using Alias = std::function<void(int)>;",
            "// int Commented(int x) {",
            "/* int Blocked(int x) {",
            "} */",
            "extern \"C\" {",
            "int c_fn(int x) { return x; }",
            "}",
            "}  // namespace a",
        ])
        self.assertEqual(self.names(text), [(26, "c_fn")])

    def test_citation_must_be_directly_above(self):
        c8 = pinned_commit8()
        text = "\n".join([
            "namespace a {",
            f"// pkg/epp/x.go@{c8} Cited",
            "template <class T>",
            "int Cited(T) { return 1; }",
            f"// pkg/epp/x.go@{c8} Separated",
            "",
            "int Separated() { return 1; }",
            f"// pkg/epp/x.h@{c8} NotGo",
            "int NotGo() { return 1; }",
            "}",
        ])
        findings: list[str] = []
        self.assertEqual(cp.check_definitions("router/x.cpp", text, c8, findings), 3)
        self.assertEqual([f.split(" has ")[0] for f in findings],
                         ["router/x.cpp:7: definition of Separated", "router/x.cpp:9: definition of NotGo"])


class Repository(unittest.TestCase):
    def test_repository_passes(self):
        p = run(ROOT)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("router source files state their origin", p.stdout)


if __name__ == "__main__":
    unittest.main()
