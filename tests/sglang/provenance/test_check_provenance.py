#!/usr/bin/env python3
"""The provenance check of engines/sglang (SGL-2, LIF-5) on each of its known-bad trees and on a good one.

usage: test_check_provenance.py SOURCE_ROOT
Each known-bad tree under tests/known_bad/SGL-2/ holds one fault beside a well-formed file; the check must
exit 1 naming that fault, and 0 on tests/sglang/provenance/fixtures/good.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else ".")
CHECK = os.path.join(ROOT, "tests", "sglang", "provenance", "check_provenance.py")
GOOD = os.path.join(ROOT, "tests", "sglang", "provenance", "fixtures", "good")
CASES = {  # known-bad tree -> the finding it must produce
    "no-spdx": "engines/sglang/srt/mem_cache/bad.h:1: expected the SGLang licence header line",
    "no-changed-line": "engines/sglang/srt/mem_cache/bad.h: no '// Changed for BLIS:' line",
    "no-citation": "bad.h:3: the '// Changed for BLIS:' line names no upstream path@71de97b2",
    "other-commit": "cites radix_cache.py@0123abcd, not the Upstream record's commit",
    "other-release": "bad.h:4: names SGLang release 0.5.17",
    "record-disagrees": "disagrees with versions.yaml's upstreams.sglang release 0.5.17",
}


def run(root: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, CHECK, "--root", root], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


class KnownBad(unittest.TestCase):
    def test_each_case_fails_for_its_reason(self):
        for case, expect in CASES.items():
            with self.subTest(case=case):
                p = run(os.path.join(ROOT, "tests", "known_bad", "SGL-2", case))
                self.assertEqual(p.returncode, 1, p.stdout)
                self.assertIn(expect, p.stdout)
                # Only the bad file is named: the well-formed file beside it passes.
                self.assertNotIn("good.h", p.stdout)

    def test_every_known_bad_tree_is_a_case(self):
        for d in sorted(os.listdir(os.path.join(ROOT, "tests", "known_bad", "SGL-2"))):
            self.assertIn(d, CASES)

    def test_well_formed_tree_passes(self):
        p = run(GOOD)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("2 engines/sglang source files state their origin", p.stdout)

    def test_notice_must_name_sglang(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = os.path.join(tmp, "t")
            shutil.copytree(GOOD, tree)
            with open(os.path.join(tree, "NOTICE"), "w", encoding="utf-8") as f:
                f.write("This product includes software derived from vLLM (https://github.com/vllm-project/vllm).\n")
            p = run(tree)
            self.assertEqual(p.returncode, 1, p.stdout)
            self.assertIn("NOTICE: does not name SGLang", p.stdout)


if __name__ == "__main__":
    unittest.main()
