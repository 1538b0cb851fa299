#!/usr/bin/python3
"""The SGLang oracle runner (X5, SGL-1, issue 10): runs the pinned SGLang's own Scheduler methods
(get_next_batch_to_run, get_new_batch_prefill, update_running_batch, handle_generate_request,
abort_request, process_batch_result), PrefillAdder, SchedulePolicy, RadixCache, allocators, ReqToTokenPool
and ScheduleBatch, unmodified, from a pinned checkout, on a scenario, and records every decision per step
as a trace. tests/sglang/oracle/replay.cpp replays the committed traces against the port.

  runner.py --checkout DIR --out-dir DIR [--update] [--designed] [--random N --seed S] [SCENARIO.json...]

DIR is an export of the pinned commit (engines/sglang/upstream.yaml); every module loaded from it is checked
against its pinned blob (manifest.yaml). A trace is never overwritten without --update (FID-3). The runner
re-executes itself with PYTHONHASHSEED=0 and runs under Debian's /usr/bin/python3 with python3-numpy and
python3-yaml (the torch stand-in is numpy-backed).

The Scheduler object is made with object.__new__ and given the attributes its methods read, as resolved
values (manifest harness: Oracle.make_scheduler); its pools, radix cache and policy are upstream's own
classes built as Scheduler.__init__ builds them. The event loop is event_loop_normal's body, one iteration
per step (the runner's own loop: manifest harness).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
TRACE_FORMAT = 1
EOS_TOKEN_ID = 2


class Unfinished(RuntimeError):
    pass


class _Clock:
    now = 0.0


CLOCK = _Clock()


def _install_clock():
    time.time = lambda: CLOCK.now
    time.monotonic = lambda: CLOCK.now
    time.perf_counter = lambda: CLOCK.now
    time.time_ns = lambda: int(CLOCK.now * 1e9)
    time.monotonic_ns = lambda: int(CLOCK.now * 1e9)
    time.perf_counter_ns = lambda: int(CLOCK.now * 1e9)


def _reexec_with_hash_seed():
    if os.environ.get("PYTHONHASHSEED") != "0":
        env = dict(os.environ)
        env["PYTHONHASHSEED"] = "0"
        os.execve(sys.executable, [sys.executable] + sys.argv, env)


def scenario_hash(scenario: dict) -> str:
    return hashlib.sha256(json.dumps(scenario, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Oracle:
    def __init__(self, checkout: str):
        sys.path.insert(0, ROOT)
        from checks.harness.oracle import loader

        for name in [n for n in os.environ if n.startswith("SGLANG_") or n.startswith("SGL_")]:
            del os.environ[name]  # environment: upstream's defaults for every SGLANG_* setting
        self.manifest = loader.load_manifest(os.path.join(HERE, "manifest.yaml"))
        sys.path.insert(0, HERE)
        import stubs

        self.finder = loader.install(self.manifest, checkout, stubs.STUBS)
        self.environment = loader.environment_hash(self.manifest, os.path.join(HERE, "stubs.py"))
        self.stubs = stubs
        _install_clock()

        import torch
        from sglang.srt.managers import schedule_batch, schedule_policy, scheduler
        from sglang.srt.mem_cache import cache_init_params, memory_pool, radix_cache
        from sglang.srt.mem_cache.allocator import paged, token
        from sglang.srt.managers.scheduler_components import new_token_ratio_tracker
        from sglang.srt.sampling import sampling_params

        self.torch = torch
        self.scheduler_mod = scheduler
        self.schedule_batch = schedule_batch
        self.schedule_policy = schedule_policy
        self.cache_init_params = cache_init_params
        self.memory_pool = memory_pool
        self.radix_cache = radix_cache
        self.paged = paged
        self.token = token
        self.ntr = new_token_ratio_tracker
        self.sampling_params = sampling_params
        from sglang.srt.disaggregation.utils import DisaggregationMode

        self.DisaggregationMode = DisaggregationMode
        from sglang.srt.managers.utils import GenerationBatchResult

        self.GenerationBatchResult = GenerationBatchResult

    # --- construction: Scheduler.__init__'s parts for the modelled configuration, as resolved values.
    def configure(self, cfg: dict):
        """Fills the runtime context's config bags (stubs.CONTEXT) with the scenario's resolved values."""
        c = self.stubs.CONTEXT
        for bag in c.values():
            bag.__dict__.clear()
        chunked = cfg.get("chunked_prefill_size", -1)
        ns = types.SimpleNamespace
        # server_args.py's defaults for every value the driven methods read, overridden by the scenario.
        c["schedule"].__dict__.update(
            chunked_prefill_size=chunked if chunked and chunked > 0 else None,
            enable_mixed_chunk=cfg.get("enable_mixed_chunk", False), enable_dynamic_chunking=False,
            disable_priority_preemption=cfg.get("disable_priority_preemption", False), enable_prefill_delayer=False,
            schedule_conservativeness=1.0, max_prefill_tokens=cfg["max_prefill_tokens"],
            priority_scheduling_preemption_threshold=cfg.get("priority_scheduling_preemption_threshold", 10),
            max_queued_requests=None, prefill_max_requests=None, schedule_policy=cfg["schedule_policy"],
            disable_overlap_schedule=True, page_size=cfg["page_size"],
            max_running_requests=cfg["max_running_requests"], prefill_only_disable_kv_cache=False,
            min_free_slots_delay=None)
        c["parallel"].__dict__.update(
            pp_max_micro_batch_size=cfg["max_running_requests"], pp_size=1, tp_size=1, tp_rank=0, attn_tp_size=1,
            attn_dp_size=1, attn_cp_size=1, dp_size=1, attn_tp_rank=0, attn_dcp_size=1, dcp_enabled=False,
            enable_dp_attention=False, ep_size=1, max_ep_size=1, nnodes=1)
        c["disagg"].__dict__.update(
            disaggregation_mode="null", disaggregation_bootstrap_port=8998,
            disaggregation_decode_enable_offload_kvcache=False, disaggregation_decode_enable_radix_cache=False,
            disaggregation_decode_retraction_backup=False, disaggregation_decode_extra_slots=0,
            num_reserved_decode_tokens=512, enable_pdmux=False, language_only=False)
        c["serving"].__dict__.update(allow_auto_truncate=False, strip_thinking_cache=False, reasoning_parser=None,
                                     skip_tokenizer_init=True)
        c["spec"].__dict__.update(speculative_algorithm=None, speculative_num_draft_tokens=None,
                                  speculative_eagle_topk=None, speculative_skip_dp_mlp_sync=False)
        c["memory"].__dict__.update(
            enable_hisparse=False, disable_radix_cache=cfg.get("disable_radix_cache", False), enable_flexkv=False,
            enable_lmcache=False, enable_page_major_kv_layout=False, enable_session_radix_cache=False,
            enable_unified_memory=False, radix_eviction_policy=cfg.get("radix_eviction_policy", "lru"))
        c["exec"].__dict__.update(
            moe=ns(elastic_ep_backend=None, ep_join_mode=None), mamba=ns(mamba_track_interval=256),
            deterministic=ns(enable_deterministic_inference=False), dllm=ns(dllm_algorithm=None),
            features=ns(enable_memory_saver=False), kernel=ns(attention_backend="triton", sampling_backend="pytorch"))
        c["observability"].__dict__.update(enable_metrics=False, enable_metrics_for_all_schedulers=False,
                                           kv_events_config=None)
        c["device"].__dict__.update(mlx_enable_sampling=False, sleep_on_idle=False)
        c["lora"].__dict__.update(max_loras_per_batch=8)
        c["mm"].__dict__.update(enable_broadcast_mm_inputs_process=False)

    def make_scheduler(self, cfg: dict):
        torch = self.torch
        self.configure(cfg)
        Scheduler = self.scheduler_mod.Scheduler
        s = object.__new__(Scheduler)
        page_size = cfg["page_size"]
        size = cfg["max_total_num_tokens"]
        s.page_size = page_size
        s.max_total_num_tokens = size
        s.max_running_requests = cfg["max_running_requests"]
        s.req_to_token_pool = self.memory_pool.ReqToTokenPool(
            size=cfg["max_running_requests"], max_context_len=cfg["context_len"] + 4, device="cpu",
            enable_memory_saver=False)
        if page_size == 1:
            s.token_to_kv_pool_allocator = self.token.TokenToKVPoolAllocator(
                size, dtype=torch.bfloat16, device="cpu", kvcache=None, need_sort=False)
        else:
            s.token_to_kv_pool_allocator = self.paged.PagedTokenToKVPoolAllocator(
                size, page_size, dtype=torch.bfloat16, device="cpu", kvcache=None, need_sort=False)
        params = self.cache_init_params.CacheInitParams(
            disable=cfg.get("disable_radix_cache", False), req_to_token_pool=s.req_to_token_pool,
            token_to_kv_pool_allocator=s.token_to_kv_pool_allocator, page_size=page_size,
            eviction_policy=cfg.get("radix_eviction_policy", "lru"))
        s.tree_cache = self.radix_cache.RadixCache(params)
        s.schedule_policy = cfg["schedule_policy"]
        s.enable_priority_scheduling = cfg.get("enable_priority_scheduling", False)
        s.schedule_low_priority_values_first = False
        s.enable_hierarchical_cache = False
        s.policy = self.schedule_policy.SchedulePolicy(
            s.schedule_policy, s.tree_cache, False, s.enable_priority_scheduling, False)
        return self.attach_environment(s, cfg)

    # --- the environment around the scheduler's methods (manifest harness).
    def attach_environment(self, s, cfg: dict):
        """What Scheduler.__init__ sets that the driven methods read, as resolved values for one rank, no
        disaggregation, no speculative decoding, no dLLM, no LoRA, no hierarchical cache, no grammar, no
        sessions, the prefill delayer off, the normal (non-overlap) loop."""
        oracle = self
        ns = types.SimpleNamespace
        from sglang.srt.speculative.spec_info import SpeculativeAlgorithm

        s.spec_algorithm = SpeculativeAlgorithm.NONE
        s.server_args = ns(schedule_low_priority_values_first=False, retraction_policy="length",
                           disaggregation_mode="null")
        s.enable_overlap = False
        # Scheduler.__init__'s scalar settings (server_args defaults unless the scenario sets them).
        s.abort_on_priority_when_disabled = False
        s.priority_scheduling_preemption_threshold = cfg.get("priority_scheduling_preemption_threshold", 10)
        s.enable_lora_overlap_loading = False
        s.max_loras_per_batch = 8
        s.enable_pdmux = False
        s.skip_tokenizer_init = True
        s.stream_interval = 1
        s.enable_decode_hicache = False
        s.enable_dp_attention = False
        s.enable_unified_memory = False
        s.max_queued_requests = None
        s.is_hybrid_swa = False
        s.is_hybrid_ssm = False
        s.sliding_window_size = None
        s.disable_radix_cache = cfg.get("disable_radix_cache", False)
        s.decode_offload_manager = None
        s.hisparse_coordinator = None
        s.draft_worker = None
        s.min_free_slots_delayer = None
        s.enable_overlap_mlx = False
        s.is_generation = True
        s.disaggregation_mode = self.DisaggregationMode.NULL
        s.dllm_config = None
        s.enable_hisparse = False
        s.enable_hicache_storage = False
        s.enable_fpm = False
        s.enable_lora = False
        s.enable_session_radix_cache = False
        s.enable_priority_preemption = s.enable_priority_scheduling and not cfg.get("disable_priority_preemption", False)
        s.chunked_prefill_size = self.stubs.CONTEXT["schedule"].chunked_prefill_size
        s.chunked_req = None
        s._pending_chunked_abort_req = None
        s.is_mixed_chunk = s.chunked_prefill_size is not None and cfg.get("enable_mixed_chunk", False)
        s.enable_dynamic_chunking = False
        s.prefill_delayer = None
        s.max_prefill_bs = 0
        s.max_new_tokens_limit = None
        s.model_config = ns(hf_eos_token_id={EOS_TOKEN_ID}, vocab_size=32000, context_len=cfg["context_len"],
                            is_multimodal=False)
        s.tokenizer = None
        s.waiting_queue = []
        s.running_batch = self.schedule_batch.ScheduleBatch(reqs=[], batch_is_full=False)
        s.last_batch = None
        s.cur_batch_for_debug = None
        s.forward_ct = 0
        s._sched_idled = False
        s._engine_paused = False
        s.new_token_ratio_tracker = self.ntr.NewTokenRatioTracker.from_config()
        # tp_worker.py get_worker_info: max_req_len, max_req_input_len.
        s.max_req_len = min(cfg["context_len"] - 1, cfg["max_total_num_tokens"] - 1)
        s.max_req_input_len = s.max_req_len - 5
        s.events = []

        class Tokenizer:  # transport: what the scheduler sends to the tokenizer (AbortReq), kept for the trace
            def send_output(self, out, req=None):
                s.events.append(("ended_outside", out.rid, getattr(out, "finished_reason", None)))

        s.ipc_channels = ns(send_to_tokenizer=Tokenizer())

        class MetricsReporter:  # environment: metrics and logging (enable_metrics False); nothing is decided here
            enable_metrics = False

            def log_batch_result_stats(self, batch, result):
                return None

            def update_device_timer(self):
                return None

            def _maybe_log_idle_metrics(self):
                return None

            def log_prefill_stats(self, *a, **k):
                return None

            def log_decode_stats(self, *a, **k):
                return None

        class GrammarManager:  # configuration: no request carries a grammar (the port refuses structured output)
            def process_req_with_grammar(self, req):
                sp = req.sampling_params
                if any(x is not None for x in (sp.json_schema, sp.regex, sp.ebnf, sp.structural_tag)):
                    raise AssertionError("oracle: a request with a grammar reached the stand-in grammar manager")
                return False

            def abort_requests(self, recv_req):
                return None

            def has_waiting_grammars(self):
                return False

        s.grammar_manager = GrammarManager()
        s.metrics_reporter = MetricsReporter()
        s.metrics_collector = None
        return s

    def recv_req(self, r: dict):
        """TokenizedGenerateReqInput as the tokenizer hands it over for a text request (configuration: the fields
        handle_generate_request reads, with the tokenizer's defaults)."""
        from array import array

        sp = self.sampling_params.SamplingParams(max_new_tokens=r["max_new_tokens"], ignore_eos=r.get("ignore_eos", False))
        return types.SimpleNamespace(
            rid=r["id"], input_text="", input_ids=array("q", r["prompt"]), sampling_params=sp, session_params=None,
            session_id=None, input_embeds=None, bootstrap_port=None, bootstrap_host=None, bootstrap_room=None,
            return_logprob=False, top_logprobs_num=0, token_ids_logprob=None, return_sampling_mask=False,
            return_flat_raw_top_logprobs=False, stream=False, lora_id=None, positional_embed_overrides=None,
            token_type_ids=None, custom_logit_processor=None, require_reasoning=False, return_hidden_states=False,
            return_routed_experts=False, routed_experts_start_len=0, return_indexer_topk=False, routed_dp_rank=None,
            disagg_prefill_dp_rank=None, priority=r.get("priority"), routing_key=None, extra_key=None,
            cache_salt=None, http_worker_ipc=None, time_stats=None, multi_item_delimiter_indices=None,
            mm_inputs=None, logprob_start_len=-1)

    def run(self, scenario: dict) -> dict:
        cfg = scenario["config"]
        s = self.make_scheduler(cfg)
        specs = {r["id"]: r for r in scenario["requests"]}
        pending = sorted(scenario["requests"], key=lambda r: (r["arrival_step"], scenario["requests"].index(r)))
        aborts = {}
        for r in scenario["requests"]:
            if r.get("abort_step") is not None:
                aborts.setdefault(r["abort_step"], []).append(r["id"])
        steps = []
        max_steps = scenario.get("max_steps", 3000)
        retracted = []
        add_to_queue = s._add_request_to_queue

        def observe_add(req, is_retracted=False):  # observation only: which requests retraction re-queues
            if is_retracted:
                retracted.append(req.rid)
            return add_to_queue(req, is_retracted)

        s._add_request_to_queue = observe_add
        step = 0
        while step < max_steps:
            CLOCK.now = float(step)
            record = {"step": step, "arrivals": [], "aborts": []}
            while pending and pending[0]["arrival_step"] <= step:
                r = pending.pop(0)
                s.handle_generate_request(self.recv_req(r))
                record["arrivals"].append(r["id"])
            for rid in aborts.get(step, []):
                record["aborts"].append(rid)
                s.abort_request(types.SimpleNamespace(rid=rid, abort_all=False, finished_reason=None, abort_message=None))
            plan = s.get_next_batch_to_run(running_batch=s.running_batch, last_batch=s.last_batch)
            s.running_batch = plan.running_batch
            batch = plan.batch_to_run
            record["batch"] = None if batch is None else self.batch_record(batch)
            record["sampled"] = []
            before = {id(r): (len(r.output_ids), r.finished()) for r in (batch.reqs if batch else [])}
            if batch is not None:
                tokens = self.model_runner(batch, specs)
                record["sampled"] = [[r.rid, t] for r, t in zip(batch.reqs, tokens)]
                result = self.GenerationBatchResult(next_token_ids=self.torch.tensor(tokens, dtype=self.torch.int64))
                s.process_batch_result(batch, result)
            else:
                s.on_idle()
            s.last_batch = batch
            record["processed"] = self.processed_record(batch, before)
            record["retracted"] = list(retracted)
            retracted.clear()
            record["ended_outside"] = [[rid, reason] for kind, rid, reason in s.events if kind == "ended_outside"]
            s.events.clear()
            record["state"] = self.state_record(s)
            steps.append(record)
            step += 1
            if not pending and not s.waiting_queue and s.running_batch.is_empty() and s.chunked_req is None \
                    and batch is None:
                break
        else:
            raise Unfinished(f"scenario {scenario['name']} did not finish in {max_steps} steps")
        return {"steps": steps}

    def model_runner(self, batch, specs) -> list:
        """The model's forward and sampler (gpu): one token per request of the batch; the scenario's forced
        output: EOS when the request reaches its output length, else 1000 + the output index. (A middle chunk's
        token is discarded by process_batch_result_prefill, as upstream's.)"""
        out = []
        for r in batch.reqs:
            k = len(r.output_ids)
            spec = specs[r.rid]
            out.append(EOS_TOKEN_ID if k + 1 >= spec["output_len"] else 1000 + k)
        return out

    @staticmethod
    def batch_record(batch) -> dict:
        return {
            "forward_mode": batch.forward_mode.name,
            "rids": [r.rid for r in batch.reqs],
            "prefix_lens": [int(x) for x in (batch.prefix_lens or [])] if batch.forward_mode.is_extend() else [],
            "extend_lens": [int(x) for x in (batch.extend_lens or [])] if batch.forward_mode.is_extend() else [],
            "chunked_req": batch.chunked_req.rid if batch.forward_mode.is_extend() and batch.chunked_req is not None
            else None,
            "decoding_reqs": [r.rid for r in (batch.decoding_reqs or [])],
        }

    @staticmethod
    def processed_record(batch, before) -> dict:
        emitted, finished = [], []
        for r in (batch.reqs if batch else []):
            n0, f0 = before[id(r)]
            if len(r.output_ids) > n0:
                emitted.append([r.rid, len(r.output_ids) - n0])
            if r.finished() and not f0:
                finished.append([r.rid, r.finished_reason.to_json()["type"]])
        return {"emitted": emitted, "finished": finished}

    @staticmethod
    def state_record(s) -> dict:
        return {
            "waiting": [r.rid for r in s.waiting_queue],
            "running": [r.rid for r in s.running_batch.reqs],
            "chunked_req": None if s.chunked_req is None else s.chunked_req.rid,
            "new_token_ratio": s.new_token_ratio_tracker.new_token_ratio,
            "available_size": int(s.token_to_kv_pool_allocator.available_size()),
            "evictable_size": int(s.tree_cache.evictable_size()),
            "protected_size": int(s.tree_cache.protected_size()),
        }
