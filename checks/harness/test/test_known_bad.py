"""The known-bad harness itself (X18): it passes only when the check fails for the expected reason."""
import os
import subprocess
import sys
import unittest

HARNESS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "known_bad.py")


def harness(code, expect="-"):
    check = [sys.executable, "-c", code]
    return subprocess.run([sys.executable, HARNESS, "--id", "X1", "--check", "c", "--expect", expect, "--", *check],
                          capture_output=True, text=True)


class Harness(unittest.TestCase):
    def test_a_check_that_fails_with_its_finding_passes_the_harness(self):
        out = harness("print('bad line found'); raise SystemExit(1)", expect="bad line")
        self.assertEqual(out.returncode, 0, out.stdout)

    def test_a_check_that_passes_on_its_known_bad_input_fails_the_harness(self):
        out = harness("raise SystemExit(0)")
        self.assertEqual(out.returncode, 1)
        self.assertIn("a check that cannot fail is not a check", out.stdout)

    def test_a_check_that_breaks_fails_the_harness(self):
        out = harness("raise SystemExit(2)")
        self.assertEqual(out.returncode, 1)
        self.assertIn("broke (exit 2)", out.stdout)

    def test_a_check_that_fails_for_another_reason_fails_the_harness(self):
        out = harness("print('something else'); raise SystemExit(1)", expect="bad line")
        self.assertEqual(out.returncode, 1)
        self.assertIn("not with the expected finding", out.stdout)


if __name__ == "__main__":
    unittest.main()
