"""Reads the operator tables of ../shared/data (ai-dynamo/aiconfigurator, Apache-2.0) into family rows.

Each table becomes rows (unit ID, family inputs, data formats, measured seconds) grouped into units
(units.py: whole sweeps). The tables are found by glob under <data>/<chip>/: the harness directory
between the operation and the release directory is never named here, and it is left out of unit IDs:
a table's ID is `<operation>/<release>/<table name>` (two tables with one ID are refused). Kernel names
lose the harness's own prefix (the table's `framework` column): they name a kernel, not an engine.

What each table times, read from the collector at commit 095f58a51c4c (see registry/README.md):
- gemm_perf: one linear-layer call (CUDA events around the op), latency ms per (kernel, dtype, m, n, k);
- context_attention_perf / generation_attention_perf: the attention kernel alone;
- moe_perf: the whole fused expert layer (routing permute, both expert GEMMs, activation, combine):
  more than moe.grouped_gemm covers, so fitted as calibrated;
- context_mla_perf / generation_mla_perf: the latent-attention kernel alone (absorbed form, one latent
  KV head of kv_lora_rank + rope_dim); the *_module_perf tables time the whole module with its
  projections and are not used;
- nccl_perf: nccl-tests, message_size = the test's size in elements (the gathered output for
  all-gather, the input for reduce-scatter and all-reduce);
- custom_allreduce_perf: the harness's own custom all-reduce kernel; the graph-captured rows.
"""
from __future__ import annotations

import csv
import dataclasses
import glob
import hashlib
import os
import re

import forms
import units

# The operator tables' chips -> catalog chips.
CHIPS = {"h100_sxm": "H100-SXM", "h200_sxm": "H200-SXM", "b200_sxm": "B200", "a100_sxm": "A100-SXM-80GB"}
SUBDIR = "ai-dynamo/aiconfigurator/aic-core/src/aiconfigurator_core/systems/data"
HARNESS = "aiconfigurator-collector"

DTYPES = {"bfloat16": "bf16", "float16": "fp16", "half": "fp16", "fp8": "fp8", "fp8_block": "fp8_block",
          "nvfp4": "nvfp4", "int8": "int8"}
ELEMENT_BYTES = {"fp16": 2, "bf16": 2, "int8": 1}

# Third-party kernel libraries, recognized by the (prefix-stripped) kernel name: (pattern, library).
LIBRARIES = [
    (r"^torch\.", "torch"),
    (r"^flash_attn|^flash_attention$|^FLASH_ATTN", "flash-attn"),
    (r"^DeepGemm", "deep-gemm"),
    (r"^FlashInfer|flashinfer", "flashinfer"),
    (r"^trtllm_mla$", "flashinfer"),
    (r"^NCCL$", "nccl"),
]


@dataclasses.dataclass
class Row:
    unit: str
    inputs: dict
    formats: dict
    seconds: float
    raw: dict = dataclasses.field(default=None, repr=False, compare=False)  # the table's row


@dataclasses.dataclass
class Table:
    """One table's rows for one family and kernel."""
    family: str
    chip: str            # catalog chip
    aic_chip: str        # the tables' chip directory
    table: str           # table ID (operation/release/name)
    path: str            # the file, relative to the data root
    library: str
    variant: str
    dtype: str           # compute dtype (scope)
    fmt: str             # the table's data format name (e.g. fp8_block)
    method: str          # measured | calibrated
    note: str
    rows: list
    kv: str = ""         # the cache format when its kernel is an instantiation of its own (_kv_format)

    def identity_text(self) -> str:
        return identity_text(self.aic_chip, self.table, self.variant)

    def code_hash(self) -> str:
        return code_hash(self.aic_chip, self.table, self.variant)

    def units(self) -> dict:
        out: dict[str, list[Row]] = {}
        for r in self.rows:
            out.setdefault(r.unit, []).append(r)
        return out


