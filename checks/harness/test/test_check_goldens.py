"""FID-3 golden-reviewed-line (checks/harness/oracle/check_goldens.py): each refusal beside the closest
history it accepts (SIM-9). Histories are git fast-import streams, as the known-bad input is."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

CHECK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "oracle", "check_goldens.py")
TRACE = "engines/vllm/oracle/traces/designed-one.trace.json"
OTHER = "engines/sglang/oracle/traces/random-1-0000.trace.json"


def trace(scheduled, manifest_version=1, commit="a" * 40):
    return json.dumps({"engine": "vllm", "manifest_version": manifest_version, "upstream_commit": commit,
                       "environment": {"sha256": "e" * 64}, "steps": [{"step": 0, "scheduled": scheduled}]})


def stream(commits):
    """commits: [(message, {path: text or None to delete})] -> a fast-import stream."""
    out = []
    for i, (message, files) in enumerate(commits):
        out.append(f"commit refs/heads/main\ncommitter T <t@blis.invalid> {1764633600 + 60 * i} +0000\n"
                   f"data <<END_MESSAGE\n{message}\nEND_MESSAGE\n")
        for path, text in files.items():
            out.append(f"D {path}\n" if text is None else f"M 100644 inline {path}\ndata <<END_TRACE\n{text}\nEND_TRACE\n")
        out.append("\n")
    return "".join(out)


def run(commits):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "history.fi")
        with open(path, "w", encoding="utf-8") as f:
            f.write(stream(commits))
        return subprocess.run([sys.executable, CHECK, path], capture_output=True, text=True)


RECORD = ("Record the trace", {TRACE: trace({"r0": 8})})


class GoldenReviewed(unittest.TestCase):
    def assertRefused(self, out, text):
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn(text, out.stdout)

    def assertAccepted(self, out):
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("0 findings", out.stdout)

    def test_changed_decisions_without_a_line_are_refused(self):
        out = run([RECORD, ("Re-record", {TRACE: trace({"r0": 4})})])
        self.assertRefused(out, f"{TRACE}: decisions changed without a `golden-reviewed: {TRACE} <reason>` line")

    def test_changed_decisions_with_a_line_naming_the_trace_are_accepted(self):
        out = run([RECORD, ("Re-record\n\ngolden-reviewed: " + TRACE + " the budget now counts the chunk",
                            {TRACE: trace({"r0": 4})})])
        self.assertAccepted(out)

    def test_a_pattern_with_a_colon_names_every_trace_it_matches(self):
        out = run([RECORD, ("Re-record\n\ngolden-reviewed: engines/vllm/oracle/traces/*.trace.json: format 3",
                            {TRACE: trace({"r0": 4})})])
        self.assertAccepted(out)

    def test_a_line_naming_another_engines_traces_does_not_cover_this_one(self):
        out = run([RECORD, ("Re-record\n\ngolden-reviewed: engines/sglang/oracle/traces/*.trace.json: format 3",
                            {TRACE: trace({"r0": 4})})])
        self.assertRefused(out, "decisions changed without")
        self.assertIn("changes no recorded trace's decisions by that name", out.stdout)

    def test_a_line_without_a_reason_is_refused(self):
        out = run([RECORD, ("Re-record\n\ngolden-reviewed: " + TRACE, {TRACE: trace({"r0": 4})})])
        self.assertRefused(out, "a golden-reviewed line names a trace and gives the reason")

    def test_a_provenance_only_change_needs_no_line(self):
        out = run([RECORD, ("Bump the manifest", {TRACE: trace({"r0": 8}, manifest_version=2, commit="b" * 40)})])
        self.assertAccepted(out)

    def test_a_new_trace_needs_no_line(self):
        out = run([RECORD, ("Record another", {OTHER: trace({"r1": 2})})])
        self.assertAccepted(out)

    def test_a_deleted_trace_is_refused_without_a_line_and_accepted_with_one(self):
        self.assertRefused(run([RECORD, ("Drop it", {TRACE: None})]), f"{TRACE}: deleted without")
        self.assertAccepted(run([RECORD, ("Drop it\n\ngolden-reviewed: " + TRACE + " the scenario is refused now",
                                          {TRACE: None})]))

    def test_a_line_naming_an_unchanged_trace_is_refused(self):
        out = run([RECORD, ("Touch nothing\n\ngolden-reviewed: " + TRACE + " no reason to be here",
                            {OTHER: trace({"r1": 2})})])
        self.assertRefused(out, f"golden-reviewed line names {TRACE}, but this commit changes no")


if __name__ == "__main__":
    unittest.main()
