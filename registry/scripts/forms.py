"""The pricing forms the fitting scripts share with the cost model (src/cost/): one place, Python side.

Both sides compute the same numbers (the agreement test compares them at relative 1e-9 on
registry/scripts/test/fixtures/agreement.json). The FLOP and byte formulas are registry/families.yaml's.

- Data formats: payload bits, scale bits, block elements; stored_bytes and b(x).
- The device time of a compute primitive (gemm, moe.grouped_gemm, attention.*):
      t = latency + max(F / (compute_rate * compute_efficiency(x)), B / (memory_rate * memory_efficiency(x)))
  (memory-only families: the memory term alone, no latency).
- Collectives: t = latency + bus_bytes / (link_rate * link_efficiency(x)).
- Curves (schema Curve): multilinear interpolation in scaled coordinates (log2 or linear per axis),
  a coordinate beyond an axis end taking the end value.

Attention inputs that are sums over requests (new_tokens, cached_tokens, query_tokens, context_tokens)
are the per-step totals; the FLOP and byte formulas need the per-request values, which a caller gives as
`per_request` (a list of (new, cached) or (query, context) pairs); without it the batch is taken as
uniform (every request holds totals / requests).
"""
from __future__ import annotations

import math

# name: (payload bits, scale bits, block elements)
FORMATS = {
    "bf16": (16, 0, 1), "fp16": (16, 0, 1), "tf32": (32, 0, 1), "fp32": (32, 0, 1),
    "fp8": (8, 0, 1), "fp8_block": (8, 32, 128), "int8": (8, 0, 1),
    "nvfp4": (4, 8, 16), "mxfp4": (4, 8, 32), "int4_group128": (4, 16, 128),
}
# The compute dtype (registry scope `dtype`, the chip's dense_peak key) of a format; None: the activation's.
COMPUTE_DTYPE = {"bf16": "bf16", "fp16": "fp16", "tf32": "tf32", "fp32": "tf32", "fp8": "fp8",
                 "fp8_block": "fp8", "int8": "int8", "nvfp4": "fp4", "mxfp4": "fp4", "int4_group128": None}

COMPUTE_FAMILIES = ("gemm", "moe.grouped_gemm", "attention.prefill", "attention.decode",
                    "attention.mla_prefill", "attention.mla_decode")
LINK_FAMILIES = ("collective.all_reduce", "collective.all_gather", "collective.reduce_scatter",
                 "collective.all_to_all", "p2p.send_recv")


class FormError(ValueError):
    pass


def _fmt(name: str) -> tuple[int, int, int]:
    try:
        return FORMATS[name]
    except KeyError:
        raise FormError(f"format {name!r} is not a known data format (known: {', '.join(sorted(FORMATS))})") from None