def identity_text(aic_chip: str, table: str, variant: str) -> str:
    """The measurement identity of a kernel: table (operation, release, name), kernel and chip. Not a
    source hash: the tables record none (registry/README.md)."""
    return f"aic-kernel-identity:{aic_chip}:{table}:{variant}"


def code_hash(aic_chip: str, table: str, variant: str) -> str:
    return "sha256:" + hashlib.sha256(identity_text(aic_chip, table, variant).encode("utf-8")).hexdigest()


def unit_identity(uid: str) -> str:
    """The kernel identity hash a unit's ID implies (its first sweep-key part is the kernel)."""
    _, chip, table, key = uid.split(":", 3)
    return code_hash(chip, table, key.split("/", 1)[0])


def strip_framework(kernel: str, framework: str) -> str:
    fw = re.sub(r"[^a-z0-9]", "", framework.lower())
    m = re.match(r"^([A-Za-z0-9]+)[_\-](.*)$", kernel)
    if fw and m and m.group(1).lower() == fw:
        return m.group(2)
    return kernel


def library_of(kernel: str, framework: str) -> str:
    for pat, lib in LIBRARIES:
        if re.search(pat, kernel):
            return lib
    # Otherwise the harness's own kernels: its kernel library (design §6.2 names them <engine>-csrc).
    return re.sub(r"[^a-z0-9]", "", framework.lower()) + "-csrc"


def data_root(base: str) -> str:
    return os.path.join(base, SUBDIR)


def _read(path: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _table_id(rel: str) -> tuple[str, str]:
    """(aic chip, table ID) of a table path relative to the data root: <chip>/<op>/<harness>/<release>/<name>.csv"""
    parts = rel[:-4].split("/")
    chip, op, rest = parts[0], parts[1], parts[2:]
    if op == "comm" and rest[0] == "nccl":
        return chip, "/".join(["comm", "nccl"] + rest[1:])
    return chip, "/".join([op] + rest[1:])


def _meta(rows: list[dict]) -> str:
    r = rows[0] if rows else {}
    return r.get("framework", "")


def _find(root: str, aic_chip: str, pattern: str) -> list[str]:
    return sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, aic_chip, pattern)))


def _latest(paths: list[str]) -> list[str]:
    """Of tables differing only in release, the newest release (versions compared numerically)."""
    def key(p):
        rel = p.split("/")[-2]
        return [int(x) if x.isdigit() else -1 for x in re.split(r"[.]", rel)]
    by: dict[tuple, list[str]] = {}
    for p in paths:
        parts = p.split("/")
        by.setdefault((parts[1], parts[2], parts[-1]), []).append(p)
    return [max(v, key=key) for _, v in sorted(by.items())]


def context_bucket(length: int) -> str:
    """The context bucket of a sequence length: three octaves wide ([1, 8), [8, 64), [64, 512), ...)."""
    k = (length.bit_length() - 1) // 3
    return f"ctx{8 ** k}-{8 ** (k + 1) - 1}"


def _ms(v: str) -> float:
    return float(v) * 1e-3


