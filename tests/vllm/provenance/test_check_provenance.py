#!/usr/bin/env python3
"""The provenance check (VLM-2, LIF-5) on each of its known-bad trees and on a well-formed one.

usage: test_check_provenance.py SOURCE_ROOT
Each known-bad tree under tests/known_bad/VLM-2/ and tests/known_bad/LIF-5/ holds one fault beside a
well-formed file; the check must exit 1 naming that fault, and 0 on tests/vllm/provenance/fixtures/good.
"""
import os
import subprocess
import sys
import unittest

ROOT = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else ".")
CHECK = os.path.join(ROOT, "tests", "vllm", "provenance", "check_provenance.py")
CASES = {  # known-bad tree -> the finding it must produce
    "VLM-2/no-spdx": "engines/vllm/v1/core/bad.h:1: expected the vLLM licence header line",
    "VLM-2/no-changed-line": "engines/vllm/v1/core/bad.h: no '// Changed for BLIS:' line",
    "VLM-2/other-commit": "cites block_pool.py@0123abcd, not the Upstream record's commit",
    "VLM-2/other-release": "bad.h:4: names vLLM release 0.26.0",
    "LIF-5/record-disagrees": "disagrees with versions.yaml's upstreams.vllm release 0.26.0",
}


def run(root: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, CHECK, "--root", root], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


class KnownBad(unittest.TestCase):
    def test_each_case_fails_for_its_reason(self):
        for case, expect in CASES.items():
            with self.subTest(case=case):
                p = run(os.path.join(ROOT, "tests", "known_bad", case))
                self.assertEqual(p.returncode, 1, p.stdout)
                self.assertIn(expect, p.stdout)
                # Only the bad file is named: the well-formed file beside it passes.
                self.assertNotIn("good.h", p.stdout)

    def test_every_known_bad_tree_is_a_case(self):
        for rid in ("VLM-2", "LIF-5"):
            for d in sorted(os.listdir(os.path.join(ROOT, "tests", "known_bad", rid))):
                self.assertIn(f"{rid}/{d}", CASES)

    def test_well_formed_tree_passes(self):
        p = run(os.path.join(ROOT, "tests", "vllm", "provenance", "fixtures", "good"))
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("2 engines/vllm source files state their origin", p.stdout)

    def test_missing_licence_files_fail(self):
        import shutil
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            tree = os.path.join(tmp, "t")
            shutil.copytree(os.path.join(ROOT, "tests", "vllm", "provenance", "fixtures", "good"), tree)
            os.remove(os.path.join(tree, "NOTICE"))
            p = run(tree)
            self.assertEqual(p.returncode, 1, p.stdout)
            self.assertIn("NOTICE: missing", p.stdout)


if __name__ == "__main__":
    unittest.main()
