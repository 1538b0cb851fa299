#!/usr/bin/python3
"""The vLLM oracle runner (X5, issue 10): runs the pinned vLLM's own scheduler, KV-cache manager,
coordinators and block pool, unmodified, from a pinned checkout, on a scenario, and records every decision
per step as a trace. tests/vllm/oracle/replay_test.cpp replays the committed traces against the port.

  runner.py --checkout DIR --out-dir DIR [--update] [--designed] [--random N --seed S] [SCENARIO.json...]

DIR is an export of the pinned commit (engines/vllm/upstream.yaml: git archive of its repository); every module loaded from
it is checked against its pinned blob (manifest.yaml). A trace is never overwritten without --update
(FID-3). The runner re-executes itself with PYTHONHASHSEED=0 so set iteration, and vLLM's NONE_HASH
(kv_cache_utils.init_none_hash reads PYTHONHASHSEED), are the same on every run.

What stands in for the environment (all listed in manifest.yaml's `harness` section):
  - the model runner: every scheduled request whose computed tokens reach its length samples one token
    (gpu_model_runner discards the samples of a partial prefill); the token is the scenario's forced
    output: EOS when the request reaches its output length, otherwise 1000 + the output index;
  - the clock: time.time / time.monotonic / time.perf_counter return the step number;
  - the KV-event transport: a publisher registered with upstream's EventPublisherFactory that keeps each
    batch instead of sending it;
  - configuration: VllmConfig and SamplingParams as resolved values (stubs.py).
"""

from __future__ import annotations

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, ROOT)
from checks.harness.oracle import record  # noqa: E402
from checks.harness.oracle.record import Unfinished  # noqa: E402
TRACE_FORMAT = 2
EOS_TOKEN_ID = 50256  # tests/v1/core/utils.py@6e448d0e EOS_TOKEN_ID



class _Clock:
    now = 0.0


CLOCK = _Clock()


def _install_clock():
    time.time = lambda: CLOCK.now
    time.monotonic = lambda: CLOCK.now
    time.perf_counter = lambda: CLOCK.now
    time.time_ns = lambda: int(CLOCK.now * 1e9)
    time.monotonic_ns = lambda: int(CLOCK.now * 1e9)



