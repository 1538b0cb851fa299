#!/usr/bin/python3
"""The SGLang oracle runner (X5, SGL-1, issue 10): runs the pinned SGLang's own Scheduler methods
(get_next_batch_to_run, get_new_batch_prefill, update_running_batch, handle_generate_request,
abort_request, process_batch_result), PrefillAdder, SchedulePolicy, RadixCache, allocators, ReqToTokenPool
and ScheduleBatch, unmodified, from a pinned checkout, on a scenario, and records every decision per step
as a trace. tests/sglang/oracle/replay.cpp replays the committed traces against the port.

  runner.py --checkout DIR --out-dir DIR [--update] [--designed] [--random N --seed S]... [SCENARIO.json...]

DIR is an export of the pinned commit (engines/sglang/upstream.yaml); every module loaded from it is checked
against its pinned blob (manifest.yaml). A trace is never overwritten without --update (FID-3). The runner
re-executes itself with PYTHONHASHSEED=0 and runs under Debian's /usr/bin/python3 with python3-numpy and
python3-yaml (the torch stand-in is numpy-backed).

The Scheduler object is made with object.__new__ and given the attributes its methods read, as resolved
values (manifest harness: Oracle.make_scheduler); its pools, radix cache and policy are upstream's own
classes built as Scheduler.__init__ builds them. The event loop is event_loop_normal's body, one iteration
per step, or event_loop_overlap's when the scenario turns the overlap schedule on (disable_overlap_schedule
False; Oracle.overlap_iterations): the runner's own loops, manifest harness. Every scenario runs with --kv-events-config: each step
records the KV-cache events upstream's SchedulerKvEventsPublisher published in it (on_idle when fully idle,
report_prefill_stats, every decode_log_interval-th report_decode_stats), from the radix cache's own event code.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, ROOT)
from checks.harness.oracle import record  # noqa: E402
from checks.harness.oracle.record import Unfinished  # noqa: E402
TRACE_FORMAT = 1
EOS_TOKEN_ID = 2
# --kv-events-config, as a server that publishes KV-cache events to a router is started with (every scenario).
# The publisher it names is the transport the oracle replaces (stubs.py _kv_events: batches are kept).
KV_EVENTS_CONFIG = '{"publisher": "zmq", "topic": "kv-events"}'
# server_args.py decode_log_interval's default: report_decode_stats logs and publishes every this many decodes.
DECODE_LOG_INTERVAL = 40



class _Clock:
    """A monotonic clock that advances between any two reads (a tick per read), as a real clock read at
    distinct instants does: the radix cache's LRU order (last_access_time) and the wait-queue entry times only
    compare readings. The port's logical clock (engines/sglang/srt/mem_cache/tree_node.h NodeClock) ticks the
    same way."""

    ticks = 0

    def read(self) -> float:
        self.ticks += 1
        return float(self.ticks)


CLOCK = _Clock()


def _install_clock():
    time.time = CLOCK.read
    time.monotonic = CLOCK.read
    time.perf_counter = CLOCK.read
    time.time_ns = lambda: int(CLOCK.read())
    time.monotonic_ns = lambda: int(CLOCK.read())
    time.perf_counter_ns = lambda: int(CLOCK.read())



class InsertionOrderedSet:
    """A set that iterates in insertion order. schedule_policy.py's PrefillAdder.preempt_to_schedule extends
    preempt_list from a set of Req objects, whose iteration order CPython takes from their memory addresses (a
    race across runs); the declared order, the port's (prefill_adder_add.cpp), is the order the requests were
    chosen, which this set keeps. Membership is a set's."""

    def __init__(self, items=()):
        self._d = dict.fromkeys(items)

    def __contains__(self, x):
        return x in self._d

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def add(self, x):
        self._d[x] = None

    def discard(self, x):
        self._d.pop(x, None)


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
        schedule_policy.set = InsertionOrderedSet  # the declared order of a race (manifest harness)
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
            disable_overlap_schedule=cfg.get("disable_overlap_schedule", True), page_size=cfg["page_size"],
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
            features=ns(enable_memory_saver=False, return_hidden_states_mode=None,
                                                enable_return_hidden_states=False), kernel=ns(attention_backend="torch_native", sampling_backend="pytorch"),
            # the torch-native attention backend on both phases: the allocation module's torch paths (no Triton)
            attention_backends=("torch_native", "torch_native"))
        c["observability"].__dict__.update(enable_metrics=False, enable_metrics_for_all_schedulers=False,
                                           kv_events_config=KV_EVENTS_CONFIG)
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
        if cfg.get("disable_radix_cache", False) and self.stubs.CONTEXT["schedule"].chunked_prefill_size is not None:
            # mem_cache/registry.py default_radix_cache_factory builds a ChunkCache here (the port refuses it).
            raise ValueError("oracle: a disabled radix cache with chunked prefill is a ChunkCache, not driven")
        # scheduler.py init_memory_pool_and_cache: events are enabled with a kv_events_config on pp rank 0,
        # attention TP rank 0 and attention CP rank 0 (one rank: all three are 0).
        enable_kv_cache_events = bool(self.stubs.CONTEXT["observability"].kv_events_config)
        params = self.cache_init_params.CacheInitParams(
            disable=cfg.get("disable_radix_cache", False), req_to_token_pool=s.req_to_token_pool,
            token_to_kv_pool_allocator=s.token_to_kv_pool_allocator, page_size=page_size,
            eviction_policy=cfg.get("radix_eviction_policy", "lru"), enable_kv_cache_events=enable_kv_cache_events)
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
        sessions, the prefill delayer off; the normal loop unless the scenario turns the overlap schedule on
        (disable_overlap_schedule False: event_loop_overlap, whose result queue is result_queue)."""
        ns = types.SimpleNamespace
        from sglang.srt.speculative.spec_info import SpeculativeAlgorithm

        s.spec_algorithm = SpeculativeAlgorithm.NONE
        s.server_args = ns(schedule_low_priority_values_first=False, retraction_policy="length",
                           disaggregation_mode="null")
        s.enable_overlap = not cfg.get("disable_overlap_schedule", True)
        s.result_queue = collections.deque()  # event_loop_overlap's (is_fully_idle reads it)
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
        s.max_prefill_tokens = cfg["max_prefill_tokens"]
        s.truncation_align_size = None  # init_deterministic_inference_config: deterministic inference off
        # gpu: the worker's attention backend is not a Triton backend (no extend_attention_block_m: the tile
        # budget's fallback of 64, as the port's).
        s.tp_worker = ns(model_runner=ns(attn_backend=ns(), prefill_aware_swa=False))
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
                            is_multimodal=False, is_encoder_decoder=False, is_generation=True,
                            use_ngram_embedding=False, think_end_ids=None, is_hybrid_swa=False)
        s.tokenizer = None
        s.waiting_queue = []
        s.running_batch = self.schedule_batch.ScheduleBatch(reqs=[], batch_is_full=False)
        s.last_batch = None
        s.cur_batch_for_debug = None
        s.forward_ct = 0
        s._sched_idled = False
        s._engine_paused = False
        s._prev_step = None
        s.total_prefill_uncached_tokens = 0
        s.total_prefill_busy_us = 0
        s.decode_moment_totals = [0.0] * 6
        s.new_token_ratio_tracker = self.ntr.NewTokenRatioTracker.from_config()
        # tp_worker.py get_worker_info: max_req_len, max_req_input_len.
        s.max_req_len = min(cfg["context_len"] - 1, cfg["max_total_num_tokens"] - 1)
        s.max_req_input_len = s.max_req_len - 5
        s.events = []

        class Tokenizer:  # transport: what the scheduler sends to the tokenizer (AbortReq), kept for the trace
            def send_output(self, out, req=None):
                reason = getattr(out, "finished_reason", None)
                s.events.append(("ended_outside", out.rid, reason["type"] if reason else "abort"))

        s.ipc_channels = ns(send_to_tokenizer=Tokenizer())

        class MetricsReporter:  # environment: metrics and logging (enable_metrics False); nothing is decided here
            """Publishes the KV events where upstream's reporter does (metrics_reporter.py@71de97b2): at the end of
            report_prefill_stats (on the stats-logging rank, attn_tp_rank 0: always here), and at the end of
            report_decode_stats only every decode_log_interval decodes (forward_ct_decode, which upstream's
            process_batch_result_decode advances on this object). The logging and gauges are not kept."""
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

            num_generated_tokens = 0
            forward_ct_decode = 0

            def report_prefill_stats(self, *a, **k):
                s.kv_events_publisher.publish_kv_events()

            def report_decode_stats(self, *a, **k):
                if self.forward_ct_decode % DECODE_LOG_INTERVAL != 0:
                    return
                s.kv_events_publisher.publish_kv_events()

            stats = None  # SchedulerStats: read by emit_kv_metrics, which runs only with metrics on

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

            grammar_queue = ()

        s.grammar_manager = GrammarManager()
        s.require_mlp_sync = False  # no DP attention
        s.load_snapshot_writer = None  # no load snapshot published
        from collections import deque

        s.return_health_check_ipcs = deque()  # no health checks

        class DpAttnAdapter:  # transport: DP-attention MLP sync (one rank: never needed)
            def maybe_prepare_mlp_sync_batch(self, batch, need_sync=None):
                if need_sync:
                    raise AssertionError("oracle: DP-attention sync requested on one rank")
                return batch

        class NgramEmbedding:  # gpu: the n-gram embedding token table (disabled)
            enabled = False

            def prepare_for_forward(self, batch, *, chunked_req=None):
                return batch

        s.dp_attn_adapter = DpAttnAdapter()
        s.ps = ns(pp_size=1, tp_size=1, dp_size=1, attn_tp_size=1, attn_tp_rank=0, dp_rank=None, tp_rank=0,
                  pp_rank=0, attn_cp_rank=0, attn_dp_size=1, attn_dp_rank=0)
        s.dllm_manager = ns(any_staging_reqs=lambda: False)  # no dLLM

        class InvariantChecker:  # environment: on_idle's self-checks (leaks raise there; the trace compares sizes)
            def _check_all_pools(self, stats):
                return False, []

            def _check_req_pool(self):
                return None

            def _check_tree_cache(self):
                return None

        s.invariant_checker = InvariantChecker()
        s.idle_sleeper = None  # environment: no sleeping on idle
        s.pool_stats_observer = ns(get_pool_stats=lambda: None)  # environment: pool statistics for the checks
        s.ngram_embedding_manager = NgramEmbedding()
        # environment: the load report (/get_loads, DP balancing) reads pending tokens; nothing here decides.
        s.load_inquirer = ns(_get_num_pending_tokens=lambda chunk_deduct=0: 0)
        s.metrics_reporter = MetricsReporter()
        s.metrics_collector = None
        # scheduler.py init_kv_events_publisher: upstream's SchedulerKvEventsPublisher (extracted), whose
        # EventPublisherFactory publisher keeps the batches (stubs.py _kv_events); no metrics socket (metrics off).
        from sglang.srt.managers.scheduler_components.kv_events_publisher import SchedulerKvEventsPublisher
        from sglang.srt.runtime_context import get_observability

        s.kv_events_publisher = SchedulerKvEventsPublisher(
            kv_events_config=get_observability().kv_events_config, ps=s.ps, attn_tp_rank=s.ps.attn_tp_rank,
            attn_cp_rank=s.ps.attn_cp_rank, attn_dp_rank=s.ps.attn_dp_rank, dp_rank=s.ps.dp_rank,
            tree_cache=s.tree_cache, send_metrics_from_scheduler=None, max_running_requests=s.max_running_requests,
            max_total_num_tokens=s.max_total_num_tokens, get_stats=lambda: s.metrics_reporter.stats)

        class OutputStreamer:  # transport: the stream to the detokenizer (the runner reads the requests instead)
            def stream_output(self, reqs, return_logprob, *a, **k):
                return None

        s.output_streamer = OutputStreamer()
        s.model_worker = None
        from sglang.srt.managers.scheduler_components.batch_result_processor import SchedulerBatchResultProcessor

        s.batch_result_processor = SchedulerBatchResultProcessor(
            is_generation=True, disaggregation_mode=s.disaggregation_mode, enable_overlap=s.enable_overlap,
            enable_overlap_mlx=False, server_args=s.server_args, model_config=s.model_config,
            token_to_kv_pool_allocator=s.token_to_kv_pool_allocator, tree_cache=s.tree_cache,
            hisparse_coordinator=None, req_to_token_pool=s.req_to_token_pool, decode_offload_manager=None,
            metrics_collector=None, metrics_reporter=s.metrics_reporter, draft_worker=None, model_worker=None,
            logprob_result_processor=None, output_streamer=s.output_streamer, abort_request=s.abort_request)
        return s

    def recv_req(self, r: dict):
        """TokenizedGenerateReqInput as the tokenizer hands it over for a text request (configuration: the fields
        handle_generate_request reads, with the tokenizer's defaults)."""
        from array import array

        sp = self.sampling_params.SamplingParams(max_new_tokens=r["max_new_tokens"], ignore_eos=r.get("ignore_eos", False))
        sp.normalize(None)  # as the tokenizer manager does (no stop strings: the tokenizer is not needed)
        sp.verify(32000)
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
        published = self.stubs.PUBLISHED
        published.clear()
        step = 0
        while step < max_steps:
            record = {"step": step, "arrivals": [], "aborts": []}
            while pending and pending[0]["arrival_step"] <= step:
                r = pending.pop(0)
                s.handle_generate_request(self.recv_req(r))
                record["arrivals"].append(r["id"])
            for rid in aborts.get(step, []):
                record["aborts"].append(rid)
                s.abort_request(self.stubs.AbortReq(rid=rid))
            if s.enable_overlap:
                batch = self.overlap_iterations(s, specs, record)
            else:
                idle_iterations = 0
                while True:
                    # event_loop_normal's iteration. One that finds no batch may still change the state (a finished
                    # request dropped, batch_is_full cleared); the loop then spins without new input in no time, so
                    # the step runs iterations until one finds a batch or leaves the state as it found it.
                    signature = self.signature(s)
                    plan = s.get_next_batch_to_run(running_batch=s.running_batch, last_batch=s.last_batch)
                    s.running_batch = plan.running_batch
                    batch = plan.batch_to_run
                    if batch is not None:
                        break
                    s._sched_idled = True
                    s.on_idle()
                    s.last_batch = None
                    idle_iterations += 1
                    if self.signature(s) == signature:
                        break
                record["batch"] = None if batch is None else self.batch_record(batch)
                record["sampled"] = []
                before = {id(r): (len(r.output_ids), r.finished()) for r in (batch.reqs if batch else [])}
                if batch is not None:
                    self.launch(s, batch)
                    tokens = self.model_runner(batch, specs)
                    record["sampled"] = [[r.rid, t] for r, t in zip(batch.reqs, tokens)]
                    result = self.GenerationBatchResult(next_token_ids=self.torch.tensor(tokens, dtype=self.torch.int64))
                    s.process_batch_result(batch, result)
                s.last_batch = batch
                record["processed"] = self.processed_record(batch, before)
            record["retracted"] = list(retracted)
            retracted.clear()
            record["ended_outside"] = [[rid, reason] for kind, rid, reason in s.events if kind == "ended_outside"]
            s.events.clear()
            record["state"] = self.state_record(s)
            # The KV events the scheduler published during this iteration, in order: the batches its publisher
            # sent (publish_kv_events, called by on_idle when fully idle, report_prefill_stats, and
            # report_decode_stats every decode_log_interval decodes), each batch's events in queue order.
            record["kv_events"] = [self.event_record(e) for batch in published for e in batch.events]
            published.clear()
            steps.append(record)
            step += 1
            if not pending and not s.waiting_queue and s.running_batch.is_empty() and s.chunked_req is None \
                    and batch is None and not s.result_queue and not record["sampled"]:
                # (Under the overlap schedule the step that processed the last batch ran no on_idle: the next does.)
                break
        else:
            raise Unfinished(f"scenario {scenario['name']} did not finish in {max_steps} steps")
        return {"steps": steps}

    def launch(self, s, batch):
        """run_batch's step bookkeeping (the forward counter and launch stamp read by the step counters)."""
        s.forward_ct += 1
        batch.forward_iter = s.forward_ct
        batch.launch_ts = time.monotonic()
        batch.after_idle_gap = s._sched_idled
        s._sched_idled = False

    def overlap_iterations(self, s, specs, record):
        """event_loop_overlap's iterations for one step (scheduler.py event_loop_overlap, the runner's own loop:
        manifest harness). Each launches the batch get_next_batch_to_run chose (the model's result waits in
        result_queue as (batch.copy(), result)), then processes the last batch's result (pop_and_process) or, with
        neither, runs on_idle. The model stand-in samples a batch's tokens when its result is processed: the
        forward it waits for ran meanwhile, and each request's output index is then its count of output ids.
        The step ends at the iteration that launches a batch or processes one (it waited for the forward); an
        iteration with neither repeats without new input until the state stays as it was. Records the launched
        batch (batch), the processed batch's tokens (sampled) and what they did (processed)."""
        record["sampled"] = []
        record["processed"] = self.processed_record(None, {})
        while True:
            signature = self.signature(s) + (len(s.result_queue),)
            plan = s.get_next_batch_to_run(running_batch=s.running_batch, last_batch=s.last_batch)
            s.running_batch = plan.running_batch
            batch = plan.batch_to_run
            s.cur_batch_for_debug = batch
            if s.is_disable_overlap_for_batch(batch, last_batch=s.last_batch):
                # SGLANG_DISABLE_CONSECUTIVE_PREFILL_OVERLAP is removed from the environment (manifest harness).
                raise AssertionError("oracle: is_disable_overlap_for_batch answered True")
            if batch:
                self.launch(s, batch)
                s.result_queue.append((batch.copy(), None))
            else:
                s._sched_idled = True
            processed = False
            if s.last_batch:
                done, _ = s.result_queue.popleft()
                before = {id(r): (len(r.output_ids), r.finished()) for r in done.reqs}
                tokens = self.model_runner(done, specs)
                record["sampled"] = [[r.rid, t] for r, t in zip(done.reqs, tokens)]
                result = self.GenerationBatchResult(next_token_ids=self.torch.tensor(tokens, dtype=self.torch.int64))
                s.process_batch_result(done, result)
                record["processed"] = self.processed_record(done, before)
                processed = True
            elif batch is None:
                s.on_idle()
            s.last_batch = batch
            if batch is not None or processed or self.signature(s) + (len(s.result_queue),) == signature:
                record["batch"] = None if batch is None else self.batch_record(batch)
                return batch

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
    def event_record(e) -> list:
        """A KV-cache event as [type, fields...]: BlockStored [block_hashes, parent_block_hash, token_ids,
        block_size, lora_id, medium] (+ [cache_salt] for a BlockStoredWithMetadata), BlockRemoved [block_hashes,
        medium], AllBlocksCleared []. Hashes are hash_str_to_int64's signed 64-bit ints."""
        name = type(e).__name__
        medium = getattr(getattr(e, "medium", None), "value", getattr(e, "medium", None))
        if name in ("BlockStored", "BlockStoredWithMetadata"):
            out = ["BlockStored", list(e.block_hashes), e.parent_block_hash,
                   [list(t) if isinstance(t, tuple) else t for t in e.token_ids], e.block_size, e.lora_id, medium]
            if name == "BlockStoredWithMetadata":
                out.append(e.metadata.cache_salt)
            return out
        if name == "BlockRemoved":
            return [name, list(e.block_hashes), medium]
        if name == "AllBlocksCleared":
            return [name]
        raise AssertionError(f"oracle: unknown KV event {name}")

    @staticmethod
    def signature(s):
        return (len(s.waiting_queue), s.running_batch.batch_size(), s.running_batch.batch_is_full, s.chunked_req,
                s.last_batch is not None)

    @staticmethod
    def batch_record(batch) -> dict:
        return {
            "forward_mode": batch.forward_mode.name,
            "rids": [r.rid for r in batch.reqs],
            "prefix_lens": [int(x) for x in (batch.prefix_lens or [])] if batch.forward_mode.is_extend() else [],
            "extend_lens": [int(x) for x in (batch.extend_lens or [])] if batch.forward_mode.is_extend() else [],
            "chunked_req": batch.chunked_req.rid if batch.forward_mode.is_extend() and batch.chunked_req is not None
            else None,
            # what process_batch_result_prefill reads (an extend batch's running decodes, mixed in); a decode
            # batch keeps a stale list from the mixed batch it was merged from, which nothing reads.
            "decoding_reqs": [r.rid for r in (batch.decoding_reqs or [])] if batch.forward_mode.is_extend() else [],
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
            "new_token_ratio": s.new_token_ratio_tracker.current,
            "available_size": int(s.token_to_kv_pool_allocator.available_size()),
            "evictable_size": int(s.tree_cache.evictable_size()),
            "protected_size": int(s.tree_cache.protected_size()),
        }


def main(argv=None) -> int:
    return record.main(make_oracle=Oracle, engine="sglang", here=HERE, doc=__doc__, trace_format=TRACE_FORMAT,
                       checkout_help="an export of SGLang at the pinned commit", argv=argv)


if __name__ == "__main__":
    sys.exit(main())
