"""DEV-12 change-class (checks/repo/change_class.py): each finding on the smallest history that makes it, beside
the closest history it accepts (SIM-9). Histories are git fast-import streams, as the known-bad input is; the
work-tree cases import the same streams into a scratch repository with a work tree."""
import os
import subprocess
import sys
import tempfile
import unittest

REPO_CHECKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = os.path.join(REPO_CHECKS, "change_class.py")
EXPECTED = "tests/golden/expected/steady-state.json"
SCENARIO = "tests/golden/scenarios/steady-state.yaml"
SRC = "src/cost/step.cpp"


def stream(commits):
    """commits: [(message, {path: text or None to delete}, merge mark or None)] -> a fast-import stream on
    refs/heads/main (a commit with a merge mark merges the branch refs/heads/side, which starts at commit 1)."""
    out = []
    for i, (message, files, *merge) in enumerate(commits, start=1):
        ref = "refs/heads/side" if files.pop("@side", None) else "refs/heads/main"
        out.append(f"commit {ref}\nmark :{i}\ncommitter T <t@blis.invalid> {1764633600 + 60 * i} +0000\n"
                   f"data <<END_MESSAGE\n{message}\nEND_MESSAGE\n")
        if ref == "refs/heads/side":
            out.append("from :1\n")
        if merge and merge[0]:
            out.append(f"merge :{merge[0]}\n")
        for path, text in files.items():
            out.append(f"D {path}\n" if text is None
                       else f"M 100644 inline {path}\ndata <<END_FILE\n{text}\nEND_FILE\n")
        out.append("\n")
    return "".join(out)


def run(commits, work_tree=False):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "history.fi")
        with open(path, "w", encoding="utf-8") as f:
            f.write(stream([(m, dict(files), *rest) for m, files, *rest in commits]))
        if not work_tree:
            return subprocess.run([sys.executable, CHECK, path], capture_output=True, text=True)
        repo = os.path.join(tmp, "repo")
        subprocess.run(["git", "init", "-q", "-b", "main", repo], check=True)
        with open(path, "rb") as f:
            subprocess.run(["git", "-C", repo, "fast-import", "--quiet"], stdin=f, check=True)
        return subprocess.run([sys.executable, CHECK, repo], capture_output=True, text=True)


BOUNDARY = ("Add the change-class check", {"checks/repo/change_class.py": "# the check",
                                           EXPECTED: '{"ttft": 1}', SCENARIO: "seed: 13", SRC: "v1",
                                           "registry/sets/floor/gemm.yaml": "a: 1"})


def verification(files):
    return ("Refactor\n\nchange-class: verification: refactor of the step pricing, byte gate unchanged", files)