def stored_bytes(elements: int, fmt: str) -> int:
    """Bytes that `elements` values of format `fmt` occupy, scales included (integer arithmetic)."""
    payload, scale, block = _fmt(fmt)
    out = -(-elements * payload // 8)
    if scale > 0:
        out += -(-elements // block) * scale // 8
    return out


def b(fmt: str) -> float:
    """Bytes per element as a real: payload_bits/8 + scale_bits/(8*block)."""
    payload, scale, block = _fmt(fmt)
    return payload / 8 + (scale / (8 * block) if scale else 0.0)


def compute_dtype(formats: dict) -> str:
    """The dtype a compute primitive runs its math in: the weight's (GEMM) or the activation's format."""
    main = formats.get("w") or formats.get("act")
    d = COMPUTE_DTYPE[main] if main in COMPUTE_DTYPE else None
    if d is None:
        d = COMPUTE_DTYPE.get(formats.get("act"))
    if d is None:
        raise FormError(f"formats {formats}: no compute dtype")
    return d


def _pairs(inp: dict, a: str, c: str) -> list[tuple[float, float]]:
    pr = inp.get("per_request")
    if pr:
        return [(float(x), float(y)) for x, y in pr]
    r = inp["requests"]
    return [(inp[a] / r, inp[c] / r)] * int(r)


def flops_bytes(family: str, inp: dict, fm: dict) -> tuple[float, float]:
    """(FLOPs, bytes) of one call, registry/families.yaml's formulas."""
    if family == "gemm":
        m, n, k = inp["m"], inp["n"], inp["k"]
        return 2.0 * m * n * k, m * k * b(fm["act"]) + k * n * b(fm["w"]) + m * n * b(fm["out"])
    if family == "moe.grouped_gemm":
        rt, ae, n, k = inp["routed_tokens"], inp["active_experts"], inp["n"], inp["k"]
        return 2.0 * rt * n * k, ae * n * k * b(fm["w"]) + rt * (k * b(fm["act"]) + n * b(fm["out"]))
    if family == "attention.prefill":
        hq, hkv, d = inp["heads_q"], inp["heads_kv"], inp["head_dim"]
        pairs = _pairs(inp, "new_tokens", "cached_tokens")
        s = sum(nw * (cd + (nw + 1) / 2) for nw, cd in pairs)
        return (4.0 * hq * d * s,
                2.0 * hq * d * b(fm["act"]) * sum(nw for nw, _ in pairs)
                + 2.0 * hkv * d * b(fm["kv"]) * sum(cd + nw for nw, cd in pairs))
    if family == "attention.decode":
        hq, hkv, d = inp["heads_q"], inp["heads_kv"], inp["head_dim"]
        pairs = _pairs(inp, "query_tokens", "context_tokens")
        return (4.0 * hq * d * sum(q * c for q, c in pairs),
                2.0 * hkv * d * b(fm["kv"]) * sum(c for _, c in pairs)
                + 2.0 * hq * d * b(fm["act"]) * sum(q for q, _ in pairs))
    if family == "attention.mla_prefill":
        h, dqk, dv = inp["heads"], inp["qk_head_dim"], inp["v_head_dim"]
        pairs = _pairs(inp, "new_tokens", "cached_tokens")
        s = sum(nw * (cd + (nw + 1) / 2) for nw, cd in pairs)
        return (2.0 * h * (dqk + dv) * s,
                h * (dqk + dv) * b(fm["act"]) * sum(cd + 2 * nw for nw, cd in pairs))
    if family == "attention.mla_decode":
        h, r, rd = inp["heads"], inp["kv_lora_rank"], inp["rope_dim"]
        pairs = _pairs(inp, "query_tokens", "context_tokens")
        return (2.0 * h * (2 * r + rd) * sum(q * c for q, c in pairs),
                (r + rd) * b(fm["kv"]) * sum(c for _, c in pairs)
                + h * (2 * r + rd) * b(fm["act"]) * sum(q for q, _ in pairs))
    raise FormError(f"family {family!r} has no compute form here")


def bus_bytes(family: str, inp: dict) -> float:
    s = float(inp["bytes"])
    if family == "p2p.send_recv":
        return s
    n = inp["group_size"]
    if family == "collective.all_reduce":
        return 2.0 * (n - 1) / n * s
    if family in ("collective.all_gather", "collective.reduce_scatter", "collective.all_to_all"):
        return (n - 1) / n * s
    raise FormError(f"family {family!r} has no link form here")


# --- curves -------------------------------------------------------------------------------------------

def coordinate(axis: dict, x: float) -> float:
    if axis["scale"] == "log2":
        if x < 0:
            raise FormError(f"input {axis['input']} = {x}: negative, and a log2 axis reads it")
        return math.log2(x) if x > 0 else -math.inf  # zero lies below every point: the low end is held
    return float(x)


def corners(axes: list[dict], point: dict) -> list[tuple[int, float]]:
    """The grid cells (row-major index) and weights of the multilinear interpolation at `point`."""
    out = [(0, 1.0)]
    for ax in axes:
        pts = ax["points"]
        c = coordinate(ax, point[ax["input"]])
        size = len(pts)
        if c <= pts[0]:
            segs = [(0, 1.0)]
        elif c >= pts[-1]:
            segs = [(size - 1, 1.0)]
        else:
            i = 0
            while pts[i + 1] < c:
                i += 1
            t = (c - pts[i]) / (pts[i + 1] - pts[i])
            segs = [(i, 1.0 - t), (i + 1, t)] if t > 0 else [(i, 1.0)]
        out = [(idx * size + j, w * wj) for idx, w in out for j, wj in segs]
    return out


def curve_value(curve: dict, point: dict) -> float:
    vals = curve["values"]
    return sum(w * vals[i] for i, w in corners(curve["axes"], point))


def coefficient(entry, point: dict) -> float:
    """An entry's coefficient at a point: its curve there, or its scalar value; a plain number (a fixed
    coefficient, such as the floor's efficiency 1 or latency 0) is itself."""
    if not isinstance(entry, dict):
        return float(entry)
    if entry.get("curve"):
        return curve_value(entry["curve"], point)
    return float(entry["value"])


# --- device time -------------------------------------------------------------------------------------

def roofline_time(family: str, inp: dict, fm: dict, compute_rate: float, memory_rate: float,
                  memory_only: bool = False) -> float:
    f, by = flops_bytes(family, inp, fm)
    tm = by / memory_rate
    return tm if memory_only else max(f / compute_rate, tm)


def compute_time(family: str, inp: dict, fm: dict, compute_rate: float, memory_rate: float,
                 compute_eff: float, memory_eff: float, memory_only: bool = False, latency: float = 0.0) -> float:
    f, by = flops_bytes(family, inp, fm)
    tm = by / (memory_rate * memory_eff)
    return tm if memory_only else latency + max(f / (compute_rate * compute_eff), tm)


def link_time(family: str, inp: dict, link_rate: float, link_eff: float, latency: float) -> float:
    return latency + bus_bytes(family, inp) / (link_rate * link_eff)
