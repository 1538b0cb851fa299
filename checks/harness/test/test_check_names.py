"""FID-8 named-or-headed-like-upstream (checks/harness/oracle/check_copies.py names and index --names-out): each
case is the smallest refused input beside the closest accepted one."""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import yaml

HARNESS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(HARNESS_DIR))
SCRIPT = os.path.join(HARNESS_DIR, "oracle", "check_copies.py")
sys.path.insert(0, ROOT)

from checks.harness.oracle import loader  # noqa: E402

MANIFEST = {"version": 1, "guarded": ["toy"], "real": [], "shells": [], "replacements": []}


class Tree:
    """A toy ENGINES_DIR: engines/<engine>/oracle/{manifest.yaml, upstream-names.txt, *.py}, and a shared dir."""

    def __init__(self, test):
        self.tmp = tempfile.TemporaryDirectory()
        test.addCleanup(self.tmp.cleanup)
        self.engines = os.path.join(self.tmp.name, "engines")
        self.shared = os.path.join(self.tmp.name, "shared")
        os.makedirs(self.shared)

    def engine(self, name, upstream, files, declared=(), replacements=()):
        d = os.path.join(self.engines, name, "oracle")
        os.makedirs(d)
        manifest = dict(MANIFEST, replacements=list(replacements))
        if declared:
            manifest["named_like_upstream"] = [{"name": n, "kind": k, "reason": "r"} for n, k in declared]
        with open(os.path.join(d, "manifest.yaml"), "w") as f:
            yaml.safe_dump(manifest, f)
        with open(os.path.join(d, "upstream-names.txt"), "w") as f:
            f.write("# names\n" + "".join(n + "\n" for n in upstream))
        for fname, text in files.items():
            with open(os.path.join(d, fname), "w") as f:
                f.write(textwrap.dedent(text))

    def share(self, fname, text):
        with open(os.path.join(self.shared, fname), "w") as f:
            f.write(textwrap.dedent(text))

    def run(self, shared=False):
        args = [sys.executable, SCRIPT, "names"] + (["--harness", self.shared] if shared else []) + [self.engines]
        return subprocess.run(args, capture_output=True, text=True)


def names(test, upstream, files, declared=(), replacements=()):
    t = Tree(test)
    t.engine("toy", upstream, files, declared, replacements)
    return t.run()


