"""The SGLang oracle's scenarios (issue 10): designed ones, one per behaviour the port covers, and a seeded
generator of random ones. A scenario is plain data (JSON): the scheduler's resolved server arguments and
requests with a prompt, an arrival step, an output length (delivered as a forced end of sequence),
max_new_tokens, an optional priority, ignore_eos and an abort step; disable_overlap_schedule (absent: True,
the normal loop) chooses the event loop. runner.py records each as a trace.
Request ids are never a prefix of one another (upstream's abort_request matches rid prefixes).
"""

from __future__ import annotations

import random

BASE = {"page_size": 1, "max_total_num_tokens": 512, "max_running_requests": 8, "context_len": 1024,
        "max_prefill_tokens": 16384, "chunked_prefill_size": 64, "schedule_policy": "fcfs",
        "enable_priority_scheduling": False, "enable_mixed_chunk": False, "disable_radix_cache": False,
        "priority_scheduling_preemption_threshold": 10}


def _cfg(**overrides):
    cfg = dict(BASE)
    cfg.update(overrides)
    return cfg


def _req(rid, prompt, arrival=0, out=4, max_new_tokens=64, **extra):
    r = {"id": rid, "prompt": list(prompt), "arrival_step": arrival, "output_len": out,
         "max_new_tokens": max_new_tokens}
    r.update(extra)
    return r


def _seq(start, n):
    return [start + i for i in range(n)]


