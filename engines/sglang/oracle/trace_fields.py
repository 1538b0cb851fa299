"""The fields of an SGLang oracle trace's step record that the replay compares, each as a function from one
step to the values it takes there (FID-10: checks/harness/oracle/check_traces.py coverage --fields this file)."""


def _batch(s):
    return s.get("batch") or {}


# The SGLang oracle's step record (engines/sglang/oracle/runner.py): the batch the scheduler chose, what the sampled
# tokens did, retractions, requests ended outside a batch, the scheduler's state after the step, and the KV-cache
# events published in the step ([type, ...]: runner.py Oracle.event_record).
def _stored(s):
    return [e for e in s.get("kv_events", []) if e[0] == "BlockStored"]


FIELDS = {
    "arrivals.count": lambda s: [len(s["arrivals"])],
    "aborts.count": lambda s: [len(s["aborts"])],
    "batch.present": lambda s: [s["batch"] is not None],
    "batch.forward_mode": lambda s: [_batch(s)["forward_mode"]] if _batch(s) else [],
    "batch.rids.count": lambda s: [len(_batch(s)["rids"])] if _batch(s) else [],
    "batch.prefix_lens": lambda s: list(_batch(s).get("prefix_lens", [])),
    "batch.extend_lens": lambda s: list(_batch(s).get("extend_lens", [])),
    "batch.chunked_req.present": lambda s: [_batch(s)["chunked_req"] is not None] if _batch(s) else [],
    "batch.decoding_reqs.count": lambda s: [len(_batch(s)["decoding_reqs"])] if _batch(s) else [],
    "sampled.count": lambda s: [len(s["sampled"])],
    "processed.emitted.count": lambda s: [len(s["processed"]["emitted"])],
    "processed.emitted.tokens": lambda s: [n for _, n in s["processed"]["emitted"]],
    "processed.finished.reason": lambda s: [r for _, r in s["processed"]["finished"]],
    "retracted.count": lambda s: [len(s["retracted"])],
    "ended_outside.count": lambda s: [len(s["ended_outside"])],
    "ended_outside.type": lambda s: [t for _, t in s["ended_outside"]],
    "state.waiting.count": lambda s: [len(s["state"]["waiting"])],
    "state.running.count": lambda s: [len(s["state"]["running"])],
    "state.new_token_ratio": lambda s: [s["state"]["new_token_ratio"]],
    "state.available_size": lambda s: [s["state"]["available_size"]],
    "state.evictable_size": lambda s: [s["state"]["evictable_size"]],
    "state.protected_size": lambda s: [s["state"]["protected_size"]],
    "kv_events.count": lambda s: [len(s["kv_events"])],
    "kv_events.type": lambda s: [e[0] for e in s["kv_events"]],
    "kv_events.block_hashes.count": lambda s: [len(e[1]) for e in s["kv_events"] if e[0] != "AllBlocksCleared"],
    "kv_events.stored.parent.present": lambda s: [e[2] is not None for e in _stored(s)],
    "kv_events.stored.token_ids.count": lambda s: [len(e[3]) for e in _stored(s)],
    "kv_events.stored.block_size": lambda s: [e[4] for e in _stored(s)],
    "kv_events.stored.lora_id": lambda s: [e[5] for e in _stored(s)],
    "kv_events.medium": lambda s: [e[6] if e[0] == "BlockStored" else e[2] for e in s["kv_events"]
                                   if e[0] != "AllBlocksCleared"],
}
