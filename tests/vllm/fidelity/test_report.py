#!/usr/bin/env python3
"""The transcription report (report.py) on small trees it must accept or refuse, built in a temporary copy.

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
REPORT = os.path.join(ROOT, "tests", "fidelity", "report.py")
C8 = "0123abcd"  # a stand-in commit: the report reads the commit from upstream_tests.json


def tree(tmp: str, manifests: dict, gtests: str) -> str:
    """A root with two upstream files (a: test_one, test_two; b: test_three), their manifests and one test file."""
    root = os.path.join(tmp, "root")
    fid = os.path.join(root, "engines", "vllm", "fidelity")
    os.makedirs(fid)
    os.makedirs(os.path.join(root, "tests", "vllm", "core"))
    up = {"files": [
        {"source": f"tests/v1/core/test_a.py@{C8}", "functions": [{"name": "test_one", "line": 10},
                                                                  {"name": "test_two", "line": 20}]},
        {"source": f"tests/v1/core/test_b.py@{C8}", "functions": [{"name": "test_three", "line": 5}]}]}
    with open(os.path.join(fid, "upstream_tests.json"), "w") as f:
        json.dump(up, f)
    for stem, text in manifests.items():
        with open(os.path.join(fid, f"{stem}.yaml"), "w") as f:
            f.write(text)
    with open(os.path.join(root, "tests", "vllm", "core", "a_test.cpp"), "w") as f:
        f.write(gtests)
    return root


GOOD_A = f"""source: tests/v1/core/test_a.py@{C8}
functions:
  - {{name: test_one, status: transcribed, tests: [BlockPool.One, Fixture.Two], stands_in_for: "the pool"}}
  - {{name: test_two, status: not_applicable, reason: "multimodal"}}
"""
GOOD_B = f"""source: tests/v1/core/test_b.py@{C8}
functions:
  - {{name: test_three, status: pending, reason: "not yet transcribed"}}
"""
GTESTS = "TEST(BlockPool, One) {}\nTEST_F(Fixture, Two) {}\n"


def run(root, *extra):
    return subprocess.run([sys.executable, REPORT, "--root", root, *extra], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


class Report(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_complete_manifests_pass_and_count(self):
        p = run(tree(self.tmp, {"test_a": GOOD_A, "test_b": GOOD_B}, GTESTS))
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn(f"tests/v1/core/test_a.py@{C8}: total 2, transcribed 1, not_applicable 1, pending 0", p.stdout)
        self.assertIn("all: total 3, transcribed 1, not_applicable 1, pending 1", p.stdout)

    def test_engine_flag_reads_that_engines_manifests_and_tests(self):
        # --engine sglang: engines/sglang/fidelity/ and tests/sglang/; the vLLM tree beside it is not read.
        root = tree(self.tmp, {"test_a": GOOD_A, "test_b": GOOD_B}, GTESTS)
        os.rename(os.path.join(root, "engines", "vllm"), os.path.join(root, "engines", "sglang"))
        p = run(root, "--engine", "sglang")
        self.assertEqual(p.returncode, 1, p.stdout)  # tests/sglang/ is missing: nothing defines BlockPool.One
        self.assertIn("BlockPool.One is no TEST/TEST_F/TEST_P(Suite, Name) under tests/sglang/", p.stdout)
        os.rename(os.path.join(root, "tests", "vllm"), os.path.join(root, "tests", "sglang"))
        p = run(root, "--engine", "sglang")
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("all: total 3, transcribed 1, not_applicable 1, pending 1", p.stdout)
        os.makedirs(os.path.join(root, "docs"))
        p = run(root, "--engine", "sglang", "--markdown")
        self.assertEqual(p.returncode, 0, p.stdout)
        with open(os.path.join(root, "docs", "sglang-transcriptions.md")) as f:
            self.assertIn("# SGLang test transcriptions", f.read())

    def check_fails(self, manifests, expect, gtests=GTESTS):
        p = run(tree(self.tmp, manifests, gtests))
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn(expect, p.stdout)

    def test_missing_manifest(self):
        self.check_fails({"test_a": GOOD_A}, "test_b.yaml: missing")

    def test_function_absent(self):
        self.check_fails({"test_a": GOOD_A.split("  - {name: test_two")[0], "test_b": GOOD_B},
                         "test_two (tests/v1/core/test_a.py@0123abcd:20) has no entry")

    def test_function_twice(self):
        self.check_fails({"test_a": GOOD_A + "  - {name: test_two, status: pending, reason: x}\n", "test_b": GOOD_B},
                         "test_two is listed more than once")

    def test_function_upstream_lacks(self):
        self.check_fails({"test_a": GOOD_A + "  - {name: test_four, status: pending, reason: x}\n", "test_b": GOOD_B},
                         "test_four is no test function")

    def test_unknown_gtest(self):
        self.check_fails({"test_a": GOOD_A, "test_b": GOOD_B}, "Fixture.Two is no TEST/TEST_F/TEST_P",
                         gtests="TEST(BlockPool, One) {}\n")

    def test_transcribed_without_stands_in_for(self):
        self.check_fails({"test_a": GOOD_A.replace(', stands_in_for: "the pool"', ""), "test_b": GOOD_B},
                         "transcribed, but says nothing in stands_in_for")

    def test_wrong_source(self):
        self.check_fails({"test_a": GOOD_A.replace(C8, "fedcba98"), "test_b": GOOD_B}, "source is")

    def test_markdown_and_freshness(self):
        root = tree(self.tmp, {"test_a": GOOD_A, "test_b": GOOD_B}, GTESTS)
        md = os.path.join(self.tmp, "t.md")
        self.assertEqual(run(root, "--markdown", md).returncode, 0)
        with open(md) as f:
            text = f.read()
        self.assertIn("| `test_one` (line 10) | transcribed | `BlockPool.One`, `Fixture.Two` |", text)
        self.assertEqual(run(root, "--check-markdown", md).returncode, 0)
        with open(md, "a") as f:
            f.write("edited by hand\n")
        p = run(root, "--check-markdown", md)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("is stale", p.stdout)


if __name__ == "__main__":
    unittest.main()
