#!/usr/bin/env python3
"""The lint driver itself (X18 for the lints' own harness): fixture mode fails on a missing or a wrong
mark, refuses fixtures that cannot show anything, a pass over a compilation database judges only units in
scope, refuses a unit that does not parse, and prints the same bytes twice.

usage: test_blis_lint.py BLIS_LINT SOURCE_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

LINT = ROOT = None

CLOCK = "auto t = std::chrono::steady_clock::now();"
HEAD = "#include <chrono>\n#include <ctime>\nvoid f() {\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run(*args):
    p = subprocess.run([LINT, "--root", ROOT, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


class FixtureMode(unittest.TestCase):
    def fixture(self, body, path="engines/x/f.cpp"):
        d = tempfile.mkdtemp()
        f = os.path.join(d, "f.cpp")
        write(f, f"// lint-path: {path}\n" + HEAD + body + "}\n")
        return f

    def test_matching_marks_pass(self):
        f = self.fixture(f"  {CLOCK}  // expect: simulated code reads the wall clock\n"
                         "  auto d = std::chrono::seconds(1);  // near-miss: a duration\n  (void)t; (void)d;\n")
        rc, out = run("--lint", "blis-no-clock", "--fixture", f)
        self.assertEqual(rc, 0, out)
        self.assertIn("1 expected findings, 1 found, 0 mismatches", out)

    def test_unmarked_finding_fails(self):
        f = self.fixture(f"  {CLOCK}  // near-miss: wrongly claimed silent\n"
                         "  auto u = std::time(nullptr);  // expect: simulated code reads the wall clock\n"
                         "  (void)t; (void)u;\n")
        rc, out = run("--lint", "blis-no-clock", "--fixture", f)
        self.assertEqual(rc, 1, out)
        self.assertIn("unexpected finding 'simulated code reads the wall clock' on a near-miss", out)

    def test_expected_but_silent_fails(self):
        f = self.fixture("  auto t = std::chrono::seconds(1);  // expect: simulated code reads the wall clock\n"
                         "  auto d = 2;  // near-miss: nothing\n  (void)t; (void)d;\n")
        rc, out = run("--lint", "blis-no-clock", "--fixture", f)
        self.assertEqual(rc, 1, out)
        self.assertIn("was silent", out)

    def test_out_of_scope_path_is_silent(self):
        # The same clock read, standing for a test file: out of the lint's scope, so the mark is unmet.
        f = self.fixture(f"  {CLOCK}  // expect: simulated code reads the wall clock\n"
                         "  int d = 0;  // near-miss: nothing\n  (void)t; (void)d;\n", path="tests/x/f.cpp")
        rc, out = run("--lint", "blis-no-clock", "--fixture", f)
        self.assertEqual(rc, 1, out)
        self.assertIn("was silent", out)

    def test_fixture_without_near_miss_is_refused(self):
        f = self.fixture(f"  {CLOCK}  // expect: simulated code reads the wall clock\n  (void)t;\n")
        rc, out = run("--lint", "blis-no-clock", "--fixture", f)
        self.assertEqual(rc, 2, out)
        self.assertIn("marks no `near-miss` line", out)

    def test_fixture_without_expectation_is_refused(self):
        f = self.fixture("  int d = 0;  // near-miss: nothing\n  (void)d;\n")
        rc, out = run("--lint", "blis-no-clock", "--fixture", f)
        self.assertEqual(rc, 2, out)
        self.assertIn("marks no `expect:` line", out)

    def test_fixture_without_lint_path_is_refused(self):
        d = tempfile.mkdtemp()
        f = os.path.join(d, "f.cpp")
        write(f, HEAD + f"  {CLOCK}  // expect: simulated code reads the wall clock\n  (void)t;\n}}\n")
        rc, out = run("--lint", "blis-no-clock", f)
        self.assertEqual(rc, 2, out)
        self.assertIn("lint-path", out)

    def test_unknown_lint_is_refused(self):
        rc, out = run("--lint", "blis-no-such-lint", os.path.join(ROOT, "checks/lints/test/no_clock.cpp"))
        self.assertEqual(rc, 2, out)
        self.assertIn("no record declares a lint named blis-no-such-lint", out)


class PassMode(unittest.TestCase):
    def project(self, files):
        """A small repository with its own compilation database."""
        d = tempfile.mkdtemp()
        entries = []
        for rel, text in files.items():
            write(os.path.join(d, rel), text)
            if rel.endswith(".cpp"):
                entries.append({"directory": d, "file": os.path.join(d, rel),
                                "arguments": ["c++", "-std=c++20", "-c", os.path.join(d, rel)]})
        write(os.path.join(d, "build", "compile_commands.json"), json.dumps(entries))
        return d

    def pass_run(self, d):
        p = subprocess.run([LINT, "--root", d, "--lint", "blis-no-clock", os.path.join(d, "build", "compile_commands.json")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.returncode, p.stdout

    def test_only_units_in_scope_are_judged(self):
        d = self.project({"engines/x/a.cpp": HEAD + f"  {CLOCK} (void)t;\n}}\n",
                          "tests/x/b.cpp": HEAD + f"  {CLOCK} (void)t;\n}}\n"})
        rc, out = self.pass_run(d)
        self.assertEqual(rc, 1, out)
        self.assertIn("engines/x/a.cpp:4:", out)
        self.assertNotIn("tests/x/b.cpp", out)
        self.assertIn("1 translation units", out)

    def test_clean_project_passes(self):
        d = self.project({"engines/x/a.cpp": HEAD + "  int t = 0; (void)t;\n}\n"})
        rc, out = self.pass_run(d)
        self.assertEqual(rc, 0, out)
        self.assertIn("0 findings", out)

    def test_unit_that_does_not_parse_has_no_verdict(self):
        d = self.project({"engines/x/a.cpp": HEAD + "  this is not c++;\n}\n"})
        rc, out = self.pass_run(d)
        self.assertEqual(rc, 2, out)
        self.assertIn("did not parse", out)

    def test_same_bytes_twice(self):
        d = self.project({f"engines/x/{n}.cpp": HEAD + f"  {CLOCK} (void)t;\n}}\n" for n in "dcba"})
        first = self.pass_run(d)[1].splitlines()[:-1]  # the last line holds the run time
        second = self.pass_run(d)[1].splitlines()[:-1]
        self.assertEqual(first, second)
        self.assertEqual([l.split(":")[0] for l in first], sorted(l.split(":")[0] for l in first))


if __name__ == "__main__":
    LINT, ROOT = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1])