def load(base: str, chips: list[str] | None = None) -> list[Table]:
    """Every table this fit reads, for the chips present under <base>/SUBDIR."""
    root = data_root(base)
    out: list[Table] = []
    seen: dict[tuple, str] = {}
    for aic_chip in sorted(CHIPS):
        if chips and CHIPS[aic_chip] not in chips:
            continue
        if not os.path.isdir(os.path.join(root, aic_chip)):
            continue
        found = []
        found += [("gemm", p) for p in _latest(_find(root, aic_chip, "gemm/*/*/gemm_perf.csv"))]
        found += [("prefill", p) for p in _latest(_find(root, aic_chip, "attention/*/*/context_attention_perf.csv"))]
        found += [("decode", p) for p in _latest(_find(root, aic_chip, "attention/*/*/generation_attention_perf.csv"))]
        found += [("moe", p) for p in _latest(_find(root, aic_chip, "moe/*/*/moe_perf.csv"))]
        found += [("mla_prefill", p) for p in _latest(_find(root, aic_chip, "mla/*/*/context_mla_perf.csv"))]
        found += [("mla_decode", p) for p in _latest(_find(root, aic_chip, "mla/*/*/generation_mla_perf.csv"))]
        nccl = _find(root, aic_chip, "comm/nccl/*/nccl_perf.csv")
        if nccl:  # the largest table (the most complete sweep) of the chip
            found.append(("nccl", max(nccl, key=lambda p: (os.path.getsize(os.path.join(root, p)), p))))
        found += [("custom_ar", p) for p in _latest(_find(root, aic_chip, "comm/*/*/custom_allreduce_perf.csv"))]
        for kind, rel in found:
            chip, tid = _table_id(rel)
            if (chip, tid) in seen and seen[(chip, tid)] != rel:
                raise SystemExit(f"aicdata: tables {seen[(chip, tid)]} and {rel} have one table ID {tid}")
            seen[(chip, tid)] = rel
            out += READERS[kind](root, rel, aic_chip, tid)
    return main_kernels(out)


def main_kernels(tables: list[Table]) -> list[Table]:
    """Per chip, family, data format and cache format, the kernel the table measured most rows of (ties: by name)."""
    best: dict[tuple, Table] = {}
    for t in tables:
        k = (t.chip, t.family, t.fmt, t.kv)
        if k not in best or (len(t.rows), t.variant) > (len(best[k].rows), best[k].variant):
            best[k] = t
    return [t for t in tables if best[(t.chip, t.family, t.fmt, t.kv)] is t]


def _group(rows: list[dict], key) -> dict:
    out: dict = {}
    for r in rows:
        k = key(r)
        if k is not None:
            out.setdefault(k, []).append(r)
    return out


def _kv_format(act: str, kv: str) -> str:
    """The cache format when it differs from the math's (a kernel of its own), else ""."""
    return "" if DTYPES[kv] == DTYPES[act] else DTYPES[kv]


def _tables(family, rel, aic_chip, tid, rows, kernel_key, build, method="measured", note="", library=None):
    """Splits rows by (kernel, data format) into Tables; build(row, variant) -> (key parts, inputs, formats) or None."""
    out = []
    fw = _meta(rows)
    for key, group in sorted(_group(rows, kernel_key).items()):
        ks, fmt = key[0], key[1]
        base = units.clean(strip_framework(ks, fw))
        lib = library or library_of(base, fw)
        # A third key part names a cache format other than the math's: its own kernel instantiation
        # (the fp8-cache attention kernels dequantize in the inner loop and run slower than the bf16
        # ones on the same shapes), so its own table, variant `<kernel>.kv-<format>` and kernel identity;
        # its unit IDs name that variant, as every unit ID names its kernel (check_registry.py, D5).
        variant = base + (f".kv-{key[2]}" if len(key) > 2 and key[2] else "")
        frows = []
        for r in group:
            b = build(r)
            if b is None:
                continue
            parts, inputs, formats = b
            uid = units.unit_id(aic_chip, tid, [variant] + parts)
            frows.append(Row(uid, inputs, formats, _ms(r["latency"]), r))
        if not frows:
            continue
        out.append(Table(family, CHIPS[aic_chip], aic_chip, tid, rel, lib, variant,
                         forms.compute_dtype(frows[0].formats) if frows[0].formats else "",
                         fmt, method, note, frows, key[2] if len(key) > 2 else ""))
    return out


def _gemm(root, rel, aic_chip, tid):
    rows = _read(os.path.join(root, rel))

    def build(r):
        fmt = DTYPES[r["gemm_dtype"]]
        out = "bf16"
        fm = {"act": fmt, "w": fmt, "out": fmt if fmt in ("bf16", "fp16") else out}
        n, k = int(r["n"]), int(r["k"])
        return [fmt, f"n{n}", f"k{k}"], {"m": int(r["m"]), "n": n, "k": k}, fm
    return _tables("gemm", rel, aic_chip, tid, rows,
                   lambda r: (r["kernel_source"], r["gemm_dtype"]) if r["gemm_dtype"] in DTYPES else None, build)


