"""Unit tests of scripts/mutation_sweep.py (design T7): which lines become mutants, and how each is broken.

The sweep itself (tests/vllm/mutation, suite slow) builds and runs the tests once per mutant; these check
the enumeration it relies on, on small C++ texts.
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import mutation_sweep as ms  # noqa: E402

SOURCE = """\
#include <vector>
namespace blis::demo {

// A comment with if (a < b) in it.
int f(int a, int b) {
  int c = a + b;
  if (a < b) return a;
  while (c > 0) c -= 2;
  g(c);
  const char* s = "x < y";
  return c == 1;
}

}  // namespace blis::demo
"""


class EnumerateTest(unittest.TestCase):
    def mutants(self, text):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "a.cpp"), "w") as f:
                f.write(text)
            return ms.enumerate_mutants(d, ["a.cpp"])

    def test_only_function_bodies(self):
        lines = {m["line"] for m in self.mutants(SOURCE)}
        self.assertNotIn(1, lines)   # include
        self.assertNotIn(4, lines)   # comment at namespace scope
        self.assertNotIn(5, lines)   # the signature
        self.assertEqual(lines, {6, 7, 8, 9, 11})  # line 10 is a declaration whose only operator is in a string

    def test_operators(self):
        got = {m["line"]: (m["operator"], m["mutated"].strip()) for m in self.mutants(SOURCE)}
        self.assertEqual(got[6], ("arithmetic + -> -", "int c = a - b;"))
        self.assertEqual(got[7], ("negate-condition", "if (!(a < b)) return a;"))
        self.assertEqual(got[8], ("negate-condition", "while (!(c > 0)) c -= 2;"))
        self.assertEqual(got[9], ("delete-statement", ";  // mutant: deleted"))
        self.assertEqual(got[11], ("relational == -> !=", "return c != 1;"))

    def test_declaration_not_deleted(self):
        self.assertIsNone(ms.mutate("  Request& r = requests.at(id);\n", True))
        self.assertIsNone(ms.mutate("  std::vector<int> v;\n", True))
        self.assertEqual(ms.mutate("  r.count = 0;\n", True)[0], "delete-statement")

    def test_continuation_line_not_deleted(self):
        # a line that continues the previous statement is not a statement of its own
        self.assertIsNone(ms.mutate("      other(x);\n", False))

    def test_condition_spanning_lines_falls_through(self):
        op, line = ms.mutate("  if (a && b &&\n", True)
        self.assertEqual(op, "logical && -> ||")


class CopyTreeTest(unittest.TestCase):
    def test_a_changed_file_is_rewritten_with_a_fresh_mtime_and_build_dirs_are_left_out(self):
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "src"), os.path.join(d, "dst")
            os.makedirs(os.path.join(src, "build", "meson-private"))
            with open(os.path.join(src, "a.cpp"), "w") as f:
                f.write("int a;\n")
            os.utime(os.path.join(src, "a.cpp"), (1000, 1000))  # an old source, as a checkout's can be
            ms.copy_tree(src, dst)
            self.assertFalse(os.path.exists(os.path.join(dst, "build")))
            # a mutant left behind in the copy (a sweep killed before it restored the file)
            with open(os.path.join(dst, "a.cpp"), "w") as f:
                f.write("int b;\n")
            os.utime(os.path.join(dst, "a.cpp"), (5000, 5000))
            ms.copy_tree(src, dst)
            with open(os.path.join(dst, "a.cpp")) as f:
                self.assertEqual(f.read(), "int a;\n")
            # newer than the mutant, so a build rebuilds what the mutant's object was made from
            self.assertGreater(os.path.getmtime(os.path.join(dst, "a.cpp")), 5000)


class PlanTest(unittest.TestCase):
    def test_accepted_without_reason_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "a.cpp"), "w") as f:
                f.write(SOURCE)
            plan = os.path.join(d, "plan.json")
            with open(plan, "w") as f:
                json.dump({"groups": [{"sources": ["a.cpp"], "tests": []}],
                           "accepted": [{"file": "a.cpp", "text": "g(c);", "operator": "delete-statement",
                                         "reason": " "}]}, f)
            sys.argv = ["mutation_sweep.py", "--plan", plan, "--root", d, "--workdir", d, "--list"]
            self.assertEqual(ms.main(), 2)

    def test_lines_restricts_the_sweep_to_the_places_named(self):
        import contextlib
        import io
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "a.cpp"), "w") as f:
                f.write(SOURCE)
            plan = os.path.join(d, "plan.json")
            with open(plan, "w") as f:
                json.dump({"groups": [{"sources": ["a.cpp"], "tests": []}]}, f)
            lines = os.path.join(d, "lines.txt")
            with open(lines, "w") as f:
                f.write("a.cpp:7\na.cpp:11\n")
            sys.argv = ["mutation_sweep.py", "--plan", plan, "--root", d, "--workdir", d, "--list", "--lines", lines]
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(ms.main(), 0)
            self.assertEqual(out.getvalue().splitlines()[-1], "2 mutants")
            self.assertIn("a.cpp:7: negate-condition", out.getvalue())


if __name__ == "__main__":
    unittest.main()