def designed() -> list[dict]:
    s = []

    def add(name, cfg, reqs, what):
        s.append({"name": f"designed-{name}", "seed": 0, "what": what, "config": cfg, "requests": reqs})

    add("chunked-prefill", _cfg(chunked_prefill_size=32),
        [_req("a", _seq(1, 100), out=3), _req("b", _seq(200, 20), arrival=1, out=5)],
        "a prompt longer than the chunk is prefilled in chunks; a later arrival joins the last chunk's batch")
    add("mixed-chunk", _cfg(chunked_prefill_size=32, enable_mixed_chunk=True),
        [_req("a", _seq(1, 20), out=12), _req("b", _seq(300, 90), arrival=2, out=3),
         _req("c", _seq(600, 10), arrival=3, out=4)],
        "mixed chunked prefill: running decodes ride along with a prefill chunk (forward mode MIXED)")
    add("no-chunking", _cfg(chunked_prefill_size=-1, max_prefill_tokens=64),
        [_req("a", _seq(1, 60), out=3), _req("b", _seq(100, 60), out=3), _req("c", _seq(200, 30), out=2)],
        "chunked prefill off: max_prefill_tokens bounds a prefill batch; a prompt that does not fit waits")
    add("prefix-within-step", _cfg(),
        [_req("a", _seq(1, 40), out=3), _req("b", _seq(1, 32) + _seq(500, 8), out=3)],
        "two requests with a shared prefix arrive in one step (in-batch prefix caching)")
    add("prefix-across-steps", _cfg(),
        [_req("a", _seq(1, 40), out=3), _req("b", _seq(1, 36), arrival=2, out=3),
         _req("c", _seq(1, 48), arrival=9, out=2)],
        "a later request hits the radix-cache nodes of a running one, and of a finished one")
    add("lpm", _cfg(schedule_policy="lpm", max_running_requests=2),
        [_req("a", _seq(1, 40), out=6), _req("b", _seq(1000, 30), arrival=1, out=3),
         _req("c", _seq(1, 36), arrival=1, out=3), _req("d", _seq(2000, 20), arrival=1, out=3)],
        "longest-prefix-match policy reorders the waiting queue by cached prefix length")
    add("dfs-weight", _cfg(schedule_policy="dfs-weight", max_running_requests=2),
        [_req("a", _seq(1, 40), out=6), _req("b", _seq(1000, 30), arrival=1, out=3),
         _req("c", _seq(1, 36), arrival=1, out=3), _req("d", _seq(1, 20) + [7777] * 4, arrival=1, out=3)],
        "dfs-weight policy orders the waiting queue by the radix tree's weights")
    add("eviction", _cfg(max_total_num_tokens=96),
        [_req("a", _seq(1, 40), out=2), _req("b", _seq(100, 40), arrival=4, out=2),
         _req("c", _seq(200, 40), arrival=8, out=2), _req("d", _seq(1, 40), arrival=12, out=2)],
        "a small pool: finished requests' cached nodes are evicted for new ones, and a later request misses")
    add("retraction", _cfg(max_total_num_tokens=128, chunked_prefill_size=128),
        [_req("a", _seq(1, 8), out=40, max_new_tokens=40), _req("b", _seq(100, 8), out=40, max_new_tokens=40),
         _req("c", _seq(200, 8), out=40, max_new_tokens=40), _req("d", _seq(300, 8), out=40, max_new_tokens=40)],
        "decodes outgrow the pool: check_decode_mem fails and retract_decode re-queues requests")
    add("priority-preemption", _cfg(enable_priority_scheduling=True, max_running_requests=2,
                                    priority_scheduling_preemption_threshold=1),
        [_req("low", _seq(1, 20), out=20, priority=1), _req("mid", _seq(100, 20), out=20, priority=2),
         _req("high", _seq(200, 20), arrival=3, out=4, priority=9)],
        "priority scheduling: a higher-priority arrival preempts the lowest-priority running request")
    add("priority-order", _cfg(enable_priority_scheduling=True, max_running_requests=1),
        [_req("p0", _seq(1, 8), out=3, priority=0), _req("p1", _seq(20, 8), arrival=1, out=3, priority=5),
         _req("p2", _seq(40, 8), arrival=1, out=3, priority=1), _req("p3", _seq(60, 8), arrival=1, out=3, priority=5)],
        "priority ordering of the waiting queue, ties by arrival")
    add("exact-fit", _cfg(max_total_num_tokens=40, chunked_prefill_size=-1, context_len=64),
        [_req("a", _seq(1, 30), out=3, max_new_tokens=3)],
        "a prompt whose input and reserved output exactly fill the admission budget")
    add("one-page-over", _cfg(max_total_num_tokens=40, chunked_prefill_size=-1, context_len=64, page_size=4),
        [_req("a", _seq(1, 16), out=2, max_new_tokens=4), _req("b", _seq(100, 17), out=2, max_new_tokens=4)],
        "with pages of 4, a request one page over the free pages waits until pages are freed")
    add("abort-in-queue-and-mid-prefill", _cfg(chunked_prefill_size=16),
        [_req("a", _seq(1, 64), out=3, abort_step=2), _req("b", _seq(100, 10), arrival=1, out=4),
         _req("c", _seq(200, 10), out=4, abort_step=0), _req("d", _seq(300, 10), arrival=1, out=6, abort_step=4)],
        "a request aborted in the middle of its chunked prefill, one aborted while waiting, one while decoding")
    add("paged", _cfg(page_size=16, max_total_num_tokens=512, chunked_prefill_size=48),
        [_req("a", _seq(1, 70), out=5), _req("b", _seq(1, 40), arrival=1, out=4),
         _req("c", _seq(1, 70) + _seq(900, 10), arrival=8, out=3)],
        "page_size 16: page-aligned prefix matches and paged allocation")
    add("length-caps", _cfg(context_len=48),
        [_req("a", _seq(1, 30), out=50, max_new_tokens=5), _req("b", _seq(100, 30), out=50),
         _req("c", _seq(200, 8), out=50, max_new_tokens=1), _req("d", _seq(300, 6), out=3, ignore_eos=True,
                                                                 max_new_tokens=6)],
        "max_new_tokens and the context length end requests with reason length; ignore_eos")
    add("max-running", _cfg(max_running_requests=2),
        [_req(f"r{i}x", _seq(10 * i + 1, 6), arrival=i // 2, out=3 + i % 3) for i in range(6)],
        "more requests than max_running_requests wait their turn")
    add("no-radix-cache", _cfg(disable_radix_cache=True, chunked_prefill_size=-1),
        [_req("a", _seq(1, 40), out=3), _req("b", _seq(1, 40), arrival=1, out=3)],
        "the radix cache disabled (RadixCache(disable=True): chunked prefill off, else upstream builds a ChunkCache,\n"
        "which the port refuses): no prefix is shared")
    # The radix cache's other eviction policies (server_args' radix_eviction_policy choices): the eviction scenario
    # again, and one where a prefix is hit twice, so frequency, segment and priority orders differ from recency.
    for policy in ("lfu", "slru", "priority"):
        add(f"eviction-{policy}", _cfg(max_total_num_tokens=96, radix_eviction_policy=policy),
            [_req("a", _seq(1, 40), out=2, priority=2), _req("b", _seq(100, 40), arrival=4, out=2, priority=0),
             _req("a2", _seq(1, 40), arrival=7, out=2, priority=1),
             _req("c", _seq(200, 40), arrival=10, out=2, priority=0),
             _req("d", _seq(300, 40), arrival=14, out=2, priority=1), _req("e", _seq(100, 40), arrival=18, out=2)],
            f"radix_eviction_policy {policy}: a small pool evicts finished requests' nodes in the policy's order "
            "(one prefix hit twice, requests of several priorities)")
    # The overlap schedule (server_args' default; event_loop_overlap): the next batch is scheduled and launched
    # before the last one's result is processed, so a request that finished in the last batch is in the next one
    # too (its row is skipped), and a mixed batch's prefix lengths count no in-flight token. The same scenarios
    # again, under that loop.
    for name in ("chunked-prefill", "mixed-chunk", "prefix-across-steps", "eviction", "retraction",
                 "priority-preemption", "abort-in-queue-and-mid-prefill", "paged", "length-caps", "max-running"):
        base = next(x for x in s if x["name"] == f"designed-{name}")
        add(f"overlap-{name}", dict(base["config"], disable_overlap_schedule=False), base["requests"],
            base["what"] + "; under the overlap schedule")
    return s


def random_scenario(rng: random.Random, index: int, seed: int) -> dict:
    page = rng.choice([1, 1, 1, 4, 16])
    chunked = rng.choice([-1, 16, 32, 64, 128, 256])
    context_len = 512
    cfg = {
        "page_size": page,
        "max_total_num_tokens": rng.choice([64, 128, 192, 256, 512, 1024]),
        "max_running_requests": rng.randint(1, 8),
        "context_len": context_len,
        "max_prefill_tokens": rng.choice([64, 128, 16384]),
        "chunked_prefill_size": chunked,
        "schedule_policy": rng.choice(["fcfs", "fcfs", "lpm", "dfs-weight", "lof"]),
        "enable_priority_scheduling": rng.random() < 0.3,
        "enable_mixed_chunk": chunked > 0 and rng.random() < 0.3,
        "disable_radix_cache": chunked < 0 and rng.random() < 0.3,
        "priority_scheduling_preemption_threshold": rng.choice([0, 1, 10]),
    }
    prefixes = [[rng.randint(3, 30000) for _ in range(rng.randint(4, 64))] for _ in range(rng.randint(1, 4))]
    reqs = []
    for i in range(rng.randint(1, 12)):
        prompt = list(rng.choice(prefixes)) if rng.random() < 0.6 else []
        prompt += [rng.randint(3, 30000) for _ in range(rng.randint(1, 64))]
        prompt = prompt[:160]
        out = rng.randint(1, 24)
        r = _req(f"r{i:02d}", prompt, arrival=rng.randint(0, 24), out=out,
                 max_new_tokens=rng.choice([out, out + 8, max(1, out - 2), 64]))
        if cfg["enable_priority_scheduling"]:
            r["priority"] = rng.randint(0, 3)
        if rng.random() < 0.1:
            r["abort_step"] = r["arrival_step"] + rng.randint(0, 10)
        if rng.random() < 0.05:
            r["ignore_eos"] = True
        reqs.append(r)
    if seed != 1:
        # Seed 1's scenarios predate the overlap loop (drawn last, so their other draws are unchanged); later seeds
        # run event_loop_overlap (server_args' default) in most scenarios.
        cfg["disable_overlap_schedule"] = rng.random() < 0.25
    return {"name": f"random-{seed}-{index:04d}", "seed": seed, "what": "seeded random scenario", "config": cfg,
            "requests": reqs}


def random_scenarios(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    return [random_scenario(rng, i, seed) for i in range(count)]