class Names(unittest.TestCase):
    def assertRefused(self, out, text):
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn(text, out.stdout)

    def assertAccepted(self, out):
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)

    def test_an_undeclared_upstream_name_is_refused_and_a_declared_one_accepted(self):
        files = {"h.py": "def schedule_waiting(q):\n    return q\n"}
        self.assertRefused(names(self, ["schedule_waiting"], files), "schedule_waiting is named like an upstream toy")
        self.assertAccepted(names(self, ["schedule_waiting"], files, [("h.py:schedule_waiting", "coincidence")]))

    def test_a_name_upstream_does_not_use_is_accepted(self):
        self.assertAccepted(names(self, ["schedule_waiting"], {"h.py": "def pick_waiting(q):\n    return q\n"}))

    def test_methods_are_compared_by_class_and_name(self):
        files = lambda cls: {"h.py": f"class {cls}:\n    def schedule(self):\n        return 1\n"}  # noqa: E731
        self.assertRefused(names(self, ["Scheduler.schedule"], files("Scheduler")), "Scheduler.schedule is named")
        self.assertAccepted(names(self, ["Scheduler.schedule"], files("Queue")))

    def test_a_nested_class_is_named_by_its_innermost_class(self):
        text = "class Outer:\n    class Inner:\n        def step(self):\n            pass\n"
        self.assertRefused(names(self, ["Inner.step"], {"h.py": text}), "Inner.step is named")
        self.assertAccepted(names(self, ["Outer.Inner.step"], {"h.py": text}))

    def test_a_function_inside_a_function_is_named_alone(self):
        text = "def build():\n    def schedule_waiting(q):\n        return q\n    return schedule_waiting\n"
        self.assertRefused(names(self, ["schedule_waiting"], {"h.py": text}), "schedule_waiting is named")
        self.assertAccepted(names(self, ["build.schedule_waiting"], {"h.py": text}))

    def test_a_definition_under_an_if_is_compared(self):
        text = "import sys\nif sys:\n    class SamplingParams:\n        pass\n"
        self.assertRefused(names(self, ["SamplingParams"], {"h.py": text}), "SamplingParams is named")
        self.assertAccepted(names(self, ["SamplingParams"], {"h.py": text}, [("h.py:SamplingParams", "stand-in")]))

    def test_a_dunder_never_matches_on_its_own(self):
        self.assertAccepted(names(self, ["__getattr__", "Toy.__init__"], {
            "h.py": "def __getattr__(name):\n    raise AttributeError(name)\n\n\n"
                    "class Toy:\n    def __init__(self):\n        pass\n"}))
        self.assertRefused(names(self, ["getattr_"], {"h.py": "def getattr_(name):\n    return name\n"}),
                           "getattr_ is named")

    def test_a_stand_in_class_covers_its_methods_and_a_coincidence_does_not(self):
        files = {"stubs.py": "class SamplingBatchInfo:\n    def filter_batch(self, keep):\n        return None\n"}
        upstream = ["SamplingBatchInfo", "SamplingBatchInfo.filter_batch"]
        self.assertAccepted(names(self, upstream, files, [("stubs.py:SamplingBatchInfo", "stand-in")]))
        self.assertRefused(names(self, upstream, files, [("stubs.py:SamplingBatchInfo", "coincidence")]),
                           "SamplingBatchInfo.filter_batch is named like an upstream toy")

    def test_a_declaration_of_nothing_is_stale(self):
        files = {"h.py": "def schedule_waiting(q):\n    return q\n"}
        self.assertRefused(names(self, ["schedule_waiting"], files, [("h.py:schedule_waiting", "coincidence"),
                                                                      ("h.py:gone", "coincidence")]),
                           "declares h.py:gone, which names no definition")
        self.assertAccepted(names(self, ["schedule_waiting"], files, [("h.py:schedule_waiting", "coincidence")]))

    def test_a_declaration_of_a_name_upstream_does_not_use_is_stale(self):
        files = {"h.py": "def pick_waiting(q):\n    return q\n"}
        self.assertRefused(names(self, ["schedule_waiting"], files, [("h.py:pick_waiting", "coincidence")]),
                           "declares h.py:pick_waiting, which is not named like any upstream toy")
        self.assertAccepted(names(self, ["schedule_waiting"], files))

    def test_a_declaration_of_another_kind_is_refused(self):
        files = {"h.py": "def schedule_waiting(q):\n    return q\n"}
        self.assertRefused(names(self, ["schedule_waiting"], files, [("h.py:schedule_waiting", "gpu")]),
                           "named_like_upstream[0] is not")


class Headers(unittest.TestCase):
    def run_header(self, at_line, transcribed=None):
        text = "\n" * (at_line - 1) + "# Ported from toy/core/sched.py\ndef pick(q):\n    return q\n"
        repl = [{"module": "toy.kernels", "kind": "transcription", "reason": "r", "cites": ["toy/kernels.py pick"],
                 "functions": [transcribed]}] if transcribed else []
        return names(self, [], {"h.py": text}, replacements=repl)

    def test_a_derived_from_header_is_refused_in_the_first_30_lines_only(self):
        out = self.run_header(30)
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("h.py:30: carries a derived-from header ('# Ported from toy/core/sched.py')", out.stdout)
        self.assertEqual(self.run_header(31).returncode, 0)

    def test_a_header_is_accepted_when_a_function_of_the_file_is_a_declared_transcription(self):
        self.assertEqual(self.run_header(1, "h.py:pick").returncode, 0)
        out = self.run_header(1, "h.py:gone")
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("carries a derived-from header", out.stdout)

    def test_the_phrase_is_matched_in_any_case(self):
        for phrase in ("derived from", "ADAPTED FROM", "Copied  from", "transcribed from"):
            out = names(self, [], {"h.py": f'"""{phrase} upstream."""\n'})
            self.assertEqual(out.returncode, 1, phrase)
        self.assertEqual(names(self, [], {"h.py": '"""derived-from headers are refused (FID-8)."""\n'}).returncode, 0)


