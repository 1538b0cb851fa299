"""`blis compare` as a user runs it (DEV-11: paired comparisons on common random numbers with three outcomes
and the chance of a false claim controlled across the metrics), on the conformance runner (the same command
code with the conformance doubles plugged in) and, for its option refusals, on the production binary.

usage: test_compare_cli.py BLIS CONFORMANCE_RUNNER SRC_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

BLIS, RUNNER, ROOT = sys.argv[1], sys.argv[2], sys.argv[3]
BASE = os.path.join(ROOT, "tests", "golden", "scenarios", "two-replicas-poisson.yaml")
with open(BASE, encoding="utf-8") as _f:
    BASE_TEXT = _f.read()


def run(prog, *args):
    return subprocess.run([prog, *args], capture_output=True, text=True)


def compare(*args):
    out = run(RUNNER, "compare", "--json", *args)
    if out.returncode != 0:
        raise AssertionError(out.stderr)
    return json.loads(out.stdout)


def by_metric(report):
    return {c["metric"]: c for c in report["compared"]}


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.more = cls.write("three-replicas.yaml", BASE_TEXT.replace("replicas: 2", "replicas: 3"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def write(cls, name, text):
        path = os.path.join(cls.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_a_configuration_against_itself_is_never_distinguished(self):
        r = compare(BASE, BASE)
        self.assertEqual(r["pairs"], 5)  # the frame's replications.min
        self.assertEqual(r["adjustment"], "holm")
        self.assertEqual(r["baseline"], {"file": BASE, "scenario": "two-replicas-poisson", "seed": 7})
        self.assertGreater(len(r["compared"]), 30)
        for c in r["compared"]:
            self.assertEqual(c["outcome"], "not_distinguished", c["metric"])
            self.assertEqual(c["difference"]["mean"], 0.0, c["metric"])
            self.assertEqual(c["baseline_mean"], c["candidate_mean"], c["metric"])
        # A metric a replication withholds is listed with its reason, not dropped.
        self.assertIn("prefix_cache.hit_ratio", [l["metric"] for l in r["left_out"]])

    def test_a_third_replica_is_better_on_latency_and_worse_per_accelerator(self):
        r = by_metric(compare(BASE, self.more))
        self.assertEqual(r["ttft.mean"]["outcome"], "better")
        self.assertLess(r["ttft.mean"]["difference"]["high"], 0.0)
        self.assertEqual(r["throughput.output_tokens_per_s_per_accelerator"]["outcome"], "worse")
        # The offered load is the same, so the completed rate is not distinguished.
        self.assertEqual(r["throughput.requests_per_s"]["outcome"], "not_distinguished")

    def test_swapping_the_sides_swaps_better_and_worse(self):
        fwd = by_metric(compare(BASE, self.more))
        back = by_metric(compare(self.more, BASE))
        swap = {"better": "worse", "worse": "better", "not_distinguished": "not_distinguished"}
        for metric, c in fwd.items():
            self.assertEqual(back[metric]["outcome"], swap[c["outcome"]], metric)
            self.assertAlmostEqual(back[metric]["difference"]["mean"], -c["difference"]["mean"], places=12)

    def test_a_margin_wider_than_the_difference_makes_the_metrics_equivalent(self):
        r = by_metric(compare("--metric", "ttft.mean", "--margin", "ttft.mean=1", BASE, self.more))
        self.assertEqual(list(r), ["ttft.mean"])
        self.assertEqual(r["ttft.mean"]["outcome"], "not_distinguished")
        self.assertTrue(r["ttft.mean"]["equivalent"])
        self.assertEqual(r["ttft.mean"]["margin"], 1.0)

    def test_bonferroni_and_replications_are_taken(self):
        r = compare("--adjust", "bonferroni", "--replications", "3", "--metric", "ttft.mean", "--metric", "e2e.mean",
                    BASE, self.more)
        self.assertEqual(r["adjustment"], "bonferroni")
        self.assertEqual(r["pairs"], 3)
        # Bonferroni decides each of the M = 2 at 1 - 0.05 / 2.
        for c in r["compared"]:
            self.assertAlmostEqual(c["difference"]["confidence"], 0.975, places=12)

    def test_the_text_report_names_each_outcome_and_what_the_intervals_cover(self):
        out = run(RUNNER, "compare", "--metric", "ttft.mean", BASE, self.more)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("ttft.mean", out.stdout)
        self.assertIn("better", out.stdout)
        self.assertIn("common random numbers", out.stdout)
        self.assertIn("candidate " + self.more + " (scenario two-replicas-poisson)", out.stdout)
        self.assertIn("not the cost model's coefficient uncertainty", out.stdout)

    # Refusal pairs (SIM-9): each refusal beside the closest input that is accepted.
    def test_different_seeds_are_refused_and_the_same_seed_is_not(self):
        other = self.write("seed8.yaml", BASE_TEXT.replace("seed: 7", "seed: 8"))
        out = run(RUNNER, "compare", BASE, other)
        self.assertEqual(out.returncode, 1)
        self.assertIn("seed: the baseline's is 7 and the candidate's 8", out.stderr)
        self.assertIn("common random numbers", out.stderr)
        self.assertEqual(run(RUNNER, "compare", "--metric", "ttft.mean", BASE, self.more).returncode, 0)

    def test_one_pair_is_refused_and_two_are_not(self):
        out = run(RUNNER, "compare", "--replications", "1", "--metric", "ttft.mean", BASE, self.more)
        self.assertEqual(out.returncode, 1)
        self.assertIn("at least 2", out.stderr)
        self.assertEqual(compare("--replications", "2", "--metric", "ttft.mean", BASE, self.more)["pairs"], 2)

    def test_a_margin_for_a_metric_not_compared_is_refused(self):
        out = run(RUNNER, "compare", "--metric", "ttft.mean", "--margin", "e2e.mean=0.1", BASE, self.more)
        self.assertEqual(out.returncode, 1)
        self.assertIn("margin of e2e.mean: the metric is not among those compared", out.stderr)
        self.assertEqual(run(RUNNER, "compare", "--metric", "e2e.mean", "--margin", "e2e.mean=0.1", BASE,
                             self.more).returncode, 0)

    def test_option_refusals_name_the_option(self):
        for args, why in [
            (["--metric", "ttft.p42", BASE, BASE], "'ttft.p42' is not in the metric registry"),
            (["--margin", "ttft.mean", BASE, BASE], "--margin needs ID=VALUE"),
            (["--margin", "ttft.mean=-1", BASE, BASE], "--margin needs ID=VALUE with a value >= 0"),
            (["--confidence", "1", BASE, BASE], "--confidence needs a number in (0, 1)"),
            (["--adjust", "sidak", BASE, BASE], "--adjust needs holm or bonferroni"),
            ([BASE], "needs two scenario files"),
            (["--frobnicate", BASE, BASE], "unknown option '--frobnicate'"),
        ]:
            for prog in (RUNNER, BLIS):
                out = run(prog, "compare", *args)
                self.assertEqual(out.returncode, 2, (prog, args))
                self.assertIn(why, out.stderr, (prog, args))

    def test_help(self):
        out = run(BLIS, "compare", "--help")
        self.assertEqual(out.returncode, 0)
        self.assertIn("usage: blis compare", out.stdout)
        self.assertIn("compare", run(BLIS, "--help").stdout)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
