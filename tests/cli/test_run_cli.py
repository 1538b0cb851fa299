"""`blis run`, `blis replay` and `blis metrics` as a user runs them, on the production binary (which has no
engine port yet) and on the conformance runner (the same command code with the conformance doubles).

usage: test_run_cli.py BLIS CONFORMANCE_RUNNER SRC_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

BLIS, RUNNER, ROOT = sys.argv[1], sys.argv[2], sys.argv[3]
with open(os.path.join(ROOT, "versions.yaml"), encoding="utf-8") as _f:
    # The vLLM release this build ports, as versions.yaml pins it (X23: the one place it is written).
    _lines = _f.readlines()
    VLLM_RELEASE = [l.split("release:")[1].split(",")[0].strip().strip('"') for l in _lines if l.strip().startswith("vllm:")][0]
    SGLANG_RELEASE = [l.split("release:")[1].split(",")[0].strip().strip('"') for l in _lines if l.strip().startswith("sglang:")][0]
GOLDEN = os.path.join(ROOT, "tests", "golden", "scenarios")


def run(prog, *args):
    return subprocess.run([prog, *args], capture_output=True, text=True)


def result_without_build(text):
    r = json.loads(text)
    del r["build"]
    return r


class Metrics(unittest.TestCase):
    def test_prints_the_registry_document(self):
        out = run(BLIS, "metrics")
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(os.path.join(ROOT, "src", "sim", "metrics", "registry.yaml"), encoding="utf-8") as f:
            self.assertEqual(out.stdout, f.read())

    def test_json_lists_each_metric_once(self):
        doc = json.loads(run(BLIS, "metrics", "--json").stdout)
        ids = [m["id"] for m in doc["metrics"]]
        self.assertEqual(len(ids), len(set(ids)))
        for must in ("ttft.p99", "tpot.mean", "itl.p50", "e2e.p90", "throughput.output_tokens_per_s"):
            self.assertIn(must, ids)

    def test_an_unknown_option_is_refused(self):
        self.assertEqual(run(BLIS, "metrics", "--yaml").returncode, 2)


class ProductionRun(unittest.TestCase):
    VLLM = os.path.join(ROOT, "tests", "vllm", "scenarios", "tiny.yaml")

    def scenario(self, tmp, text):
        path = os.path.join(tmp, "s.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_an_engine_kind_this_build_lacks_is_refused_by_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(GOLDEN, "two-replicas-poisson.yaml"), encoding="utf-8") as f:
                text = f.read().replace("kind: reference\n      version: \"1\"", "kind: trtllm\n      version: \"1.0\"")
            out = run(BLIS, "run", self.scenario(tmp, text))
            self.assertEqual(out.returncode, 1)
            self.assertIn("no engine of kind 'trtllm' is registered (registered: sglang %s, vllm %s)"
                          % (SGLANG_RELEASE, VLLM_RELEASE), out.stderr)
            self.assertEqual(out.stdout, "")

    def test_a_vllm_run_and_its_summary(self):
        """SIM-1: the registered vllm port runs a real simulation; --summary prints the same figures."""
        full = run(BLIS, "run", self.VLLM)
        self.assertEqual(full.returncode, 0, full.stderr)
        result = json.loads(full.stdout)
        self.assertGreater(result["fates"]["completed"], 0)
        ttft = [m for m in result["metrics"] if m["metric"] == "ttft.mean" and m["scope"]["level"] == "cluster"][0]
        self.assertGreater(ttft["value"], 0)
        short = run(BLIS, "run", "--summary", self.VLLM)
        self.assertEqual(short.returncode, 0, short.stderr)
        self.assertIn("ttft.mean", short.stdout)
        self.assertIn("%.6g" % ttft["value"], short.stdout)
        self.assertNotIn("{", short.stdout)

    def test_another_vllm_release_is_refused_naming_the_one_this_build_runs(self):
        """SIM-1 / LIF-6: the pair: 0.27.1 runs (above); 0.26.0 is refused with the release this build runs."""
        with tempfile.TemporaryDirectory() as tmp:
            with open(self.VLLM, encoding="utf-8") as f:
                text = f.read().replace('version: "%s"' % VLLM_RELEASE, 'version: "0.26.0"')
            out = run(BLIS, "run", self.scenario(tmp, text))
            self.assertEqual(out.returncode, 1)
            self.assertIn("0.26.0", out.stderr)
            self.assertIn(VLLM_RELEASE, out.stderr)

    def test_two_instances_run_behind_the_llm_d_router_the_same_bytes_twice(self):
        """Issue 8: several instances are routed by the llm-d port (its default configuration); a run's
        routing draws come from named streams, so the same scenario gives the same Result bytes."""
        with tempfile.TemporaryDirectory() as tmp:
            with open(self.VLLM, encoding="utf-8") as f:
                text = f.read().replace("replicas: 1", "replicas: 2")
            path = self.scenario(tmp, text)
            first = run(BLIS, "run", "--replications", "1", path)
            self.assertEqual(first.returncode, 0, first.stderr)
            second = run(BLIS, "run", "--replications", "1", path)
            self.assertEqual(first.stdout, second.stdout)
            self.assertEqual(json.loads(first.stdout)["fates"]["completed"], 24)

    ROUTER_CONFIG = ("router:\n  config: |\n    apiVersion: llm-d.ai/v1alpha1\n    kind: EndpointPickerConfig\n"
                     "    plugins:\n    - type: {scorer}\n    - type: random-picker\n    schedulingProfiles:\n"
                     "    - name: default\n      plugins:\n      - pluginRef: {scorer}\n      - pluginRef: random-picker\n")

    def run_router(self, tmp, router_block, *extra):
        with open(self.VLLM, encoding="utf-8") as f:
            text = f.read().replace("replicas: 1", "replicas: 2").replace("router: {}", router_block)
        return run(BLIS, "run", "--replications", "1", *extra, self.scenario(tmp, text))

    def test_an_unknown_plugin_type_is_refused_with_llm_ds_message_and_a_registered_one_runs(self):
        """SIM-9 pair (issue 8): an EndpointPickerConfig naming a type llm-d never registers is refused before the
        run with llm-d's own message; the same configuration with a registered scorer runs."""
        with tempfile.TemporaryDirectory() as tmp:
            bad = self.run_router(tmp, self.ROUTER_CONFIG.format(scorer="no-such-scorer"))
            self.assertEqual(bad.returncode, 1)
            self.assertIn("router.config", bad.stderr)
            self.assertIn("plugin type 'no-such-scorer' is not registered", bad.stderr)
            good = self.run_router(tmp, self.ROUTER_CONFIG.format(scorer="queue-scorer"))
            self.assertEqual(good.returncode, 0, good.stderr)
            self.assertEqual(json.loads(good.stdout)["fates"]["completed"], 24)

    def test_a_registered_but_refused_plugin_type_is_refused_by_name(self):
        """RTR-4: a type llm-d registers that this port does not model is refused before the run, by name."""
        with tempfile.TemporaryDirectory() as tmp:
            out = self.run_router(tmp, self.ROUTER_CONFIG.format(scorer="latency-scorer"))
            self.assertEqual(out.returncode, 1)
            self.assertIn("(type: 'latency-scorer') is not modelled by this port", out.stderr)

    def test_router_flags_unknown_refused_decision_flag_applied_serving_flag_warned(self):
        """SIM-9 pair for flags: an unknown flag is refused by name; --refresh-metrics-interval sets the scrape
        interval the run reports; a serving-only flag runs with a warning naming it."""
        with tempfile.TemporaryDirectory() as tmp:
            bad = self.run_router(tmp, "router:\n  flags: {no-such-flag: '1'}\n")
            self.assertEqual(bad.returncode, 1)
            self.assertIn("router.flags.no-such-flag", bad.stderr)
            good = self.run_router(tmp, "router:\n  flags: {refresh-metrics-interval: 100ms, v: '2'}\n")
            self.assertEqual(good.returncode, 0, good.stderr)
            result = json.loads(good.stdout)
            scrape = [s for s in result["settings"] if s["name"] == "scrape_interval_us"]
            self.assertEqual(scrape[0]["value"], 100000)
            self.assertEqual(scrape[0]["source"], "stated")
            self.assertTrue(any(w["code"] == "router-configuration" and "router.flags.v" in w["message"]
                                for w in result["warnings"]), result["warnings"])

    def test_the_precise_prefix_scorer_reads_the_engines_kv_events(self):
        """Issue 8: vLLM instances publishing KV events (--kv-events-config) feed llm-d's precise prefix-cache
        scorer through the simulator; with the events disabled the scorer sees no cache and the shared prefixes
        are found less often. The same run is the same bytes."""
        path = os.path.join(ROOT, "tests", "router", "scenarios", "precise-prefix.yaml")

        def hit_ratio(text_or_path, tmp=None):
            target = text_or_path if tmp is None else self.scenario(tmp, text_or_path)
            out = run(BLIS, "run", "--replications", "1", target)
            self.assertEqual(out.returncode, 0, out.stderr)
            figures = [f for f in json.loads(out.stdout)["metrics"]
                       if f["metric"] == "prefix_cache.hit_ratio" and f["scope"]["level"] == "cluster"]
            return figures[0]["value"], out.stdout

        on, first = hit_ratio(path)
        _, again = hit_ratio(path)
        self.assertEqual(first, again)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with tempfile.TemporaryDirectory() as tmp:
            off, _ = hit_ratio(text.replace("enable_kv_cache_events: true", "enable_kv_cache_events: false"), tmp)
        self.assertGreater(on, off + 0.05, (on, off))

    def test_a_kv_event_topic_naming_a_model_is_refused(self):
        """SIM-9 pair: the precise scorer's model key comes from the topic; the simulated requests name no model,
        so a topic naming one is refused with the reason (the scenario's own topic, naming none, runs above)."""
        with open(os.path.join(ROOT, "tests", "router", "scenarios", "precise-prefix.yaml"), encoding="utf-8") as f:
            text = f.read().replace('topic: "kv@serve@"', 'topic: "kv@serve@llama"')
        with tempfile.TemporaryDirectory() as tmp:
            out = run(BLIS, "run", "--replications", "1", self.scenario(tmp, text))
            self.assertEqual(out.returncode, 1)
            self.assertIn("names the model 'llama'", out.stderr)

    def test_a_vllm_argument_vllm_does_not_know_is_refused_by_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(self.VLLM, encoding="utf-8") as f:
                text = f.read().replace("max-num-seqs: 16", "max-num-seq: 16")
            out = run(BLIS, "run", self.scenario(tmp, text))
            self.assertEqual(out.returncode, 1)
            self.assertIn("unrecognized arguments: --max-num-seq", out.stderr)

    def test_usage_errors_exit_2(self):
        self.assertEqual(run(BLIS, "run").returncode, 2)
        out = run(BLIS, "run", "--replications", "0", "x.yaml")
        self.assertEqual(out.returncode, 2)
        self.assertIn("--replications: '0' is not a positive integer", out.stderr)
        out = run(BLIS, "run", "--replications", "1.5", "x.yaml")
        self.assertIn("--replications: '1.5' is not a positive integer", out.stderr)
        out = run(BLIS, "run", "--replications")
        self.assertEqual(out.returncode, 2)
        self.assertIn("--replications needs a value: a positive integer", out.stderr)
        self.assertEqual(run(BLIS, "run", "--colour", "x.yaml").returncode, 2)

    def test_a_missing_scenario_file_is_named(self):
        out = run(BLIS, "run", "/nonexistent/s.yaml")
        self.assertEqual(out.returncode, 1)
        self.assertIn("/nonexistent/s.yaml: cannot be read", out.stderr)


