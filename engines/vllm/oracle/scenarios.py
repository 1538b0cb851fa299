"""The vLLM oracle's scenarios (issue 10): designed ones, one per behaviour the port covers, and a seeded
generator of random ones. A scenario is plain data (JSON): the scheduler configuration as resolved
values, and requests with a prompt, an arrival step, an output length (delivered as a forced end of
sequence), max_tokens, a priority and an optional abort step. runner.py records each as a trace.
"""

from __future__ import annotations

import random

BASE = {"block_size": 16, "num_blocks": 64, "max_num_seqs": 8, "max_num_batched_tokens": 64,
        "max_model_len": 1024, "enable_prefix_caching": False, "enable_chunked_prefill": True,
        "long_prefill_token_threshold": 0, "policy": "fcfs", "kv_events": False}


def _cfg(**overrides):
    cfg = dict(BASE)
    cfg.update(overrides)
    return cfg


def _req(rid, prompt, arrival=0, out=4, max_tokens=64, **extra):
    r = {"id": rid, "prompt": list(prompt), "arrival_step": arrival, "output_len": out, "max_tokens": max_tokens}
    r.update(extra)
    return r


def _seq(start, n):
    return [start + i for i in range(n)]


def designed() -> list[dict]:
    s = []

    def add(name, cfg, reqs, what):
        s.append({"name": f"designed-{name}", "seed": 0, "what": what, "config": cfg, "requests": reqs})

    add("chunked-prefill", _cfg(max_num_batched_tokens=32),
        [_req("a", _seq(1, 100), out=3), _req("b", _seq(200, 20), arrival=1, out=5)],
        "a prompt longer than the token budget is prefilled in chunks; a later arrival shares the budget")
    add("partial-prefills", _cfg(max_num_batched_tokens=48, long_prefill_token_threshold=24),
        [_req("a", _seq(1, 90), out=2), _req("b", _seq(300, 70), out=2), _req("c", _seq(600, 10), arrival=2, out=6)],
        "long_prefill_token_threshold caps each prefill chunk; several partial prefills share a step")
    add("no-chunked-prefill", _cfg(enable_chunked_prefill=False, max_num_batched_tokens=128, max_model_len=128),
        [_req("a", _seq(1, 60), out=3), _req("b", _seq(100, 60), out=3), _req("c", _seq(200, 30), out=2)],
        "without chunked prefill a prompt that does not fit the remaining budget waits for the next step")
    add("preemption", _cfg(num_blocks=12, block_size=4, max_num_batched_tokens=64),
        [_req("a", _seq(1, 14), out=12), _req("b", _seq(100, 14), out=12), _req("c", _seq(200, 10), out=8)],
        "decodes outgrow the pool: the last running request is preempted (recompute) and resumed")
    add("prefix-within-step", _cfg(enable_prefix_caching=True, kv_events=True),
        [_req("a", _seq(1, 40), out=3), _req("b", _seq(1, 32) + _seq(500, 8), out=3)],
        "two requests with a shared prefix arrive in one step")
    add("prefix-across-steps", _cfg(enable_prefix_caching=True, kv_events=True),
        [_req("a", _seq(1, 40), out=3), _req("b", _seq(1, 36), arrival=2, out=3),
         _req("c", _seq(1, 48), arrival=9, out=2)],
        "a later request hits the blocks of a running one, and of a finished one (cached free blocks)")
    add("prefix-eviction", _cfg(enable_prefix_caching=True, kv_events=True, num_blocks=10, block_size=8),
        [_req("a", _seq(1, 32), out=2), _req("b", _seq(100, 32), arrival=4, out=2),
         _req("c", _seq(1, 32), arrival=8, out=2)],
        "cached blocks are evicted for new ones (BlockRemoved) and a later request misses")
    add("priority", _cfg(policy="priority", num_blocks=14, block_size=4),
        [_req("low", _seq(1, 20), out=10, priority=5), _req("mid", _seq(100, 20), arrival=1, out=6, priority=3),
         _req("high", _seq(200, 20), arrival=3, out=4, priority=0)],
        "priority scheduling: a higher-priority arrival preempts the lowest-priority running request")
    add("priority-ties", _cfg(policy="priority", max_num_seqs=2),
        [_req("a", _seq(1, 8), out=3, priority=1), _req("b", _seq(20, 8), out=3, priority=1),
         _req("c", _seq(40, 8), out=3, priority=0, arrival_time=-1.0)],
        "priority ties broken by arrival time; max_num_seqs bounds the running set")
    add("exact-fit", _cfg(num_blocks=5, block_size=4, max_num_batched_tokens=64),
        [_req("a", _seq(1, 15), out=2)],
        "a prompt whose prefill and first decode take exactly the usable blocks")
    add("one-block-over", _cfg(num_blocks=5, block_size=4, max_num_batched_tokens=64),
        [_req("a", _seq(1, 8), out=2), _req("b", _seq(100, 9), out=2)],
        "a request one block over the free blocks waits until blocks are freed")
    add("abort-mid-prefill", _cfg(max_num_batched_tokens=16),
        [_req("a", _seq(1, 64), out=3, abort_step=2), _req("b", _seq(100, 10), arrival=1, out=4),
         _req("c", _seq(200, 10), out=4, abort_step=0)],
        "a request aborted in the middle of its chunked prefill, and one aborted while waiting")
    add("length-caps", _cfg(max_model_len=40),
        [_req("a", _seq(1, 30), out=50, max_tokens=5), _req("b", _seq(100, 30), out=50, max_tokens=64),
         _req("c", _seq(200, 8), out=50, max_tokens=1)],
        "max_tokens and max_model_len end requests with reason length")
    add("max-num-seqs", _cfg(max_num_seqs=2),
        [_req(f"r{i}", _seq(10 * i, 6), arrival=i // 2, out=3 + i % 3) for i in range(6)],
        "more requests than max_num_seqs wait their turn")
    add("ignore-eos", _cfg(),
        [_req("a", _seq(1, 10), out=2, max_tokens=6, ignore_eos=True)],
        "ignore_eos: the forced end of sequence is not a stop, max_tokens ends the request")
    add("preemption-prefix", _cfg(num_blocks=14, block_size=4, enable_prefix_caching=True, kv_events=True),
        [_req("a", _seq(1, 16), out=14), _req("b", _seq(1, 16), out=14), _req("c", _seq(1, 12) + [99] * 4, out=10)],
        "preemption with prefix caching: a resumed request hits its own cached blocks")
    add("stop-token", _cfg(),
        [_req("a", _seq(1, 10), out=20, stop_token_ids=[1003]), _req("b", _seq(50, 10), out=20, stop_token_ids=[7])],
        "a stop token id ends a request with reason stop and the token as its stop reason")
    add("async-basic", _cfg(async_scheduling=True),
        [_req("a", _seq(1, 40), out=5), _req("b", _seq(100, 20), arrival=2, out=3)],
        "async scheduling: the next batch is scheduled before the previous one's output arrives (placeholders)")
    add("async-chunked", _cfg(async_scheduling=True, max_num_batched_tokens=16),
        [_req("a", _seq(1, 50), out=4), _req("b", _seq(100, 12), arrival=1, out=6)],
        "async scheduling with chunked prefill: a prefill chunk samples nothing")
    add("async-preemption", _cfg(async_scheduling=True, num_blocks=12, block_size=4),
        [_req("a", _seq(1, 14), out=12), _req("b", _seq(100, 14), out=12), _req("c", _seq(200, 10), out=8)],
        "async scheduling under memory pressure: a preempted request's in-flight output is stale")
    add("async-prefix-abort", _cfg(async_scheduling=True, enable_prefix_caching=True, kv_events=True),
        [_req("a", _seq(1, 40), out=6), _req("b", _seq(1, 36), arrival=2, out=3, abort_step=4),
         _req("c", _seq(1, 48), arrival=6, out=2, stop_token_ids=[1000])],
        "async scheduling with prefix caching, an abort while a batch is in flight, and a stop token")
    add("hybrid-sliding-window", _cfg(kv_groups=[{"kind": "full"}, {"kind": "sliding_window", "sliding_window": 16}],
                                      block_size=4, num_blocks=40, enable_prefix_caching=True, kv_events=True),
        [_req("a", _seq(1, 40), out=12), _req("b", _seq(1, 36) + [7, 8], arrival=3, out=6)],
        "a full-attention and a sliding-window group share the pool: out-of-window blocks are freed, a prefix hit "
        "must hold in both groups")
    add("sliding-window-only", _cfg(kv_groups=[{"kind": "sliding_window", "sliding_window": 8}], block_size=4,
                                    num_blocks=16, max_num_batched_tokens=16),
        [_req("a", _seq(1, 30), out=10), _req("b", _seq(100, 20), arrival=1, out=8)],
        "a sliding-window-only model: chunked prefill frees blocks that fall out of the window")
    add("chunked-local", _cfg(kv_groups=[{"kind": "full"}, {"kind": "chunked_local", "attention_chunk_size": 8}],
                              block_size=4, num_blocks=48, enable_prefix_caching=True),
        [_req("a", _seq(1, 30), out=6), _req("b", _seq(1, 28), arrival=2, out=4)],
        "chunked local attention beside full attention")
    add("reset-prefix-cache", _cfg(enable_prefix_caching=True, kv_events=True, block_size=4, num_blocks=32),
        [_req("a", _seq(1, 16), out=2), _req("b", _seq(1, 16), arrival=4, out=6), _req("c", _seq(1, 16), arrival=8, out=2)],
        "reset_prefix_cache: refused while blocks are in use, clears the cache once idle (AllBlocksCleared), and "
        "with reset_running_requests preempts the running requests first")
    s[-1]["resets"] = [{"step": 2}, {"step": 5}, {"step": 6, "reset_running_requests": True}]
    return s


def random_scenario(rng: random.Random, index: int, seed: int) -> dict:
    block_size = rng.choice([4, 8, 16])
    chunked = rng.random() < 0.85
    max_batched = rng.choice([16, 32, 48, 64, 128, 256])
    max_model_len = 512 if chunked else max_batched
    prompt_cap = min(200, max_model_len - 40) if chunked else max_batched - 24
    cfg = {
        "block_size": block_size,
        "num_blocks": rng.randint(6, 80),
        "max_num_seqs": rng.randint(1, 8),
        "max_num_batched_tokens": max_batched,
        "max_model_len": max_model_len,
        "enable_prefix_caching": rng.random() < 0.6,
        "enable_chunked_prefill": chunked,
        "long_prefill_token_threshold": rng.choice([0, 0, 0, 8, 24]) if chunked else 0,
        "policy": rng.choice(["fcfs", "fcfs", "priority"]),
        "kv_events": rng.random() < 0.5,
        "async_scheduling": rng.random() < 0.35,
    }
    r = rng.random()
    if r < 0.15:
        cfg["kv_groups"] = [{"kind": "full"}, {"kind": "sliding_window", "sliding_window": rng.choice([4, 8, 16, 32])}]
    elif r < 0.2:
        cfg["kv_groups"] = [{"kind": "sliding_window", "sliding_window": rng.choice([8, 16, 32])}]
    elif r < 0.25:
        cfg["kv_groups"] = [{"kind": "full"}, {"kind": "chunked_local", "attention_chunk_size": rng.choice([8, 16, 32])}]
    prefixes = [[rng.randint(1, 30000) for _ in range(rng.randint(4, 64))] for _ in range(rng.randint(1, 4))]
    reqs = []
    for i in range(rng.randint(1, 12)):
        prompt = list(rng.choice(prefixes)) if rng.random() < 0.6 else []
        prompt += [rng.randint(1, 30000) for _ in range(rng.randint(1, 64))]
        prompt = prompt[:max(1, prompt_cap)]
        out = rng.randint(1, 24)
        r = _req(f"r{i}", prompt, arrival=rng.randint(0, 24), out=out,
                 max_tokens=rng.choice([out, out + 8, max(1, out - 2), 64]), priority=rng.randint(0, 3))
        if rng.random() < 0.1:
            r["abort_step"] = r["arrival_step"] + rng.randint(0, 10)
        if rng.random() < 0.05:
            r["ignore_eos"] = True
        if rng.random() < 0.1:
            r["stop_token_ids"] = [1000 + rng.randint(0, 12)]
        reqs.append(r)
    out = {"name": f"random-{seed}-{index:04d}", "seed": seed, "what": "seeded random scenario", "config": cfg,
            "requests": reqs}
    if cfg["enable_prefix_caching"] and rng.random() < 0.15:
        out["resets"] = [{"step": rng.randint(0, 40), "reset_running_requests": rng.random() < 0.5}]
    return out


def random_scenarios(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    return [random_scenario(rng, i, seed) for i in range(count)]
