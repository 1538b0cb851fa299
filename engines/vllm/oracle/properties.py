"""Properties of the vLLM scheduler, judged on the oracle's traces first (FID-6).

Each property is a function of one recorded trace returning None when it holds there, or a counterexample
(a string naming the tick). properties.yaml beside this file says which are adopted (upstream satisfies
them on every oracle trace, so a test may assert them of the port) and which were rejected (upstream
violates them; the counterexample is kept so nobody asserts them again).
checks/harness/oracle/check_properties.py runs them.
"""

from __future__ import annotations


def _ticks(trace):
    return trace["steps"]


def token_budget(trace):
    """No tick schedules more tokens than max_num_batched_tokens."""
    budget = trace["scenario"]["config"]["max_num_batched_tokens"]
    for s in _ticks(trace):
        n = (s.get("schedule") or {}).get("total_num_scheduled_tokens", 0)
        if n > budget:
            return f"tick {s['step']}: {n} tokens > budget {budget}"
    return None


def max_num_seqs(trace):
    """No tick runs more requests than max_num_seqs."""
    cap = trace["scenario"]["config"]["max_num_seqs"]
    for s in _ticks(trace):
        if len(s["state"]["running"]) > cap:
            return f"tick {s['step']}: {len(s['state']['running'])} running > max_num_seqs {cap}"
    return None


def free_blocks_bounded(trace):
    """The free blocks never exceed the pool less the null block."""
    cap = trace["scenario"]["config"]["num_blocks"] - 1
    for s in _ticks(trace):
        if s["state"]["num_free_blocks"] > cap:
            return f"tick {s['step']}: {s['state']['num_free_blocks']} free > {cap}"
    return None


def hits_within_queries(trace):
    """Prefix-cache hits never exceed queries."""
    for s in _ticks(trace):
        st = (s.get("update") or {}).get("stats")
        if st is not None and st[5] > st[4]:
            return f"tick {s['step']}: hits {st[5]} > queries {st[4]}"
    return None


def outputs_within_max_tokens(trace):
    """A request never emits more tokens than its max_tokens."""
    limits = {r["id"]: r["max_tokens"] for r in trace["scenario"]["requests"]}
    emitted = {}
    for s in _ticks(trace):
        for rid, toks, _, _ in (s.get("update") or {}).get("outputs", []):
            emitted[rid] = emitted.get(rid, 0) + len(toks)
            if emitted[rid] > limits[rid]:
                return f"tick {s['step']}: {rid} emitted {emitted[rid]} > max_tokens {limits[rid]}"
    return None


def every_request_ends(trace):
    """Every request that arrives ends: finished with a reason, or aborted."""
    ended = set()
    for s in _ticks(trace):
        ended.update(s["aborts"])
        for rid, _, reason, _ in (s.get("update") or {}).get("outputs", []):
            if reason is not None:
                ended.add(rid)
    missing = sorted({r["id"] for r in trace["scenario"]["requests"]} - ended)
    return f"never ended: {', '.join(missing)}" if missing else None


def finished_never_scheduled_again(trace):
    """A request that finished is never scheduled again."""
    done = set()
    for s in _ticks(trace):
        for rid, _ in (s.get("schedule") or {}).get("num_scheduled_tokens", []):
            if rid in done:
                return f"tick {s['step']}: {rid} scheduled after it finished"
        for rid, _, reason, _ in (s.get("update") or {}).get("outputs", []):
            if reason is not None:
                done.add(rid)
        done.update(s["aborts"])
    return None


def fcfs_first_schedule_in_arrival_order(trace):
    """Under the fcfs policy, requests are first scheduled in the order they arrived."""
    if trace["scenario"]["config"].get("policy", "fcfs") != "fcfs":
        return None
    order, started = [], []
    aborted = set()
    for s in _ticks(trace):
        order.extend(s["arrivals"])
        aborted.update(s["aborts"])
        for rid, _, _ in (s.get("schedule") or {}).get("new_reqs", []):
            if rid not in started:
                started.append(rid)
    expected = [r for r in order if r in started]
    if started != expected:
        return f"first scheduled {started}, arrived {expected}"
    return None


def no_preemption(trace):
    """No request is ever preempted (false: upstream preempts when decodes outgrow the pool)."""
    for s in _ticks(trace):
        pre = (s.get("schedule") or {}).get("preempted_req_ids", [])
        if pre:
            return f"tick {s['step']}: preempted {pre}"
    return None


def budget_filled_when_waiting(trace):
    """When requests wait, a tick never leaves more than one block of token budget unused (false:
    max_num_seqs, the KV pool, and a non-chunked prompt that does not fit all leave budget idle)."""
    cfg = trace["scenario"]["config"]
    for s in _ticks(trace):
        sch = s.get("schedule")
        if sch and s["state"]["waiting"] and cfg["max_num_batched_tokens"] - sch["total_num_scheduled_tokens"] > cfg["block_size"]:
            return f"tick {s['step']}: {sch['total_num_scheduled_tokens']} of {cfg['max_num_batched_tokens']} with requests waiting"
    return None


PROPERTIES = {f.__name__: f for f in (token_budget, max_num_seqs, free_blocks_bounded, hits_within_queries,
                                      outputs_within_max_tokens, every_request_ends, finished_never_scheduled_again,
                                      fcfs_first_schedule_in_arrival_order, no_preemption,
                                      budget_filled_when_waiting)}