class Oracle:
    def __init__(self, checkout: str):
        sys.path.insert(0, ROOT)
        from checks.harness.oracle import loader

        for name in [n for n in os.environ if n.startswith("VLLM_")]:
            del os.environ[name]  # environment: upstream's defaults for every VLLM_* setting
        self.manifest = loader.load_manifest(os.path.join(HERE, "manifest.yaml"))
        sys.path.insert(0, HERE)
        import stubs

        self.finder = loader.install(self.manifest, checkout, stubs.STUBS)
        self.environment = loader.environment_hash(self.manifest, os.path.join(HERE, "stubs.py"))
        self.stubs = stubs
        _install_clock()

        from vllm.distributed import kv_events
        from vllm.v1.core import kv_cache_utils
        from vllm.v1.core.sched import async_scheduler, scheduler
        from vllm.v1.core.single_type_kv_cache_manager import register_all_kvcache_specs
        from vllm.v1 import kv_cache_interface, outputs, request
        from vllm.v1.engine import FinishReason  # noqa: F401
        from vllm.utils.hashing import sha256

        self.kv_events = kv_events
        self.kv_cache_utils = kv_cache_utils
        self.Scheduler = scheduler.Scheduler
        self.AsyncScheduler = async_scheduler.AsyncScheduler
        self.register_all_kvcache_specs = register_all_kvcache_specs
        self.kvi = kv_cache_interface
        self.outputs = outputs
        self.request_mod = request
        self.sha256 = sha256
        kv_cache_utils.init_none_hash(sha256)

        recorded = self.recorded = []

        class RecordingPublisher(kv_events.EventPublisher):
            """Transport: keeps each published batch instead of sending it on a socket."""

            def __init__(self, data_parallel_rank: int = 0, **kwargs):
                self.topic = kwargs.get("topic", "")

            def publish(self, events) -> None:
                recorded.append(events)

            def shutdown(self) -> None:
                return

        if "oracle-record" not in kv_events.EventPublisherFactory._registry:
            kv_events.EventPublisherFactory.register_publisher("oracle-record", RecordingPublisher)

    # tests/v1/core/utils.py@6e448d0e create_scheduler, with the configuration given as resolved values.
    def make_scheduler(self, cfg: dict):
        import types

        stubs = self.stubs
        max_model_len = cfg.get("max_model_len") or cfg["max_num_batched_tokens"]
        async_scheduling = cfg.get("async_scheduling", False)
        scheduler_config = types.SimpleNamespace(
            max_num_seqs=cfg["max_num_seqs"], max_num_batched_tokens=cfg["max_num_batched_tokens"],
            max_num_scheduled_tokens=None, max_model_len=max_model_len,
            long_prefill_token_threshold=cfg.get("long_prefill_token_threshold", 0),
            disable_chunked_mm_input=False, enable_chunked_prefill=cfg.get("enable_chunked_prefill", True),
            async_scheduling=async_scheduling, is_encoder_decoder=False, watermark=cfg.get("watermark", 0.0),
            policy=cfg.get("policy", "fcfs"), scheduler_reserve_full_isl=cfg.get("scheduler_reserve_full_isl", True),
            max_num_partial_prefills=1, max_long_partial_prefills=1)
        cache_config = types.SimpleNamespace(
            block_size=cfg["block_size"], gpu_memory_utilization=0.9, cache_dtype="auto",
            enable_prefix_caching=cfg.get("enable_prefix_caching", False), num_gpu_blocks=cfg["num_blocks"],
            prefix_caching_hash_algo="sha256", mamba_cache_mode="none", kv_offloading_size=None)
        kv_events_config = None
        if cfg.get("kv_events", False):
            kv_events_config = stubs.KVEventsConfig(enable_kv_cache_events=True, publisher="oracle-record")
        pp = 1
        max_concurrent_batches = 2 if async_scheduling else pp  # vllm.py@6e448d0e (V1 model runner, PP 1)
        vllm_config = stubs.VllmConfig(
            scheduler_config=scheduler_config, cache_config=cache_config, lora_config=None,
            kv_events_config=kv_events_config,
            parallel_config=types.SimpleNamespace(data_parallel_index=0, data_parallel_rank=0,
                                                  data_parallel_size=1, pipeline_parallel_size=pp,
                                                  decode_context_parallel_size=1, prefill_context_parallel_size=1),
            observability_config=types.SimpleNamespace(kv_cache_metrics=False, kv_cache_metrics_sample=0.0,
                                                        enable_mfu_metrics=False,
                                                        enable_logging_iteration_details=False),
            model_config=types.SimpleNamespace(is_encoder_decoder=False, is_diffusion=False,
                                               enable_return_routed_experts=False,
                                               max_model_len=max_model_len),
            kv_transfer_config=None, ec_transfer_config=None, speculative_config=None,
            ec_manager_config=types.SimpleNamespace(get_encoder_cache_manager_obj=lambda: None),
            num_speculative_tokens=0, max_concurrent_batches=max_concurrent_batches,
            max_in_flight_tokens=max_concurrent_batches * cfg["max_num_batched_tokens"],
            use_v2_model_runner=False)
        groups = []
        for i, g in enumerate(cfg.get("kv_groups") or [{"kind": "full"}]):
            common = dict(block_size=cfg["block_size"], num_kv_heads=1, head_size=1, dtype=sys.modules["torch"].float32)
            if g["kind"] == "full":
                spec = self.kvi.FullAttentionSpec(**common)
            elif g["kind"] == "sliding_window":
                spec = self.kvi.SlidingWindowSpec(**common, sliding_window=g["sliding_window"])
            elif g["kind"] == "chunked_local":
                spec = self.kvi.ChunkedLocalAttentionSpec(**common, attention_chunk_size=g["attention_chunk_size"])
            else:
                raise ValueError(f"kv_groups[{i}].kind: {g['kind']!r} is not full, sliding_window or chunked_local")
            groups.append(self.kvi.KVCacheGroupSpec([f"layer{i}" if i else "layer"], spec))
        kv_cache_config = self.kvi.KVCacheConfig(num_blocks=cfg["num_blocks"], kv_cache_tensors=[],
                                                 kv_cache_groups=groups)
        self.register_all_kvcache_specs(vllm_config)
        cls = self.AsyncScheduler if async_scheduling else self.Scheduler
        sched = cls(vllm_config=vllm_config, kv_cache_config=kv_cache_config, block_size=cfg["block_size"],
                    log_stats=True, structured_output_manager=stubs.StructuredOutputManager())
        return sched

    def make_request(self, r: dict, block_size: int):
        stubs = self.stubs
        params = stubs.SamplingParams(max_tokens=r["max_tokens"],
                                      eos_token_id=None if r.get("ignore_eos", False) else EOS_TOKEN_ID,
                                      ignore_eos=r.get("ignore_eos", False),
                                      stop_token_ids=list(r.get("stop_token_ids", [])))
        return self.request_mod.Request(
            request_id=r["id"], prompt_token_ids=list(r["prompt"]), sampling_params=params, pooling_params=None,
            arrival_time=float(r.get("arrival_time", r["arrival_step"])), priority=r.get("priority", 0),
            block_hasher=self.kv_cache_utils.get_request_block_hasher(block_size, self.sha256))

    def run(self, scenario: dict) -> dict:
        """Drives the scheduler tick by tick, as core.py@6e448d0e EngineCore.step (one batch in flight) or
        step_with_batch_queue (async scheduling: two) calls it: at each tick the arrivals and aborts of that
        tick, then schedule() when the scheduler has requests, then update_from_output() for the oldest
        batch in flight once the queue is full or nothing new was scheduled. The model runner's output is
        decided when a batch is scheduled (a batch's samples do not depend on later scheduling)."""
        from collections import deque

        cfg = scenario["config"]
        self.recorded.clear()
        self.kv_cache_utils.init_none_hash(self.sha256)  # as each engine's start-up does (same seed: same value)
        sched = self.make_scheduler(cfg)
        resets = {}  # tick -> reset_running_requests, for reset_prefix_cache (the /reset_prefix_cache endpoint)
        for r in scenario.get("resets", []):
            resets[r["step"]] = r.get("reset_running_requests", False)
        depth = 2 if cfg.get("async_scheduling", False) else 1  # vllm.py@6e448d0e max_concurrent_batches
        requests = {r["id"]: r for r in scenario["requests"]}
        steps = []
        max_steps = scenario.get("max_steps", 2000)
        pending = sorted(scenario["requests"], key=lambda r: (r["arrival_step"], scenario["requests"].index(r)))
        aborts = {}
        for r in scenario["requests"]:
            if r.get("abort_step") is not None:
                aborts.setdefault(r["abort_step"], []).append(r["id"])
        queue = deque()  # (tick, scheduler_output, model_runner_output), newest on the left
        step = 0
        while step < max_steps:
            CLOCK.now = float(step)
            record = {"step": step, "arrivals": [], "aborts": []}
            while pending and pending[0]["arrival_step"] <= step:
                r = pending.pop(0)
                sched.add_request(self.make_request(r, cfg["block_size"]))
                record["arrivals"].append(r["id"])
            for rid in aborts.get(step, []):
                record["aborts"].append(rid)
                sched.finish_requests([rid], self.request_mod.RequestStatus.FINISHED_ABORTED)
            if step in resets:
                record["reset"] = [resets[step], sched.reset_prefix_cache(reset_running_requests=resets[step])]
            if not sched.has_requests() and not pending and not queue and not any(t > step for t in resets):
                break
            update = True
            if sched.has_requests():
                out = sched.schedule()
                record["schedule"] = self.schedule_record(out)
                mro = self.model_runner(sched, out, requests, depth > 1)
                record["sampled"] = [[rid, toks] for rid, toks in zip(mro.req_ids, mro.sampled_token_ids)]
                queue.appendleft((step, out, mro))
                update = not (len(queue) < depth and sched.has_requests())
            if update and queue:
                tick, out, mro = queue.pop()
                engine_outputs = sched.update_from_output(out, mro)
                record["update"] = {"of": tick, "outputs": self.outputs_record(engine_outputs),
                                    "stats": self.stats_record(engine_outputs)}
            record["state"] = self.state_record(sched)
            events = []
            for batch in self.recorded:
                events.extend(self.event_record(e) for e in batch.events)
            self.recorded.clear()
            if cfg.get("kv_events", False):
                record["kv_events"] = events
            steps.append(record)
            step += 1
        else:
            raise Unfinished(f"scenario {scenario['name']} did not finish in {max_steps} steps")
        return {"steps": steps}

    def model_runner(self, sched, out, requests, is_async):
        """The model runner's stand-in (gpu kind): who samples, and the forced output tokens. A request whose
        scheduled tokens leave it mid-prefill (is_prefill_chunk) samples nothing (gpu_model_runner discards the
        sample); any other samples one token: its output index k counts the outputs still in flight
        (async placeholders, this step's included), and the token is EOS once k + 1 reaches the scenario's
        output length (unless ignore_eos), else 1000 + k."""
        req_ids, sampled = [], []
        for rid in out.num_scheduled_tokens:
            req = sched.requests[rid]
            req_ids.append(rid)
            if req.is_prefill_chunk:
                sampled.append([])
                continue
            k = req.num_output_tokens + req.num_output_placeholders - (1 if is_async else 0)
            spec = requests[rid]
            sampled.append([EOS_TOKEN_ID if k + 1 >= spec["output_len"] and not spec.get("ignore_eos", False)
                            else 1000 + k])
        return self.outputs.ModelRunnerOutput(req_ids=req_ids, req_id_to_index={r: i for i, r in enumerate(req_ids)},
                                              sampled_token_ids=sampled)

    @staticmethod
    def schedule_record(out) -> dict:
        cached = out.scheduled_cached_reqs
        return {
            "num_scheduled_tokens": [[k, v] for k, v in out.num_scheduled_tokens.items()],
            "total_num_scheduled_tokens": out.total_num_scheduled_tokens,
            "new_reqs": [[r.req_id, r.num_computed_tokens, [list(g) for g in r.block_ids]]
                         for r in out.scheduled_new_reqs],
            "cached_reqs": [[rid, rid in cached.resumed_req_ids, cached.num_computed_tokens[i],
                             None if cached.new_block_ids[i] is None else [list(g) for g in cached.new_block_ids[i]]]
                            for i, rid in enumerate(cached.req_ids)],
            "num_common_prefix_blocks": list(out.num_common_prefix_blocks),
            "finished_req_ids": sorted(out.finished_req_ids),
            "preempted_req_ids": sorted(out.preempted_req_ids or ()),
        }

    @staticmethod
    def outputs_record(engine_outputs) -> list:
        rows = []
        for client in sorted(engine_outputs):
            for o in engine_outputs[client].outputs:
                reason = None if o.finish_reason is None else str(o.finish_reason)
                rows.append([o.request_id, list(o.new_token_ids), reason,
                             None if o.stop_reason is None else o.stop_reason])
        return rows

    @staticmethod
    def stats_record(engine_outputs):
        """The SchedulerStats update_from_output made (log_stats): the gauges llm-d scrapes and the prefix-cache
        counts since the previous step (requests and the preempted_* counts are not compared: not ported)."""
        for client in sorted(engine_outputs):
            st = engine_outputs[client].scheduler_stats
            if st is not None:
                pcs = st.prefix_cache_stats
                return [st.num_running_reqs, st.num_waiting_reqs, st.num_skipped_waiting_reqs, st.kv_cache_usage,
                        pcs.queries, pcs.hits]
        return None

    @staticmethod
    def state_record(sched) -> dict:
        return {
            "running": [r.request_id for r in sched.running],
            "waiting": [r.request_id for r in sched.waiting],
            "num_free_blocks": sched.kv_cache_manager.block_pool.get_num_free_blocks(),
            "has_requests": sched.has_requests(),
            "request_counts": list(sched.get_request_counts()),
            "kv_cache_usage": sched.get_kv_cache_usage(),
        }

    @staticmethod
    def event_record(e) -> list:
        name = type(e).__name__
        if name == "BlockStored":
            return [name, [h.hex() if isinstance(h, bytes) else h for h in e.block_hashes],
                    None if e.parent_block_hash is None else (e.parent_block_hash.hex() if isinstance(
                        e.parent_block_hash, bytes) else e.parent_block_hash), list(e.token_ids), e.block_size]
        if name == "BlockRemoved":
            return [name, [h.hex() if isinstance(h, bytes) else h for h in e.block_hashes]]
        return [name]


def main(argv=None) -> int:
    return record.main(make_oracle=Oracle, engine="vllm", here=HERE, doc=__doc__, trace_format=TRACE_FORMAT,
                       checkout_help="an export of vLLM at the pinned commit", argv=argv)


if __name__ == "__main__":
    sys.exit(main())