class Shared(unittest.TestCase):
    def tree(self, declared_in):
        t = Tree(self)
        t.engine("a", ["main"], {}, [("tool.py:main", "coincidence")] if declared_in == "a" else [])
        t.engine("b", ["Other"], {}, [("tool.py:main", "coincidence")] if declared_in == "b" else [])
        t.share("tool.py", "def main():\n    return 0\n")
        return t

    def test_the_shared_machinery_is_declared_by_the_engine_whose_name_it_matches(self):
        out = self.tree("a").run(shared=True)
        self.assertEqual(out.returncode, 0, out.stdout)
        out = self.tree("b").run(shared=True)
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("main is named like an upstream a function", out.stdout)
        self.assertIn("declares tool.py:main, which is not named like any upstream b", out.stdout)

    def test_without_the_shared_dir_its_declarations_name_nothing(self):
        out = self.tree("a").run(shared=False)
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("declares tool.py:main, which names no definition", out.stdout)


class Index(unittest.TestCase):
    def test_the_index_writes_short_names_of_the_roots_and_the_stand_in_modules_only(self):
        with tempfile.TemporaryDirectory() as tmp:
            co = os.path.join(tmp, "co")
            for rel, text in {
                "toy/core/sched.py": "class Scheduler:\n    def schedule(self):\n        def helper():\n"
                                     "            pass\n\n    class Queue:\n        def pop(self):\n            pass\n",
                "toy/params.py": "class Params:\n    SECRET_CODE = 1\n",
                "toy/other.py": "def unlisted():\n    pass\n",
            }.items():
                os.makedirs(os.path.dirname(os.path.join(co, rel)), exist_ok=True)
                with open(os.path.join(co, rel), "w") as f:
                    f.write(text)
            man = os.path.join(tmp, "manifest.yaml")
            with open(man, "w") as f:
                yaml.safe_dump(dict(MANIFEST, replacements=[{"module": "toy.params", "kind": "configuration",
                                                             "reason": "r"}, {"module": "torch", "kind": "gpu",
                                                                              "reason": "r"}]), f)
            out_file = os.path.join(tmp, "names.txt")
            out = subprocess.run([sys.executable, SCRIPT, "index", "--checkout", co, "--names-out", out_file,
                                  "--stand-ins", man, "toy/core"], capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            with open(out_file) as f:
                lines = [line.strip() for line in f if not line.startswith("#")]
            self.assertEqual(lines, ["Params", "Queue.pop", "Scheduler", "Scheduler.Queue", "Scheduler.schedule",
                                     "helper"])
            self.assertIn("torch", out.stdout)  # a replaced module outside the checkout is named, not indexed


class ValidateManifest(unittest.TestCase):
    def problems(self, entry):
        return loader.validate_manifest(dict(MANIFEST, named_like_upstream=[entry]))

    def test_a_well_formed_declaration_is_accepted(self):
        self.assertEqual(self.problems({"name": "stubs.py:SamplingParams", "kind": "stand-in", "reason": "r"}), [])

    def test_a_malformed_declaration_is_refused(self):
        self.assertIn("is not '<file>.py:<qualified name>'",
                      " ".join(self.problems({"name": "SamplingParams", "kind": "stand-in", "reason": "r"})))
        self.assertIn("is not one of stand-in, coincidence, transcription",
                      " ".join(self.problems({"name": "stubs.py:X", "kind": "gpu", "reason": "r"})))
        self.assertIn("gives no reason", " ".join(self.problems({"name": "stubs.py:X", "kind": "coincidence"})))
        self.assertIn("unknown field 'site'",
                      " ".join(self.problems({"name": "stubs.py:X", "kind": "coincidence", "reason": "r",
                                              "site": "s"})))


if __name__ == "__main__":
    unittest.main()
