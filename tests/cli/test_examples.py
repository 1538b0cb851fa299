"""The files under examples/ as a user meets them: every one is a document `blis schema validate` accepts (a
scenario file only when its Scenario names its Deployment, as `blis run` requires), the README's first command
(the main job: a simulation of the main example on the embedded catalog and registry) runs and prints its
figures, here with two replications instead of the frame's rule, and the SGLang example -- SGLang pools behind
the llm-d router port -- runs one replication to the end.

usage: test_examples.py BLIS SRC_ROOT
"""
import os
import re
import shlex
import subprocess
import sys
import unittest

BLIS, ROOT = sys.argv[1], sys.argv[2]


def examples():
    out = []
    for base, _, files in os.walk(os.path.join(ROOT, "examples")):
        out += [os.path.join(base, f) for f in sorted(files) if f.endswith((".yaml", ".yml"))]
    return sorted(out)


def readme_main_command():
    """The `build/blis ...` part of the README's first command (the first line of its first sh block)."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    if not block:
        raise AssertionError("README.md has no sh block")
    first = block.group(1).splitlines()[0]
    runs = [part.strip() for part in first.split("&&") if part.strip().startswith("build/blis ")]
    if len(runs) != 1:
        raise AssertionError("the README's first command runs no build/blis command: " + first)
    return shlex.split(runs[0])[1:]


class Examples(unittest.TestCase):
    def test_there_are_examples(self):
        self.assertGreaterEqual(len(examples()), 2)

    def test_every_example_validates(self):
        for path in examples():
            out = subprocess.run([BLIS, "schema", "validate", path], capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, path + "\n" + out.stdout + out.stderr)

    def test_the_readme_main_command_runs_its_example(self):
        args = readme_main_command()
        self.assertEqual(args[0], "run")
        scenario = args[-1]
        self.assertTrue(os.path.isfile(os.path.join(ROOT, scenario)), scenario)
        out = subprocess.run([BLIS, *args[:-1], "--replications", "2", scenario], capture_output=True, text=True,
                             cwd=ROOT)
        self.assertEqual(out.returncode, 0, out.stderr)
        # A summary with a measured TTFT and an interval from the two replications.
        row = [l for l in out.stdout.splitlines() if l.startswith("ttft.mean ")]
        self.assertEqual(len(row), 1, out.stdout)
        value, low, high = (float(x) for x in row[0].split()[1:4])
        self.assertGreater(value, 0.0)
        self.assertLessEqual(low, value)
        self.assertLessEqual(value, high)
        self.assertIn("2 replication(s)", out.stderr)

    def test_the_sglang_example_runs_behind_the_router(self):
        scenario = os.path.join("examples", "sglang-llama-3.1-8b-h100.yaml")
        with open(os.path.join(ROOT, scenario), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("kind: sglang", text)
        self.assertIn("router:", text)
        out = subprocess.run([BLIS, "run", "--replications", "1", "--summary", scenario], capture_output=True,
                             text=True, cwd=ROOT)
        self.assertEqual(out.returncode, 0, out.stderr)
        # Every request's fate is counted, and the counts add up to those generated (DEV-9).
        fates = re.search(r"(\d+) requests: (\d+) completed, (\d+) timed out, (\d+) unfinished, (\d+) dropped, "
                          r"(\d+) never sent", out.stderr)
        self.assertIsNotNone(fates, out.stderr)
        generated, completed, *rest = (int(x) for x in fates.groups())
        self.assertGreater(completed, 0)
        self.assertEqual(generated, completed + sum(rest), out.stderr)
        self.assertIn(fates.group(0), out.stdout)  # the summary states the same line
        row = [l for l in out.stdout.splitlines() if l.startswith("ttft.mean ")]
        self.assertEqual(len(row), 1, out.stdout)
        self.assertGreater(float(row[0].split()[1]), 0.0)

    def test_a_tensor_parallel_deployment_counts_every_accelerator_and_must_fit_the_cluster(self):
        # The main example with tensor-parallel-size 2: four instances occupy eight H100s, so per-accelerator
        # throughput is the cluster's over 8 (it was over 4, one per instance, before instances counted their
        # ranks). A fifth replica needs ten of the cluster's eight and is refused; four fit.
        import json
        import tempfile
        with open(os.path.join(ROOT, "examples", "llama-3.1-8b-h100.yaml"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("tensor-parallel-size: 1", text)
        self.assertIn("replicas: 4", text)
        tp2 = text.replace("tensor-parallel-size: 1", "tensor-parallel-size: 2")
        with tempfile.TemporaryDirectory() as tmp:
            fits, over = os.path.join(tmp, "tp2.yaml"), os.path.join(tmp, "tp2-five.yaml")
            with open(fits, "w", encoding="utf-8") as f:
                f.write(tp2)
            with open(over, "w", encoding="utf-8") as f:
                f.write(tp2.replace("replicas: 4", "replicas: 5"))
            out = subprocess.run([BLIS, "run", "--replications", "1", over], capture_output=True, text=True, cwd=ROOT)
            self.assertNotEqual(out.returncode, 0, out.stdout)
            self.assertIn("the instances occupy 10 accelerators", out.stderr)
            self.assertIn("more than the cluster's 8 (cluster.nodes x cluster.gpus_per_node)", out.stderr)
            out = subprocess.run([BLIS, "run", "--replications", "1", fits], capture_output=True, text=True, cwd=ROOT)
            self.assertEqual(out.returncode, 0, out.stderr)
        figures = {f["metric"]: f["value"] for f in json.loads(out.stdout)["metrics"]
                   if f["scope"]["level"] == "cluster" and "aggregate" not in f}
        total = figures["throughput.output_tokens_per_s"]
        self.assertGreater(total, 0.0)
        self.assertAlmostEqual(figures["throughput.output_tokens_per_s_per_accelerator"], total / 8, delta=total * 1e-12)

    def test_instances_are_placed_on_several_nodes_and_placement_changes_no_figure(self):
        # The main example at tensor-parallel-size 2 on two nodes of four H100s (an InfiniBand fabric, one
        # leaf): the four instances are placed two per node, the summary says where, and every figure equals
        # the same deployment's on one node of eight (no instance spans nodes, so no price moves).
        import json
        import tempfile
        with open(os.path.join(ROOT, "examples", "llama-3.1-8b-h100.yaml"), encoding="utf-8") as f:
            text = f.read()
        one_node = "cluster: {chip: H100-SXM, nodes: 1, gpus_per_node: 8}"
        self.assertIn(one_node, text)
        self.assertIn("stop: {requests: 120}", text)
        text = text.replace("tensor-parallel-size: 1", "tensor-parallel-size: 2").replace(
            "stop: {requests: 120}", "stop: {requests: 40}")
        two_nodes = text.replace(one_node, "cluster: {chip: H100-SXM, nodes: 2, gpus_per_node: 4, fabric: "
                                 "InfiniBand-NDR, switch_groups: [{name: leaf, nodes: [0, 1], uplink_oversubscription: 1}]}")
        figures = {}
        with tempfile.TemporaryDirectory() as tmp:
            for name, body in (("one", text), ("two", two_nodes)):
                path = os.path.join(tmp, name + ".yaml")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(body)
                out = subprocess.run([BLIS, "run", "--replications", "1", path], capture_output=True, text=True, cwd=ROOT)
                self.assertEqual(out.returncode, 0, out.stderr)
                figures[name] = json.loads(out.stdout)["metrics"]
                if name == "two":
                    self.assertIn("blis run: placement: node 0: serve/0 (0-1), serve/1 (2-3); node 1: serve/2 (0-1), "
                                  "serve/3 (2-3)\n", out.stderr)
                else:
                    self.assertNotIn("placement:", out.stderr)
        self.assertGreater(len(figures["one"]), 10)
        self.assertEqual(figures["one"], figures["two"])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
