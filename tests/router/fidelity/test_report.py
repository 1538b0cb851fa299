#!/usr/bin/env python3
"""The router's transcription report (report.py) on small trees it must accept or refuse.

usage: test_report.py SOURCE_ROOT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else ".")
REPORT = os.path.join(ROOT, "tests", "router", "fidelity", "report.py")
COMMIT = "0123abcd" + "0" * 32
C8 = COMMIT[:8]

PORT = f"""// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/a/x.go@{C8}; all of it.
int x();
"""
GOOD_TESTS = f"""// pkg/a/x_test.go@{C8} TestOne
TEST(X, One) {{}}
TEST(X, Two) {{
  // pkg/a/x_test.go@{C8} TestTwo (its second case)
}}
"""
GOOD_ENTRIES = f"""- {{source: pkg/a/x_test.go, test: TestThree, status: not_applicable, reason: "needs Kubernetes"}}
"""


def tree(tmp, tests=GOOD_TESTS, entries=GOOD_ENTRIES, packages=("pkg/a",), port=PORT):
    root = os.path.join(tmp, "root")
    os.makedirs(os.path.join(root, "router", "fidelity"))
    os.makedirs(os.path.join(root, "tests", "router"))
    with open(os.path.join(root, "router", "upstream.yaml"), "w") as f:
        f.write(f"kind: llm_d_router\ncommit: {COMMIT}\n")
    with open(os.path.join(root, "router", "x.cpp"), "w") as f:
        f.write(port)
    up = {"pinned": f"router/upstream.yaml@{C8}", "packages": list(packages), "files": [
        {"source": "pkg/a/x_test.go", "functions": [{"name": "TestOne", "line": 10}, {"name": "TestTwo", "line": 20},
                                                     {"name": "TestThree", "line": 30}]}]}
    with open(os.path.join(root, "router", "fidelity", "upstream_tests.json"), "w") as f:
        json.dump(up, f)
    with open(os.path.join(root, "router", "fidelity", "untranscribed.yaml"), "w") as f:
        f.write(entries)
    with open(os.path.join(root, "tests", "router", "x_test.cpp"), "w") as f:
        f.write(tests)
    return root


def run(root, *extra):
    return subprocess.run([sys.executable, REPORT, "--root", root, *extra], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


class Report(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def refused(self, root, needle):
        r = run(root)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn(needle, r.stdout)

    def test_accounted_tree_passes(self):
        r = run(tree(self.tmp))
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("total 3, transcribed 2, not_applicable 1, pending 0", r.stdout)

    def test_unaccounted_function_refused(self):
        self.refused(tree(self.tmp, entries=""), "TestThree is neither transcribed")

    def test_citation_away_from_a_test_does_not_count(self):
        tests = GOOD_TESTS.replace(f"// pkg/a/x_test.go@{C8} TestOne\nTEST(X, One) {{}}",
                                   f"// pkg/a/x_test.go@{C8} TestOne\nint helper() {{ return 1; }}\nTEST(X, One) {{}}")
        self.refused(tree(self.tmp, tests=tests), "TestOne is neither transcribed")

    def test_transcribed_and_listed_refused(self):
        entries = GOOD_ENTRIES + '- {source: pkg/a/x_test.go, test: TestOne, status: pending, reason: "x"}\n'
        self.refused(tree(self.tmp, entries=entries), "is transcribed")

    def test_citation_of_a_function_upstream_lacks_refused(self):
        self.refused(tree(self.tmp, tests=GOOD_TESTS + f"// pkg/a/x_test.go@{C8} TestFour\nTEST(X, Four) {{}}\n"),
                     "TestFour, which is no test function")

    def test_citation_of_another_commit_refused(self):
        self.refused(tree(self.tmp, tests=GOOD_TESTS.replace(f"x_test.go@{C8} TestOne", "x_test.go@deadbeef TestOne")),
                     "not the pin")

    def test_entry_without_reason_refused(self):
        self.refused(tree(self.tmp, entries="- {source: pkg/a/x_test.go, test: TestThree, status: not_applicable}\n"),
                     "needs a reason")

    def test_package_in_scope_but_unlisted_refused(self):
        self.refused(tree(self.tmp, packages=()), "package pkg/a (named by a port under router/) is not listed")

    def test_markdown_freshness(self):
        root = tree(self.tmp)
        doc = os.path.join(self.tmp, "doc.md")
        self.assertEqual(run(root, "--markdown", doc).returncode, 0)
        self.assertEqual(run(root, "--check-markdown", doc).returncode, 0)
        with open(doc, "a") as f:
            f.write("edited\n")
        self.assertEqual(run(root, "--check-markdown", doc).returncode, 1)


if __name__ == "__main__":
    unittest.main()