def _attention(phase):
    def read(root, rel, aic_chip, tid):
        rows = [r for r in _read(os.path.join(root, rel))
                if r.get("window_size", "0") == "0" and r.get("beam_width", "1") == "1" and r["attn_dtype"] in DTYPES
                and r["kv_cache_dtype"] in DTYPES]

        def build(r):
            a, kv = DTYPES[r["attn_dtype"]], DTYPES[r["kv_cache_dtype"]]
            bsz, hq, hkv, d = int(r["batch_size"]), int(r["num_heads"]), int(r["num_key_value_heads"]), int(r["head_dim"])
            if phase == "prefill":
                isl, cached = int(r["isl"]), int(r["step"])
                parts = [a, kv, f"h{hq}", f"kv{hkv}", f"d{d}", context_bucket(isl + cached)]
                inp = {"requests": bsz, "new_tokens": bsz * isl, "cached_tokens": bsz * cached,
                       "heads_q": hq, "heads_kv": hkv, "head_dim": d}
            else:
                ctx = int(r["step"]) + 1
                parts = [a, kv, f"h{hq}", f"kv{hkv}", f"d{d}", context_bucket(ctx)]
                inp = {"requests": bsz, "query_tokens": bsz, "context_tokens": bsz * ctx,
                       "heads_q": hq, "heads_kv": hkv, "head_dim": d}
            return parts, inp, {"act": a, "kv": kv}
        fam = "attention.prefill" if phase == "prefill" else "attention.decode"
        return _tables(fam, rel, aic_chip, tid, rows, lambda r: (r["kernel_source"], r["attn_dtype"], _kv_format(r["attn_dtype"], r["kv_cache_dtype"])), build)
    return read


MOE_NOTE = ("The table times the whole fused expert layer (routing permute, the gate-up and down expert "
            "GEMMs, the activation and the weighted combine), more than moe.grouped_gemm covers, so the "
            "value is calibrated: the layer is priced as one grouped GEMM with n = 3 x intermediate size per "
            "rank (gate, up and down projections) and k = hidden size.")