class ChangeClass(unittest.TestCase):
    def assertRefused(self, out, text):
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn(text, out.stdout)

    def assertAccepted(self, out):
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("0 findings", out.stdout)

    def test_a_modelled_change_without_a_line_is_refused_a_docs_change_is_not(self):
        out = run([BOUNDARY, ("Speed up the step loop", {SRC: "v2"})])
        self.assertRefused(out, f"(Speed up the step loop): changes {SRC} but has no `change-class:` line")
        self.assertAccepted(run([BOUNDARY, ("Reword the guide", {"docs/guide.md": "v2"})]))

    def test_both_classes_are_refused_one_is_accepted(self):
        both = "Mixed\n\nchange-class: verification: refactor\nchange-class: validation: new pricing form"
        self.assertRefused(run([BOUNDARY, (both, {SRC: "v2"})]),
                           "declares both verification and validation: split the change (DEV-12)")
        self.assertAccepted(run([BOUNDARY, ("Priced\n\nchange-class: validation: new pricing form", {SRC: "v2"})]))

    def test_two_lines_of_one_class_are_refused(self):
        two = "Twice\n\nchange-class: verification: refactor\nchange-class: verification: again"
        self.assertRefused(run([BOUNDARY, (two, {SRC: "v2"})]), "carries 2 `change-class:` lines")

    def test_a_line_without_a_reason_is_refused(self):
        for line in ("change-class: verification", "change-class: verification:"):
            with self.subTest(line=line):
                self.assertRefused(run([BOUNDARY, ("Refactor\n\n" + line, {SRC: "v2"})]),
                                   f"`{line}` gives no reason")
        self.assertAccepted(run([BOUNDARY, ("Refactor\n\nchange-class: verification refactor", {SRC: "v2"})]))

    def test_an_unknown_class_is_refused(self):
        for line in ("change-class: verfication: typo", "change-class: verification/validation"):
            with self.subTest(line=line):
                self.assertRefused(run([BOUNDARY, ("Refactor\n\n" + line, {SRC: "v2"})]),
                                   f"`{line}`: the class is verification or validation")

    def test_verification_moving_a_golden_result_is_refused_changing_a_scenario_is_not(self):
        self.assertRefused(run([BOUNDARY, verification({EXPECTED: '{"ttft": 2}'})]),
                           f"verification change moves {EXPECTED} (modified): a verification change leaves "
                           f"modelled outputs unchanged; declare validation or split (DEV-12)")
        self.assertAccepted(run([BOUNDARY, verification({SCENARIO: "seed: 14"})]))

    def test_verification_deleting_a_golden_result_is_refused_adding_one_is_not(self):
        self.assertRefused(run([BOUNDARY, verification({EXPECTED: None})]), f"moves {EXPECTED} (deleted)")
        self.assertAccepted(run([BOUNDARY, verification({"tests/golden/expected/new.json": "{}"})]))

    def test_validation_may_move_a_golden_result(self):
        self.assertAccepted(run([BOUNDARY, ("Repriced\n\nchange-class: validation: the decode form changed",
                                            {EXPECTED: '{"ttft": 2}'})]))

    def test_verification_changing_coefficients_is_refused_changing_fitting_code_is_not(self):
        self.assertRefused(run([BOUNDARY, verification({"registry/sets/floor/gemm.yaml": "a: 2"})]),
                           "verification change moves registry/sets/floor/gemm.yaml (modified)")
        self.assertAccepted(run([BOUNDARY, verification({"registry/scripts/fit.py": "x = 1",
                                                         "registry/README.md": "notes"})]))

    def test_verification_changing_catalog_data_is_refused_changing_catalog_scripts_is_not(self):
        self.assertRefused(run([BOUNDARY, verification({"catalog/hardware/H100-SXM.yaml": "tflops: 1"})]),
                           "verification change moves catalog/hardware/H100-SXM.yaml (added)")
        self.assertAccepted(run([BOUNDARY, verification({"catalog/scripts/derive_graph.py": "x = 1"})]))

    def test_commits_before_the_boundary_are_exempt_commits_after_it_are_not(self):
        unlined = ("Speed up the step loop", {SRC: "v0"})
        out = run([unlined, BOUNDARY])
        self.assertAccepted(out)
        self.assertIn("boundary: ", out.stdout)
        self.assertIn("(Add the change-class check) adds checks/repo/change_class.py; it and its 1 ancestor(s) "
                      "predate the rule", out.stdout)
        self.assertRefused(run([BOUNDARY, unlined]), "has no `change-class:` line")

    def test_a_stream_without_the_boundary_is_checked_whole_a_work_tree_is_not_yet_under_the_rule(self):
        unlined = [("Speed up the step loop", {SRC: "v0"})]
        out = run(unlined)
        self.assertRefused(out, "has no `change-class:` line")
        self.assertIn("no commit in the stream adds checks/repo/change_class.py: every commit is checked", out.stdout)
        out = run(unlined, work_tree=True)
        self.assertAccepted(out)
        self.assertIn("the rule is not in force yet, and all 1 commit(s) predate it", out.stdout)
        self.assertRefused(run([BOUNDARY, *unlined], work_tree=True), "has no `change-class:` line")

    def test_merges_are_skipped_the_merged_commits_are_judged(self):
        side = ("Repriced\n\nchange-class: validation: the decode form changed", {EXPECTED: '{"ttft": 2}', "@side": 1})
        out = run([BOUNDARY, side, ("Merge the repricing", {}, 2)])
        self.assertAccepted(out)
        self.assertIn("1 merge(s) skipped", out.stdout)
        side = ("Repriced", {EXPECTED: '{"ttft": 2}', "@side": 1})
        self.assertRefused(run([BOUNDARY, side, ("Merge the repricing\n\nchange-class: validation: merge", {}, 2)]),
                           "(Repriced): changes tests/golden/expected/steady-state.json but has no")

    def test_the_known_bad_input_is_refused_for_the_expected_reason(self):
        root = os.path.dirname(os.path.dirname(REPO_CHECKS))
        bad = os.path.join(root, "tests/known_bad/DEV-12/verification-moves-golden.fi")
        out = subprocess.run([sys.executable, CHECK, bad], capture_output=True, text=True)
        self.assertRefused(out, "verification change moves tests/golden/expected/steady-state.csv.sha256 (modified)")


if __name__ == "__main__":
    unittest.main()
