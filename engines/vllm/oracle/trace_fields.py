"""The fields of a vLLM oracle trace's tick record that the replay compares, each as a function from one
tick to the values it takes there (FID-10: checks/harness/oracle/check_traces.py coverage --fields this file)."""


# FID-10: the compared fields, each as a function from one step record to the values it takes there.
def _rows(step, *path):
    x = step
    for p in path:
        x = x.get(p) if isinstance(x, dict) else None
        if x is None:
            return []
    return x


def _sched(s):
    return s.get("schedule") or {}


def _outputs(s):
    return (s.get("update") or {}).get("outputs", [])


def _stat(i):
    return lambda s: [] if (s.get("update") or {}).get("stats") is None else [s["update"]["stats"][i]]


FIELDS = {
    "arrivals.count": lambda s: [len(s["arrivals"])],
    "aborts.count": lambda s: [len(s["aborts"])],
    "schedule.present": lambda s: ["schedule" in s],
    "schedule.num_scheduled_tokens.count": lambda s: [len(_sched(s)["num_scheduled_tokens"])] if _sched(s) else [],
    "schedule.num_scheduled_tokens.tokens": lambda s: [n for _, n in _sched(s).get("num_scheduled_tokens", [])],
    "schedule.total_num_scheduled_tokens": lambda s: [_sched(s)["total_num_scheduled_tokens"]] if _sched(s) else [],
    "schedule.new_reqs.count": lambda s: [len(_sched(s)["new_reqs"])] if _sched(s) else [],
    "schedule.new_reqs.num_computed_tokens": lambda s: [r[1] for r in _sched(s).get("new_reqs", [])],
    "schedule.new_reqs.blocks": lambda s: [len(g) for r in _sched(s).get("new_reqs", []) for g in r[2]],
    "schedule.cached_reqs.count": lambda s: [len(_sched(s)["cached_reqs"])] if _sched(s) else [],
    "schedule.cached_reqs.resumed": lambda s: [r[1] for r in _sched(s).get("cached_reqs", [])],
    "schedule.cached_reqs.num_computed_tokens": lambda s: [r[2] for r in _sched(s).get("cached_reqs", [])],
    "schedule.cached_reqs.new_block_ids": lambda s: [None if r[3] is None else len(r[3][0])
                                                    for r in _sched(s).get("cached_reqs", [])],
    "schedule.num_common_prefix_blocks": lambda s: list(_sched(s).get("num_common_prefix_blocks", [])),
    "schedule.finished_req_ids.count": lambda s: [len(_sched(s)["finished_req_ids"])] if _sched(s) else [],
    "schedule.preempted_req_ids.count": lambda s: [len(_sched(s)["preempted_req_ids"])] if _sched(s) else [],
    "sampled.tokens": lambda s: [len(t) for _, t in s.get("sampled", [])],
    "update.present": lambda s: ["update" in s],
    "update.of_lag": lambda s: [s["step"] - s["update"]["of"]] if "update" in s else [],
    "outputs.count": lambda s: [len(_outputs(s))] if "update" in s else [],
    "outputs.new_token_ids": lambda s: [len(o[1]) for o in _outputs(s)],
    "outputs.finish_reason": lambda s: [o[2] for o in _outputs(s)],
    "outputs.stop_reason": lambda s: [o[3] for o in _outputs(s)],
    "stats.num_running_reqs": _stat(0),
    "stats.num_waiting_reqs": _stat(1),
    "stats.num_skipped_waiting_reqs": _stat(2),
    "stats.kv_cache_usage": _stat(3),
    "stats.prefix_cache_queries": _stat(4),
    "stats.prefix_cache_hits": _stat(5),
    "state.running.count": lambda s: [len(s["state"]["running"])],
    "state.waiting.count": lambda s: [len(s["state"]["waiting"])],
    "state.num_free_blocks": lambda s: [s["state"]["num_free_blocks"]],
    "state.has_requests": lambda s: [s["state"]["has_requests"]],
    "state.request_counts": lambda s: [s["state"]["request_counts"]],
    "state.kv_cache_usage": lambda s: [s["state"]["kv_cache_usage"]],
    "reset.result": lambda s: [s["reset"]] if "reset" in s else [],
    "kv_events.count": lambda s: [len(s["kv_events"])] if "kv_events" in s else [],
    "kv_events.type": lambda s: [e[0] for e in s.get("kv_events", [])],
}