def _moe(root, rel, aic_chip, tid):
    rows = [r for r in _read(os.path.join(root, rel)) if r["distribution"] == "balanced" and r["moe_dtype"] in DTYPES]

    def build(r):
        fmt = DTYPES[r["moe_dtype"]]
        tokens, hidden, inter = int(r["num_tokens"]), int(r["hidden_size"]), int(r["inter_size"])
        topk, experts, tp, ep = int(r["topk"]), int(r["num_experts"]), int(r["moe_tp_size"]), int(r["moe_ep_size"])
        if inter % tp or experts % ep:
            return None
        routed = -(-tokens * topk // ep)  # balanced: the most-loaded rank's routed copies (ceiling)
        local = experts // ep
        active = min(local, routed)
        fm = {"act": fmt, "w": fmt, "out": fmt if fmt in ("bf16", "fp16") else "bf16"}
        parts = [fmt, f"h{hidden}", f"i{inter}", f"k{topk}", f"e{experts}", f"tp{tp}", f"ep{ep}", "balanced"]
        return parts, {"routed_tokens": routed, "active_experts": active, "n": 3 * inter // tp, "k": hidden}, fm
    return _tables("moe.grouped_gemm", rel, aic_chip, tid, rows,
                   lambda r: (r["kernel_source"], r["moe_dtype"]), build, "calibrated", MOE_NOTE)


KV_LORA, ROPE, QK_NOPE = 512, 64, 128  # the DeepSeek-V3 latent geometry every MLA table measured


def _mla(phase):
    def read(root, rel, aic_chip, tid):
        rows = [r for r in _read(os.path.join(root, rel)) if r["mla_dtype"] in DTYPES and r["kv_cache_dtype"] in DTYPES]
        fw = _meta(rows)
        # Only the latent-attention kernels whose geometry the collector shows (absorbed form).
        rows = [r for r in rows if library_of(strip_framework(r["kernel_source"], fw), fw) in ("flash-attn", "flashinfer")]

        def build(r):
            a, kv = DTYPES[r["mla_dtype"]], DTYPES[r["kv_cache_dtype"]]
            heads, tp, bsz = int(r["num_heads"]), int(r["tp_size"]), int(r["batch_size"])
            if heads % tp:
                return None
            h = heads // tp
            if phase == "prefill":
                isl = int(r["isl"])
                parts = [a, kv, f"h{heads}", f"tp{tp}", context_bucket(isl)]
                # The collector's trtllm_mla prefill runs the non-absorbed form (q and k of qk_nope + rope
                # = 192, v of qk_nope = 128); its other backends the absorbed one (576, 512):
                # collector/sglang/collect_mla.py@095f58a5, run_mla.
                expanded = strip_framework(r["kernel_source"], fw) == "trtllm_mla"
                inp = {"requests": bsz, "new_tokens": bsz * isl, "cached_tokens": 0, "heads": h,
                       "qk_head_dim": QK_NOPE + ROPE if expanded else KV_LORA + ROPE,
                       "v_head_dim": QK_NOPE if expanded else KV_LORA}
            else:
                ctx = int(r["step"]) + 1
                parts = [a, kv, f"h{heads}", f"tp{tp}", context_bucket(ctx)]
                inp = {"requests": bsz, "query_tokens": bsz, "context_tokens": bsz * ctx, "heads": h,
                       "kv_lora_rank": KV_LORA, "rope_dim": ROPE}
            return parts, inp, {"act": a, "kv": kv}
        fam = "attention.mla_prefill" if phase == "prefill" else "attention.mla_decode"
        return _tables(fam, rel, aic_chip, tid, rows, lambda r: (r["kernel_source"], r["mla_dtype"], _kv_format(r["mla_dtype"], r["kv_cache_dtype"])), build)
    return read


NCCL_OPS = {"all_reduce": "collective.all_reduce", "all_gather": "collective.all_gather",
            "reduce_scatter": "collective.reduce_scatter", "alltoall": "collective.all_to_all"}


def _nccl(root, rel, aic_chip, tid):
    rows = [r for r in _read(os.path.join(root, rel)) if r["nccl_dtype"] in ("half", "int8")]
    out = []
    for op, fam in NCCL_OPS.items():
        sub = [r for r in rows if r["op_name"] == op]

        def build(r):
            fmt = DTYPES[r["nccl_dtype"]]
            n = int(r["num_gpus"])
            return [fmt, f"n{n}"], {"bytes": int(r["message_size"]) * ELEMENT_BYTES[fmt], "group_size": n}, {}
        out += _tables(fam, rel, aic_chip, tid, sub, lambda r: (r["op_name"], r["op_name"]), build, library="nccl")
    return out


def _custom_ar(root, rel, aic_chip, tid):
    rows = _read(os.path.join(root, rel))
    fw = _meta(rows)
    own = [r for r in rows if strip_framework(r["kernel_source"], fw).lower() == "custom_graph"
           and r["allreduce_dtype"] in DTYPES]

    def build(r):
        fmt = DTYPES[r["allreduce_dtype"]]
        n = int(r["num_gpus"])
        return [fmt, f"n{n}"], {"bytes": int(r["message_size"]) * ELEMENT_BYTES[fmt], "group_size": n}, {}
    return _tables("collective.all_reduce", rel, aic_chip, tid, own,
                   lambda r: (r["kernel_source"], r["allreduce_dtype"]), build)


READERS = {"gemm": _gemm, "prefill": _attention("prefill"), "decode": _attention("decode"), "moe": _moe,
           "mla_prefill": _mla("prefill"), "mla_decode": _mla("decode"), "nccl": _nccl, "custom_ar": _custom_ar}
