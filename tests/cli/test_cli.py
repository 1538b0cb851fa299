"""`blis invariants` as a user runs it.  usage: test_cli.py BLIS SRC_ROOT"""
import json
import subprocess
import sys
import unittest

BLIS, ROOT = sys.argv[1], sys.argv[2]


def blis(*args):
    return subprocess.run([BLIS, *args], capture_output=True, text=True)


class InvariantsCommand(unittest.TestCase):
    def test_json_is_byte_identical_to_the_committed_registry(self):
        out = blis("invariants", "--json")
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(f"{ROOT}/docs/invariants.json", encoding="utf-8") as f:
            self.assertEqual(out.stdout, f.read())

    def test_json_lists_every_design_invariant_and_trigger_outcome(self):
        rows = json.loads(blis("invariants", "--json").stdout)["invariants"]
        ids = {r["id"] for r in rows}
        self.assertEqual(len([i for i in ids if not i.startswith("T-")]), 149)
        self.assertEqual(len([i for i in ids if i.startswith("T-")]), 35)
        for r in rows:
            self.assertTrue(r["kind"] and r["status"], r["id"])
            self.assertIn("checks", r)

    def test_status_counts_and_exits_zero(self):
        out = blis("invariants", "status")
        self.assertEqual(out.returncode, 0, out.stdout)
        last = out.stdout.splitlines()[-1].split("\t")
        self.assertEqual(last[0], "all")
        self.assertEqual(last[-1], "184")

    def test_filters(self):
        out = blis("invariants", "--family", "LIF")
        self.assertEqual([l.split("\t")[0] for l in out.stdout.splitlines()], [f"LIF-{i}" for i in range(1, 8)])
        for line in blis("invariants", "--status", "ci").stdout.splitlines():
            self.assertEqual(line.split("\t")[1], "ci")
        one = json.loads(blis("invariants", "--json", "X7").stdout)["invariants"]
        self.assertEqual([r["id"] for r in one], ["X7"])

    def test_unknown_id_and_option_are_refused(self):
        out = blis("invariants", "X99")
        self.assertEqual(out.returncode, 1)
        self.assertIn("no invariant 'X99'", out.stderr)
        out = blis("invariants", "--colour")
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown option '--colour'", out.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
