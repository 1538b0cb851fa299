#!/usr/bin/env python3
"""The surface-list check and generator on inputs they must refuse (VLM-4, X9).

usage: test_check_surface.py SOURCE_ROOT VLLM_SURFACE_GEN
"""
import os
import subprocess
import sys
import tempfile
import unittest

GEN = os.path.abspath(sys.argv.pop(2)) if len(sys.argv) > 2 else ""
ROOT = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else ".")
CHECK = os.path.join(ROOT, "tests", "fidelity", "check_surface.py")
CASES = {  # known-bad list -> the finding the check must print
    "modelled-without-evidence.json": "evidence tests/vllm/core/no_such_scenario_test.cpp does not exist",
    "two-statuses.json": "has 2 statuses (refused, out_of_scope); X9 allows exactly one",
    "disallowed-reason.json": "'hard_to_port' is not one of hardware_not_simulated, no_priced_work, deprecated",
}


def check(path):
    return subprocess.run([sys.executable, CHECK, "--root", ROOT, path], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


class SurfaceCheck(unittest.TestCase):
    def test_known_bad_lists_fail_for_their_reason(self):
        for name, expect in CASES.items():
            with self.subTest(case=name):
                p = check(os.path.join(ROOT, "tests", "known_bad", "VLM-4", name))
                self.assertEqual(p.returncode, 1, p.stdout)
                self.assertIn(expect, p.stdout)

    def test_committed_list_passes(self):
        p = check(os.path.join(ROOT, "engines", "vllm", "surface.json"))
        self.assertEqual(p.returncode, 0, p.stdout)


class Generator(unittest.TestCase):
    def test_unknown_registration_table_stops_the_generator(self):
        self.assertTrue(GEN, "usage: test_check_surface.py SOURCE_ROOT VLLM_SURFACE_GEN")
        # A release that adds a registration table the generator does not read must not pass unnoticed.
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "vllm"))
            with open(os.path.join(tmp, "vllm", "new_feature.py"), "w") as f:
                f.write('NewThingFactory.register_thing("a", "vllm.b", "C")\n')
            p = subprocess.run([GEN, "surface", "--checkout", tmp, "--root", ROOT], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            self.assertEqual(p.returncode, 1, p.stdout)
            self.assertIn("vllm/new_feature.py:1: NewThingFactory.register_thing registers into a table the "
                          "generator does not know", p.stdout)
            self.assertIn("no list written", p.stdout)


if __name__ == "__main__":
    unittest.main()
