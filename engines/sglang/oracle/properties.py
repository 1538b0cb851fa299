"""Properties of the SGLang scheduler, judged on the oracle's traces first (FID-6).

Each property is a function of one recorded trace returning None when it holds there, or a counterexample
naming the step. properties.yaml beside this file says which are adopted (upstream satisfies them on every
oracle trace) and which were rejected (upstream violates them; kept so nobody asserts them of the port).
checks/harness/oracle/check_properties.py runs them.
"""

from __future__ import annotations


def _steps(trace):
    return trace["steps"]


def _batch(s):
    return s.get("batch") or {}


def running_within_max(trace):
    """The running batch never holds more than max_running_requests."""
    cap = trace["scenario"]["config"]["max_running_requests"]
    for s in _steps(trace):
        if len(s["state"]["running"]) > cap:
            return f"step {s['step']}: {len(s['state']['running'])} running > {cap}"
    return None


def pool_accounting(trace):
    """The allocator's free tokens and the radix cache's evictable and protected tokens never exceed the pool."""
    total = trace["scenario"]["config"]["max_total_num_tokens"]
    for s in _steps(trace):
        st = s["state"]
        used = st["available_size"] + st["evictable_size"] + st["protected_size"]
        if min(st["available_size"], st["evictable_size"], st["protected_size"]) < 0 or used > total:
            return f"step {s['step']}: available {st['available_size']} + evictable {st['evictable_size']} + " \
                   f"protected {st['protected_size']} > pool {total}"
    return None


def new_token_ratio_bounded(trace):
    """The new-token ratio stays within (0, 1]."""
    for s in _steps(trace):
        r = s["state"]["new_token_ratio"]
        if not 0 < r <= 1:
            return f"step {s['step']}: new_token_ratio {r}"
    return None


def extend_within_chunk(trace):
    """With chunked prefill, no extend batch schedules more new tokens than the chunked-prefill size (a lone
    request's chunk included)."""
    cfg = trace["scenario"]["config"]
    size = cfg.get("chunked_prefill_size")
    if not size or size <= 0:
        return None
    for s in _steps(trace):
        b = _batch(s)
        if b.get("forward_mode") in ("EXTEND", "MIXED") and sum(b.get("extend_lens", [])) > size:
            return f"step {s['step']}: {sum(b['extend_lens'])} extend tokens > chunked_prefill_size {size}"
    return None


def emitted_within_max_new_tokens(trace):
    """A request never emits more tokens than its max_new_tokens."""
    limits = {r["id"]: r["max_new_tokens"] for r in trace["scenario"]["requests"]}
    out = {}
    for s in _steps(trace):
        for rid, n in s["processed"]["emitted"]:
            out[rid] = out.get(rid, 0) + n
            if out[rid] > limits[rid]:
                return f"step {s['step']}: {rid} emitted {out[rid]} > max_new_tokens {limits[rid]}"
    return None


def every_request_ends(trace):
    """Every request that arrives ends: finished in a batch, or ended outside one (aborted or refused)."""
    ended = set()
    for s in _steps(trace):
        ended.update(rid for rid, _ in s["processed"]["finished"])
        ended.update(rid for rid, _ in s["ended_outside"])
    missing = sorted({r["id"] for r in trace["scenario"]["requests"]} - ended)
    return f"never ended: {', '.join(missing)}" if missing else None


def finished_never_run_again(trace):
    """A request that finished is never in a later batch."""
    done = set()
    for s in _steps(trace):
        for rid in _batch(s).get("rids", []):
            if rid in done:
                return f"step {s['step']}: {rid} runs after it finished"
        done.update(rid for rid, _ in s["processed"]["finished"])
    return None


def no_retraction(trace):
    """No request is ever retracted (false: upstream retracts decodes when the pool runs out)."""
    for s in _steps(trace):
        if s["retracted"]:
            return f"step {s['step']}: retracted {s['retracted']}"
    return None


def fcfs_first_run_in_arrival_order(trace):
    """Under fcfs without priority scheduling or a radix-cache-aware policy, requests first run in arrival order
    (false: SGLang's fcfs falls back when a request does not fit, and lets a later one that fits run first)."""
    cfg = trace["scenario"]["config"]
    if cfg.get("schedule_policy", "fcfs") != "fcfs" or cfg.get("enable_priority_scheduling"):
        return None
    order, started = [], []
    for s in _steps(trace):
        order.extend(s["arrivals"])
        for rid in _batch(s).get("rids", []):
            if rid not in started:
                started.append(rid)
    expected = [r for r in order if r in started]
    return None if started == expected else f"first run {started}, arrived {expected}"


PROPERTIES = {f.__name__: f for f in (running_within_max, pool_accounting, new_token_ratio_bounded,
                                      extend_within_chunk, emitted_within_max_new_tokens, every_request_ends,
                                      finished_never_run_again, no_retraction, fcfs_first_run_in_arrival_order)}
