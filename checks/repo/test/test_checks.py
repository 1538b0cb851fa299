"""The repository checks, each on the smallest input that makes it fail and the closest one that passes."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

REPO_CHECKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(REPO_CHECKS))
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
with open(os.path.join(FIXTURES, "versions.yaml"), encoding="utf-8") as f:
    VERSIONS = f.read()
with open(os.path.join(FIXTURES, "cases.json"), encoding="utf-8") as f:
    CASES = json.load(f)  # the bad text lives in fixtures/, which the checks never scan as source


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(REPO_CHECKS, script), *args], capture_output=True, text=True)


def tree(files):
    d = tempfile.TemporaryDirectory()
    for rel, text in files.items():
        p = os.path.join(d.name, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
    return d


class VersionLiterals(unittest.TestCase):
    def check(self, files):
        with tree({"versions.yaml": VERSIONS, **files}) as d:
            return run("version_literals.py", "--versions", os.path.join(d, "versions.yaml"), d)

    def test_pairs(self):
        bad, good = CASES["version_literals"]["bad"], CASES["version_literals"]["good"]
        for rel in bad:
            with self.subTest(rel=rel):
                out = self.check({rel: bad[rel]})
                self.assertEqual(out.returncode, 1, out.stdout)
                self.assertIn(f"{rel}:1:", out.stdout)
                self.assertEqual(self.check({rel: good[rel]}).returncode, 0)

    def test_scenario_engine_version_and_generated_files_are_exempt(self):
        out = self.check(CASES["version_literals"]["exempt"])
        self.assertEqual(out.returncode, 0, out.stdout)


class DeclaredInputs(unittest.TestCase):
    def test_pairs(self):
        cases = CASES["declared_inputs"]["bad"]
        for rel, text, what in cases:
            with self.subTest(rel=rel):
                with tree({rel: text}) as d:
                    out = run("declared_inputs.py", d)
                    self.assertEqual(out.returncode, 1)
                    self.assertIn(what, out.stdout)
        with tree(CASES["declared_inputs"]["good"]) as d:
            self.assertEqual(run("declared_inputs.py", d).returncode, 0)


class NoSkips(unittest.TestCase):
    def log(self, rows, junit=None):
        d = tempfile.TemporaryDirectory()
        with open(os.path.join(d.name, "testlog.json"), "w") as f:
            f.write("".join(json.dumps(r) + "\n" for r in rows))
        if junit:
            with open(os.path.join(d.name, "testlog.junit.xml"), "w") as f:
                f.write(junit)
        return d

    def test_pairs(self):
        with self.log([{"name": "a", "result": "OK"}, {"name": "b", "result": "SKIP"}]) as d:
            out = run("no_skips.py", d)
            self.assertEqual(out.returncode, 1)
            self.assertIn("1 passed, 0 failed, 1 skipped", out.stdout)
        with self.log([{"name": "a", "result": "OK"}, {"name": "b", "result": "OK"}]) as d:
            out = run("no_skips.py", d)
            self.assertEqual(out.returncode, 0)
            self.assertEqual(out.stdout.splitlines()[-1], "2 passed, 0 failed, 0 skipped")

    def test_skipped_gtest_case_fails(self):
        junit = ('<testsuites><testsuite name="u"><testcase classname="A" name="b"><skipped/></testcase>'
                 '</testsuite></testsuites>')
        with self.log([{"name": "u", "result": "OK"}], junit) as d:
            out = run("no_skips.py", d)
            self.assertEqual(out.returncode, 1)
            self.assertIn("case 'A.b' was skipped", out.stdout)

    def test_failure_and_empty_log_fail(self):
        with self.log([{"name": "a", "result": "FAIL"}]) as d:
            self.assertEqual(run("no_skips.py", d).returncode, 1)
        with self.log([]) as d:
            self.assertEqual(run("no_skips.py", d).returncode, 1)


class FpContractFlags(unittest.TestCase):
    def cc(self, entries):
        d = tempfile.TemporaryDirectory()
        p = os.path.join(d.name, "compile_commands.json")
        with open(p, "w") as f:
            json.dump(entries, f)
        return d, p

    def test_pairs(self):
        d, p = self.cc([{"directory": "/", "file": "a.cpp", "command": "c++ -O2 -c a.cpp"}])
        with d:
            self.assertEqual(run("fp_contract_flags.py", p).returncode, 1)
        d, p = self.cc([{"directory": "/", "file": "a.cpp", "command": "c++ -ffp-contract=off -O2 -c a.cpp"}])
        with d:
            self.assertEqual(run("fp_contract_flags.py", p).returncode, 0)
        d, p = self.cc([{"directory": "/", "file": "a.cpp", "command": "c++ -ffp-contract=off -ffp-contract=fast a.cpp"}])
        with d:
            self.assertIn("ends with -ffp-contract=fast", run("fp_contract_flags.py", p).stdout)

    def test_marked_source_may_turn_fusion_on(self):
        with tree({"a.cpp": "// fusion intended: a probe twin\n"}) as src:
            d, p = self.cc([{"directory": src, "file": "a.cpp", "command": "c++ -ffp-contract=off -ffp-contract=fast a.cpp"}])
            with d:
                self.assertEqual(run("fp_contract_flags.py", p).returncode, 0)


class CitedIds(unittest.TestCase):
    def test_pairs(self):
        with tree({"docs/a.md": "Keeps X7 and SUB-21."}) as d:
            out = run("cited_ids.py", "--registry", ROOT, d)
            self.assertEqual(out.returncode, 1)
            self.assertIn("cites SUB-21", out.stdout)
            self.assertNotIn("cites X7", out.stdout)
        with tree({"docs/a.md": "Keeps X7 and SUB-20, on x86-64, graded G1, in CX7 and X7b."}) as d:
            self.assertEqual(run("cited_ids.py", "--registry", ROOT, d).returncode, 0)

    def test_commit_messages_since_the_last_tag(self):
        with tree({"docs/a.md": "ok"}) as d:
            g = ["git", "-C", d, "-c", "user.name=t", "-c", "user.email=t@invalid"]
            subprocess.run(["git", "init", "-q", d], check=True)
            subprocess.run(g + ["add", "-A"], check=True)
            subprocess.run(g + ["commit", "-q", "-m", "cites X99"], check=True)
            subprocess.run(g + ["tag", "v1"], check=True)
            self.assertEqual(run("cited_ids.py", "--registry", ROOT, d).returncode, 0)  # before the tag
            subprocess.run(g + ["commit", "-q", "--allow-empty", "-m", "keeps DEV-99"], check=True)
            out = run("cited_ids.py", "--registry", ROOT, d)
            self.assertEqual(out.returncode, 1)
            self.assertIn("cites DEV-99", out.stdout)


class OneDetector(unittest.TestCase):
    def check(self, files):
        with tree(files) as d:
            return run("one_detector.py", d)

    def test_including_the_detector_outside_the_simulator_is_flagged_and_inside_is_not(self):
        inc = '#include "sim/analysis/steady_state.h"\n'
        out = self.check({"src/score/grade.cpp": inc})
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("src/score/grade.cpp:1: includes sim/analysis/steady_state.h: outside src/sim", out.stdout)
        self.assertEqual(self.check({"src/sim/run/steady_state.cpp": inc}).returncode, 0)
        self.assertEqual(self.check({"src/score/grade.cpp": '#include "sim/run/run.h"\n'}).returncode, 0)

    def test_a_second_set_of_run_classes_is_flagged_and_the_detectors_own_is_not(self):
        enum = "enum class C {\n  settled,\n  overloaded,\n  incomplete\n};\n"
        out = self.check({"src/sim/run/verdict.h": "// x\n" + enum})
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("src/sim/run/verdict.h:2: an enum of run classes", out.stdout)
        self.assertEqual(self.check({"src/sim/analysis/steady_state.h": enum}).returncode, 0)
        self.assertEqual(self.check({"src/sim/run/verdict.h": "enum class C { settled, incomplete };\n"}).returncode, 0)

if __name__ == "__main__":
    unittest.main()


class DocumentReaders(unittest.TestCase):
    BAD = 'auto n = YAML::LoadFile("chip.yaml");\n'
    GOOD = 'auto chip = blis::schema::load_chip(text, "chip.yaml", d);\n'

    def check(self, files):
        with tree(files) as d:
            return run("document_readers.py", d)

    def test_a_hand_written_yaml_reader_is_flagged_and_the_generated_one_is_not(self):
        out = self.check({"src/data/chips.cpp": self.BAD})
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("src/data/chips.cpp:1: parses a document by hand", out.stdout)
        self.assertEqual(self.check({"src/data/chips.cpp": self.GOOD}).returncode, 0)

    def test_json_parse_is_flagged_too(self):
        out = self.check({"src/sim/result.cpp": "auto j = nlohmann::json::parse(text);\n"})
        self.assertEqual(out.returncode, 1, out.stdout)

    def test_the_one_parser_and_test_drivers_may_parse(self):
        self.assertEqual(self.check({"src/contracts/doc/parse.cpp": self.BAD,
                                     "tests/schema/cases_test.cpp": self.BAD}).returncode, 0)


class GraphVocabulary(unittest.TestCase):
    GRAPH = "dims: {hidden_size: 8, vocab_size: 16}\nattention: {kind: GQA}\n"

    def check(self, text):
        with tree({"m/graph.yaml": text}) as d:
            return run("graph_vocabulary.py", d)

    def test_a_lowering_key_is_flagged_and_a_checkpoint_fact_is_not(self):
        out = self.check(self.GRAPH.replace("hidden_size: 8", "page_size: 16, hidden_size: 8"))
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("dims.page_size: names lowering", out.stdout)
        self.assertEqual(self.check(self.GRAPH).returncode, 0)

    def test_an_engine_name_in_a_value_is_flagged(self):
        out = self.check(self.GRAPH + "note: layout as sglang shards it\n")
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("names an engine ('sglang')", out.stdout)


class NoConfigJson(unittest.TestCase):
    def check(self, files):
        with tree(files) as d:
            return run("no_config_json.py", d)

    def test_runtime_code_naming_config_json_is_flagged_and_the_deriver_is_not(self):
        out = self.check({"engines/vllm/model.cpp": 'auto p = dir + "/config.json";\n'})
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("engines/vllm/model.cpp:1: runtime code names config.json", out.stdout)
        self.assertEqual(self.check({"engines/vllm/model.cpp": 'auto p = dir + "/graph.yaml";\n',
                                     "catalog/scripts/derive_graph.py": 'open("config.json")\n'}).returncode, 0)

    def test_a_path_literal_is_flagged_and_prose_in_a_message_is_not(self):
        self.assertEqual(self.check({"src/a.cpp": 'open("config.json");\n'}).returncode, 1)
        self.assertEqual(self.check({"src/a.cpp": 'throw E("is greater than in model\'s config.json). Set it");\n'}).returncode, 0)