class Options(unittest.TestCase):
    """SIM-10: every option that can change a byte of the Result is recorded in its inputs."""

    scenario = os.path.join(GOLDEN, "same-instant-constant.yaml")

    def test_replications_change_bytes_and_are_recorded(self):
        a = run(RUNNER, self.scenario)
        b = run(RUNNER, "--replications", "2", self.scenario)
        self.assertEqual(a.returncode, 0, a.stderr)
        self.assertEqual(b.returncode, 0, b.stderr)
        ra, rb = result_without_build(a.stdout), result_without_build(b.stdout)
        self.assertEqual(ra["inputs"], [])
        self.assertEqual(rb["inputs"], [{"option": "replications", "via": "flag", "value": "2"}])
        del ra["inputs"], rb["inputs"]
        self.assertNotEqual(ra, rb)

    def test_threads_change_no_byte_and_are_not_recorded(self):
        a = run(RUNNER, self.scenario)
        b = run(RUNNER, "--threads", "2", self.scenario)
        self.assertEqual(result_without_build(a.stdout), result_without_build(b.stdout))

    def test_a_trace_records_one_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = run(RUNNER, "--trace-out", os.path.join(tmp, "t"), self.scenario)
            self.assertEqual(out.returncode, 1)
            self.assertIn("--trace-out: a trace records one run; give --replications 1", out.stderr)
            out = run(RUNNER, "--replications", "1", "--trace-out", os.path.join(tmp, "t"), self.scenario)
            self.assertEqual(out.returncode, 0, out.stderr)
            replay = run(RUNNER, "replay", "--replications", "2", self.scenario, os.path.join(tmp, "t"))
            self.assertEqual(replay.returncode, 1)
            self.assertIn("a replay without resampling has no random input", replay.stderr)
            replay = run(RUNNER, "replay", self.scenario, os.path.join(tmp, "t"))
            self.assertEqual(replay.returncode, 0, replay.stderr)
            r = json.loads(replay.stdout)
            self.assertEqual(r["frame"]["generator"], "replay")
            self.assertEqual(r["frame"]["replications"]["stopped_by"], "single_run")
            self.assertIn({"option": "trace", "via": "flag", "value": os.path.join(tmp, "t")}, r["inputs"])
            self.assertTrue(all("interval" not in m for m in r["metrics"]))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
