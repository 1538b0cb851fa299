"""The SGLang oracle's replacements (X5, FID-1): what stands in for torch, the GPU kernels, transports,
platforms and configuration objects while the pinned SGLang's own Scheduler methods, PrefillAdder,
SchedulePolicy, RadixCache, allocators, ReqToTokenPool and ScheduleBatch run unmodified. Every entry is
listed, with its kind and reason, in manifest.yaml beside this file; the loader
(checks/harness/oracle/loader.py) refuses a stub not listed there and an import under a guarded package
that is neither real, a shell nor listed.

No function here makes a scheduling or caching decision. torch is a numpy-backed stand-in for the index
tensors the memory pools, allocators and radix cache hold on the CPU (the ops those modules call, with
torch's semantics); the runtime context (get_schedule(), get_parallel(), ...) holds resolved values the
runner fills from the scenario. Names the imported modules only mention (feature classes, kernels,
transports) are placeholders that raise when used (stubkit.absent), listed per module in ABSENT.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import sys
import types

try:
    import numpy as np  # Debian's python3-numpy: needed to record, not to read the manifest
except ImportError:  # checks/harness/oracle/check_manifest.py reads STUBS where numpy is absent (CI)
    np = None

sys.path.insert(0, __file__.rsplit("/engines/", 1)[0])
from checks.harness.oracle.stubkit import absent, define  # noqa: E402


# --- torch: a numpy-backed tensor for CPU index arithmetic.
class _DType:
    def __init__(self, name, np_dtype, itemsize):
        self.name, self.np, self.itemsize = name, np_dtype, itemsize

    def __repr__(self):
        return f"torch.{self.name}"


_DTYPES = {n: _DType(n, None if np is None else getattr(np, d), s) for n, d, s in [
    ("int64", "int64", 8), ("int32", "int32", 4), ("int16", "int16", 2), ("int8", "int8", 1),
    ("uint8", "uint8", 1), ("bool", "bool_", 1), ("float32", "float32", 4), ("float64", "float64", 8),
    ("float16", "float16", 2), ("bfloat16", "float32", 2), ("float8_e4m3fn", "uint8", 1),
    ("float8_e5m2", "uint8", 1), ("float8_e4m3fnuz", "uint8", 1)]}


def _np_dtype(dtype):
    if dtype is None:
        return None
    if isinstance(dtype, _DType):
        return dtype.np
    if dtype is int:
        return np.int64
    if dtype is bool:
        return np.bool_
    if dtype is float:
        return np.float32
    return dtype


def _torch_dtype(np_dtype):
    for d in _DTYPES.values():
        if np.dtype(d.np) == np.dtype(np_dtype) and d.name not in ("bfloat16", "float8_e4m3fn", "float8_e5m2",
                                                                  "float8_e4m3fnuz"):
            return d
    raise TypeError(f"oracle torch stand-in: no dtype for {np_dtype}")


class _Device:
    def __init__(self, kind="cpu", index=None):
        self.type = str(kind).split(":")[0]
        self.index = index

    def __eq__(self, other):
        return str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __str__(self):
        return self.type

    __repr__ = __str__


class Tensor(object if np is None else np.ndarray):
    """A CPU tensor: numpy's array with torch's method names (device and pinning are ignored)."""

    def __new__(cls, data, dtype=None):
        return np.asarray(data, dtype=_np_dtype(dtype)).view(cls)

    def __array_finalize__(self, obj):
        return

    @property
    def device(self):
        return _Device("cpu")

    @property
    def dtype(self):  # torch dtypes compare against torch.int64 etc.
        return _torch_dtype(np.ndarray.__getattribute__(self, "view")(np.ndarray).dtype)

    @property
    def shape(self):
        return tuple(np.ndarray.__getattribute__(self, "view")(np.ndarray).shape)

    def size(self, dim=None):
        s = self.shape
        return s if dim is None else s[dim]

    def numel(self):
        return int(np.prod(self.shape)) if self.shape else 1

    def dim(self):
        return len(self.shape)

    def to(self, *args, dtype=None, copy=False, non_blocking=False, device=None):
        for a in args:
            if isinstance(a, _DType):
                dtype = a
        out = self
        if dtype is not None:
            out = np.asarray(self.view(np.ndarray), dtype=_np_dtype(dtype)).view(Tensor)
        if copy and out is self:
            out = self.view(np.ndarray).copy().view(Tensor)
        return out

    def cpu(self):
        return self

    def cuda(self, *a, **k):
        return self

    def clone(self):
        return self.view(np.ndarray).copy().view(Tensor)

    def long(self):
        return self.to(dtype=_DTYPES["int64"])

    def int(self):
        return self.to(dtype=_DTYPES["int32"])

    def bool(self):
        return self.to(dtype=_DTYPES["bool"])

    def item(self):
        return self.view(np.ndarray).item()

    def tolist(self):
        return self.view(np.ndarray).tolist()

    def numpy(self):
        return self.view(np.ndarray)

    def view(self, *args):
        if len(args) == 1 and (isinstance(args[0], type) or isinstance(args[0], np.dtype)):
            return np.ndarray.view(self, args[0])
        if len(args) == 1 and isinstance(args[0], _DType):
            return np.ndarray.view(self, args[0].np).view(Tensor)
        if len(args) == 1 and isinstance(args[0], (tuple, list)):
            args = tuple(args[0])
        return self.view(np.ndarray).reshape(args).view(Tensor)

    def reshape(self, *args):
        return self.view(*args)

    def flatten(self):
        return self.view(np.ndarray).reshape(-1).view(Tensor)

    def is_contiguous(self):
        return True

    def contiguous(self):
        return self

    def pin_memory(self):
        return self

    def copy_(self, src, non_blocking=False):
        self.view(np.ndarray)[...] = np.asarray(src)
        return self

    def fill_(self, v):
        self.view(np.ndarray)[...] = v
        return self

    def zero_(self):
        return self.fill_(0)

    def sum(self, dim=None, **k):
        return _t(self.view(np.ndarray).sum(axis=dim))

    def max(self, dim=None):
        return _t(self.view(np.ndarray).max(axis=dim))

    def min(self, dim=None):
        return _t(self.view(np.ndarray).min(axis=dim))

    def any(self):
        return _t(self.view(np.ndarray).any())

    def all(self):
        return _t(self.view(np.ndarray).all())

    def unsqueeze(self, dim):
        return np.expand_dims(self.view(np.ndarray), dim).view(Tensor)

    def squeeze(self, dim=None):
        return np.squeeze(self.view(np.ndarray), axis=dim).view(Tensor)

    def new_empty(self, shape, dtype=None, device=None):
        return _empty(shape, dtype=dtype or self.dtype)

    def __len__(self):
        return self.shape[0]

    def __bool__(self):
        return bool(self.view(np.ndarray).all()) if self.shape == () or self.numel() == 1 else \
            np.ndarray.__bool__(self.view(np.ndarray))

    def __getitem__(self, idx):
        if isinstance(idx, Tensor):
            idx = idx.view(np.ndarray)
        elif isinstance(idx, tuple):
            idx = tuple(i.view(np.ndarray) if isinstance(i, Tensor) else i for i in idx)
        r = self.view(np.ndarray)[idx]
        return r.view(Tensor) if isinstance(r, np.ndarray) else _t(r)

    def __setitem__(self, idx, value):
        if isinstance(idx, Tensor):
            idx = idx.view(np.ndarray)
        elif isinstance(idx, tuple):
            idx = tuple(i.view(np.ndarray) if isinstance(i, Tensor) else i for i in idx)
        if isinstance(value, Tensor):
            value = value.view(np.ndarray)
        self.view(np.ndarray)[idx] = value


def _t(x, dtype=None):
    return np.asarray(x.view(np.ndarray) if isinstance(x, Tensor) else x, dtype=_np_dtype(dtype)).view(Tensor)


def _tensor(data, dtype=None, device=None, pin_memory=False, requires_grad=False):
    if dtype is None:
        arr = np.asarray(data)
        if arr.dtype.kind in "iu":
            arr = arr.astype(np.int64)
        elif arr.dtype.kind == "f":
            arr = arr.astype(np.float32)
        return arr.view(Tensor)
    return _t(data, dtype)


def _shape(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


def _empty(*shape, dtype=None, device=None, pin_memory=False, **k):
    return np.zeros(_shape(shape), dtype=_np_dtype(dtype) or np.float32).view(Tensor)


def _full(shape, value, dtype=None, device=None, **k):
    return np.full(_shape((shape,)), value, dtype=_np_dtype(dtype)).view(Tensor)


def _arange(*args, dtype=None, device=None, **k):
    return np.arange(*args, dtype=_np_dtype(dtype) or np.int64).view(Tensor)


def _cat(tensors, dim=0):
    arrs = [t.view(np.ndarray) if isinstance(t, Tensor) else np.asarray(t) for t in tensors]
    if not arrs:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    return np.concatenate(arrs, axis=dim).view(Tensor)


class _SortResult(tuple):
    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]


def _sort(t, dim=-1, descending=False, stable=False):
    a = t.view(np.ndarray)
    idx = np.argsort(-a if descending else a, kind="stable", axis=dim)
    return _SortResult((np.take_along_axis(a, idx, axis=dim).view(Tensor), idx.view(Tensor)))


def _unique(t, sorted=True, return_inverse=False, return_counts=False):
    r = np.unique(t.view(np.ndarray), return_inverse=return_inverse, return_counts=return_counts)
    if isinstance(r, tuple):
        return tuple(x.view(Tensor) for x in r)
    return r.view(Tensor)


class _NoGrad(contextlib.ContextDecorator):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _torch(m):
    if np is None:
        raise ImportError("oracle: the torch stand-in needs numpy (apt-get install python3-numpy)")
    define(m, **_DTYPES)
    define(m, Tensor=Tensor, dtype=_DType, device=_Device, Size=tuple, tensor=_tensor, as_tensor=_tensor,
           from_numpy=lambda a: np.asarray(a).view(Tensor), empty=_empty, zeros=_empty,
           ones=lambda *s, dtype=None, device=None, **k: np.ones(_shape(s), dtype=_np_dtype(dtype)).view(Tensor),
           full=_full, full_like=lambda t, v, dtype=None, device=None: np.full(
               t.shape, v, dtype=_np_dtype(dtype) or t.view(np.ndarray).dtype).view(Tensor),
           zeros_like=lambda t, dtype=None, device=None: np.zeros(
               t.shape, dtype=_np_dtype(dtype) or t.view(np.ndarray).dtype).view(Tensor), arange=_arange, cat=_cat, concat=_cat, sort=_sort, unique=_unique,
           where=lambda c, *a: np.where(_t(c).view(np.ndarray), *[_t(x).view(np.ndarray) for x in a]).view(Tensor),
           cumsum=lambda t, dim=0, dtype=None: np.cumsum(t.view(np.ndarray), axis=dim,
                                                         dtype=_np_dtype(dtype)).view(Tensor),
           sum=lambda t, dim=None, dtype=None: _t(np.sum(_t(t).view(np.ndarray), axis=dim,
                                                         dtype=_np_dtype(dtype))),
           equal=lambda a, b: bool(np.array_equal(_t(a).view(np.ndarray), _t(b).view(np.ndarray))),
           minimum=lambda a, b: np.minimum(_t(a), _t(b)).view(Tensor),
           maximum=lambda a, b: np.maximum(_t(a), _t(b)).view(Tensor),
           isin=lambda a, b: np.isin(_t(a), _t(b)).view(Tensor),
           no_grad=_NoGrad, inference_mode=_NoGrad, is_tensor=lambda x: isinstance(x, Tensor),
           __version__="0.0+oracle-stub")
    nn = types.ModuleType("torch.nn")
    absent(nn, "Module", "Parameter")
    cuda = types.ModuleType("torch.cuda")
    define(cuda, is_available=lambda: False, device_count=lambda: 0)
    absent(cuda, "Stream", "Event", "CUDAGraph", "current_stream", "stream", "synchronize")
    profiler = types.ModuleType("torch.profiler")
    define(profiler, record_function=lambda name: _NoGrad())  # a profiler range: no effect
    define(m, nn=nn, cuda=cuda, profiler=profiler)
    absent(m, "Generator", "compile", "library")


def _torch_distributed(m):
    absent(m, "barrier", "ProcessGroup", "all_reduce", "broadcast", "get_rank", "get_world_size")


# --- msgspec: serialisation. Struct becomes a dataclass with msgspec's constructor rules (keyword fields,
# defaults, default factories); the encoding options are ignored.
class _Field:
    def __init__(self, default=dataclasses.MISSING, default_factory=None, name=None):
        self.default = default
        self.factory = default_factory


class _StructMeta(type):
    def __new__(mcls, name, bases, ns, **kwargs):
        cls = super().__new__(mcls, name, bases, ns)
        if name != "Struct":
            for key, value in list(cls.__dict__.items()):
                if key.startswith("__") or callable(value) or isinstance(value, (property, staticmethod, classmethod)):
                    continue
                if key not in cls.__dict__.get("__annotations__", {}):
                    continue
                if isinstance(value, (list, dict, set)):
                    setattr(cls, key, dataclasses.field(default_factory=lambda v=value: type(v)(v)))
                elif isinstance(value, _Field):
                    setattr(cls, key, dataclasses.field(default=value.default) if value.factory is None
                            else dataclasses.field(default_factory=value.factory))
            cls = dataclasses.dataclass(cls, eq=kwargs.get("eq", True), kw_only=kwargs.get("kw_only", False))
        return cls


class _Struct(metaclass=_StructMeta):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__()


def _msgspec(m):
    define(m, Struct=_Struct, field=lambda default=dataclasses.MISSING, default_factory=None, name=None:
           _Field(default, default_factory, name), UNSET=None, UnsetType=type(None), Meta=lambda **k: None)
    absent(m, "msgpack", "Raw", "json")


# --- triton: the kernels of the allocation module are defined at import (@triton.jit) but never launched
# on the CPU path (is_cuda() is False: the torch paths run).
class _TritonKernel:
    def __init__(self, fn):
        self.fn = fn

    def __getitem__(self, grid):
        raise RuntimeError(f"oracle: triton kernel {self.fn.__name__} launched on the CPU path")


def _triton(m):
    define(m, jit=lambda fn=None, **k: _TritonKernel(fn) if fn is not None else (lambda f: _TritonKernel(f)),
           cdiv=lambda a, b: -(-a // b), next_power_of_2=lambda n: 1 << (n - 1).bit_length())


def _triton_language(m):
    class constexpr:  # noqa: N801
        pass

    define(m, constexpr=constexpr)
    absent(m, "tensor", "int64", "int32")


def _logger_passthrough(m):
    pass


# --- numpy is real (Debian's python3-numpy): it is not guarded.


# --- runtime context (sglang/srt/runtime_context.py): the config bags and parallel context, as resolved
# values the runner fills from the scenario (runner.py Oracle.configure). Reading a value the runner did not
# set fails (AttributeError), so nothing defaults silently.
class _Bag(types.SimpleNamespace):
    pass


CONTEXT = {name: _Bag() for name in ("device", "model", "exec", "schedule", "memory", "spec", "lora", "mm",
                                     "disagg", "serving", "observability", "parallel")}


def _runtime_context(m):
    for name in CONTEXT:
        define(m, **{f"get_{name}": (lambda n=name: CONTEXT[n])})
    define(m, get_context=lambda: CONTEXT, publish=lambda *a, **k: None,
           attention_backends=lambda: CONTEXT["exec"].attention_backends,
           configured_attn_cp_size=lambda: 1, configured_moe_dp_size=lambda: 1, configured_pp_size=lambda: 1,
           configured_tp_size=lambda: 1,
           mamba_cache_chunk_size=lambda: None, mamba_checkpoint_grid=lambda: None,
           mamba_extra_buffer_enabled=lambda: False, mamba_extra_buffer_lazy_enabled=lambda: False,
           max_speculative_num_draft_tokens=lambda: 0)


# --- sglang.srt.utils / sglang.srt.utils.common: the platform probes answer "CPU, no CUDA/HIP/NPU"; the
# arithmetic helpers are upstream's own, extracted from utils/common.py (manifest extract).
def _utils_common(m):
    import torch  # the stand-in above, through the oracle finder

    define(m, torch=torch, np=np, logger=logging.getLogger("sglang.srt.utils.common"),
           is_cuda=lambda: False, is_hip=lambda: False, is_npu=lambda: False, is_cpu=lambda: False,
           is_mps=lambda: False, is_xpu=lambda: False, is_musa=lambda: False, cpu_has_amx_support=lambda: False,
           is_float4_e2m1fn_x2=lambda dtype: False, is_pin_memory_available=lambda device=None: False,
           require_mlp_sync=lambda server_args=None: False,
           suppress_noisy_warnings=lambda: None, get_int_env_var=lambda name, default=0: default)


def _utils(m):
    _utils_common(m)
    # @DynamicGradMode() decorates the overlap loop (not driven): torch's no-grad mode, an identity here.
    define(m, DynamicGradMode=lambda *a, **k: (lambda fn: fn))


def _platforms(m):
    class _Platform:
        def is_pin_memory_available(self, device=None):
            return False

        def __getattr__(self, name):
            raise AttributeError(f"oracle: current_platform.{name} is outside what the oracle drives")

    define(m, current_platform=_Platform())


def _logger_utils(m):
    define(m, init_logger=lambda name: logging.getLogger(name))


# --- the memory saver (GPU memory release/resume): disabled, so its regions are no-ops.
class _NoMemorySaver:
    @staticmethod
    def create(enable=False):
        if enable:
            raise RuntimeError("oracle: the torch memory saver is outside what the oracle drives")
        return _NoMemorySaver()

    def region(self, *a, **k):
        return contextlib.nullcontext()


def _memory_saver(m):
    define(m, TorchMemorySaverAdapter=_NoMemorySaver)


def _constants(m):
    define(m, GPU_MEMORY_TYPE_KV_CACHE="kv_cache", GPU_MEMORY_TYPE_WEIGHTS="weights",
           HEALTH_CHECK_RID_PREFIX="HEALTH_CHECK")


# --- the sampler's per-batch tensors (temperatures, penalties, grammars): the sampler is the runner's model
# stand-in, so the batch's sampling info holds nothing; no penalty is required (none is requested).
class _NoPenalizer:
    is_required = False

    def cumulate_output_tokens(self, output_ids):
        return None


class SamplingBatchInfo:
    def __init__(self):
        self.penalizer_orchestrator = _NoPenalizer()
        self.grammars = None

    @classmethod
    def from_schedule_batch(cls, batch, vocab_size):
        return cls()

    def filter_batch(self, keep_indices, keep_indices_device):
        return None

    def merge_batch(self, other):
        return None

    def copy_for_forward(self):
        return self


def _sampling_batch_info(m):
    define(m, SamplingBatchInfo=SamplingBatchInfo)


# --- the paged allocator's Triton kernels (sglang/kernels/ops/memory/allocator.py), launched as
# kernel[(bs,)](...). alloc_extend_kernel runs upstream's own torch reference of the same computation,
# paged.py's alloc_extend_naive; alloc_decode_kernel has no reference upstream and is transcribed (manifest:
# kind transcription, cites). Both only compute the slot indices of the pages the allocator then takes.
class _Launch:
    def __init__(self, fn):
        self.fn = fn

    def __getitem__(self, grid):
        return self.fn


def _alloc_extend(prefix_lens, seq_lens, last_loc, free_pages, out_indices, bs_upper, page_size):
    import sglang.srt.mem_cache.allocator.paged as paged
    from sglang.srt.utils import get_num_new_pages

    # With too few free pages, alloc_extend discards the kernel's output and returns None (the kernel's reads
    # past the free list are masked on the GPU); the reference would index past the list, so it is not run.
    if get_num_new_pages(seq_lens=seq_lens, page_size=page_size, prefix_lens=prefix_lens) > len(free_pages):
        return
    paged.alloc_extend_naive(prefix_lens, seq_lens, last_loc, free_pages, out_indices, page_size, "cpu")


def _alloc_decode(seq_lens, last_loc, free_pages, out_indices, bs_upper, page_size):
    # allocator.py@71de97b2 alloc_decode_kernel, one program per request pid: a request whose new token starts
    # a page takes the next free page, in request order; the others write after their last slot.
    new_page_start = 0
    for pid in range(len(seq_lens)):
        seq_len = int(seq_lens[pid])
        pre_len = seq_len - 1
        own = (seq_len + page_size - 1) // page_size - (pre_len + page_size - 1) // page_size
        if own == 0:
            out_indices[pid] = int(last_loc[pid]) + 1
        else:
            out_indices[pid] = int(free_pages[new_page_start]) * page_size
        new_page_start += own


def _kernels_allocator(m):
    define(m, alloc_extend_kernel=_Launch(_alloc_extend), alloc_decode_kernel=_Launch(_alloc_decode))


# --- KV-cache events (disaggregation/kv_events.py, a module that also holds the ZMQ publisher and the pydantic
# KVEventsConfig): the event classes, EventBatch / KVEventBatch, the publisher base classes and
# select_kv_publisher_dp_rank are extracted from the pinned file and run (manifest extract), on the msgspec
# stand-in above. EventPublisherFactory stands in for the factory (transport): for the scenario's
# --kv-events-config it builds a publisher that keeps each published batch (PUBLISHED) instead of sending it on
# a ZMQ socket; the runner reads the kept batches after each step (runner.py Oracle.run). The config string is
# not parsed (KVEventsConfig is pydantic); an empty one gets upstream's NullEventPublisher, as create() does.
PUBLISHED = []


class _KeepingPublisher:
    def __init__(self, attn_dp_rank=0):
        self.attn_dp_rank = attn_dp_rank

    def publish(self, events):
        PUBLISHED.append(events)

    def shutdown(self):
        return None


def _kv_events(m):
    import importlib

    class EventPublisherFactory:
        @classmethod
        def create(cls, config, attn_dp_rank=0):
            if not config:
                return m.NullEventPublisher()
            return _KeepingPublisher(attn_dp_rank)

    define(m, msgspec=importlib.import_module("msgspec"), EventPublisherFactory=EventPublisherFactory)
    absent(m, "ZmqEventPublisher", "KVEventsConfig")


def _kv_events_publisher(m):
    """scheduler_components/kv_events_publisher.py: SchedulerKvEventsPublisher is extracted and run; these are
    the names it reads from its module (upstream imports them from disaggregation/kv_events.py)."""
    import importlib

    kv_events = importlib.import_module("sglang.srt.disaggregation.kv_events")
    define(m, EventPublisherFactory=kv_events.EventPublisherFactory, KVEventBatch=kv_events.KVEventBatch,
           select_kv_publisher_dp_rank=kv_events.select_kv_publisher_dp_rank)
    absent(m, "KvMetrics", "sock_send")


# --- torch.utils.cpp_extension (platform): torch's JIT builder of C++ extensions. mem_cache/cpp_utils/native_hash.py
# (run unmodified) loads upstream's hash_binding.cpp through it; this load builds the named sources with the
# system's g++ (Debian's pybind11-dev and libssl-dev: the headers and libcrypto upstream's source uses), with the
# flags upstream passes, into a cache directory keyed by the sources' bytes and the flags, and imports the module,
# as torch's load does. Each source must be a file engines/sglang/upstream.yaml pins, with its pinned blob.
def _pinned_blobs():
    root = __file__.rsplit("/engines/", 1)[0]
    import yaml

    with open(f"{root}/engines/sglang/upstream.yaml") as f:
        return {e["path"]: e["blob"] for e in yaml.safe_load(f)["files"]}


def _load_extension(name, sources, extra_cflags=None, extra_ldflags=None, with_cuda=False, verbose=False, **kwargs):
    import hashlib
    import importlib.machinery
    import importlib.util
    import os
    import subprocess
    import sysconfig
    import tempfile

    if with_cuda or kwargs:
        raise RuntimeError(f"oracle: cpp_extension.load with {kwargs or 'CUDA'} is outside what the oracle builds")
    pinned = _pinned_blobs()
    key = hashlib.sha256(repr((name, list(extra_cflags or []), list(extra_ldflags or []))).encode())
    for src in sources:
        data = open(src, "rb").read()
        rel = "python/" + src.rsplit("/python/", 1)[1]
        blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        if rel not in pinned or not blob.startswith(pinned[rel]):
            raise RuntimeError(f"oracle: {src} is not the pinned {rel} (blob {blob[:12]})")
        key.update(data)
    out_dir = os.path.join(tempfile.gettempdir(), "blis-sglang-oracle-ext", f"{name}-{key.hexdigest()[:16]}")
    target = os.path.join(out_dir, name + sysconfig.get_config_var("EXT_SUFFIX"))
    if not os.path.exists(target):
        os.makedirs(out_dir, exist_ok=True)
        tmp = f"{target}.{os.getpid()}.tmp"
        cmd = (["g++", *(extra_cflags or []), "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}",
                f"-DTORCH_EXTENSION_NAME={name}", *sources, *(extra_ldflags or []), "-o", tmp])
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"oracle: building {name} failed (apt-get install g++ pybind11-dev libssl-dev):\n"
                               + done.stderr[-4000:])
        os.replace(tmp, target)
    loader = importlib.machinery.ExtensionFileLoader(name, target)
    spec = importlib.util.spec_from_file_location(name, target, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _cpp_extension(m):
    define(m, load=_load_extension)


STUBS = {
    "sglang.kernels.ops.memory.allocator": _kernels_allocator,
    "sglang.srt.sampling.sampling_batch_info": _sampling_batch_info,
    "sglang.srt.utils.torch_memory_saver_adapter": _memory_saver,
    "sglang.srt.constants": _constants,
    "torch": _torch,
    "torch.distributed": _torch_distributed,
    "msgspec": _msgspec,
    "triton": _triton,
    "triton.language": _triton_language,
    "sglang.srt.runtime_context": _runtime_context,
    "sglang.srt.utils": _utils,
    "sglang.srt.utils.common": _utils_common,
    "sglang.srt.platforms": _platforms,
    "sglang.srt.disaggregation.kv_events": _kv_events,
    "sglang.srt.managers.scheduler_components.kv_events_publisher": _kv_events_publisher,
    "torch.utils.cpp_extension": _cpp_extension,
}


# Placeholders (stubkit.absent) for the names the real modules import from modules outside what the oracle
# drives, per module (manifest.yaml lists each with its kind and reason).
ABSENT = {
    'sglang.srt.observability.trace_async': ['TraceReqContextAsync', 'is_async_tracing_available'],
    'sglang.srt.state_capturer.base': ['TopkCaptureOutput'],
    'sglang.kernels.ops.attention.dsa.quant_k_cache': ['quantize_k_cache', 'quantize_k_cache_separate'],
    'sglang.kernels.ops.kvcache.cache_move': ['copy_all_layer_kv_cache_func', 'set_kv_buffer_prefix_valid_tiled', 'store_cache_4d'],
    'sglang.kernels.ops.kvcache.kvcache': ['can_use_store_cache', 'store_cache'],
    'sglang.kernels.ops.kvcache.mla_buffer': ['get_mla_kv_buffer_kernel', 'get_mla_kv_buffer_triton', 'set_mla_kv_buffer_fp8_quant_kernel', 'set_mla_kv_buffer_kernel', 'set_mla_kv_buffer_triton', 'set_mla_kv_buffer_triton_fp8_quant', 'set_mla_kv_scale_buffer_kernel', 'set_mla_kv_scale_buffer_triton'],
    'sglang.kernels.ops.mamba.triton_ops': ['initialize_mamba_selective_state_update_backend'],
    'sglang.kernels.ops.memory.common': ['_get_last_loc_safe_kernel', 'get_last_loc_kernel', 'get_last_loc_triton', 'get_last_loc_triton_safe', 'write_req_to_token_pool_triton'],
    'sglang.kernels.ops.quantization.fp8_kernel': ['fp8_dtype', 'is_fp8_fnuz'],
    'sglang.srt.configs.mamba_utils': ['BaseLinearStateParams'],
    'sglang.srt.configs.model_config': ['ModelConfig', 'ModelImpl', 'is_deepseek_v4', 'is_minimax_sparse'],
    'sglang.srt.constrained.base_grammar_backend': ['BaseGrammarObject'],
    'sglang.srt.constrained.grammar_manager': ['GrammarManager'],
    'sglang.srt.debug_utils.pr_fix_toggle': ['maybe_revert_pr_fix'],
    'sglang.srt.disaggregation.base': ['BaseKVSender'],
    'sglang.srt.disaggregation.decode': ['DecodePreallocQueue', 'DecodeTransferQueue', 'SchedulerDisaggregationDecodeMixin'],
    'sglang.srt.disaggregation.decode_kvcache_offload_manager': ['DecodeKVCacheOffloadManager'],
    'sglang.srt.disaggregation.decode_schedule_batch_mixin': ['ScheduleBatchDisaggregationDecodeMixin'],
    'sglang.srt.disaggregation.encode_receiver': ['create_mm_receiver'],
    'sglang.srt.disaggregation.prefill': ['PrefillBootstrapQueue', 'SchedulerDisaggregationPrefillMixin', 'maybe_release_metadata_buffer'],
    'sglang.srt.disaggregation.utils': ['DisaggregationMode', 'FAKE_BOOTSTRAP_HOST', 'MetadataBuffers', 'ReqToMetadataIdxAllocator', 'TransferBackend', 'get_dsa_seed_metadata_dim', 'prepare_abort', 'unified_memory_disagg_move_gate'],
    'sglang.srt.distributed': ['get_pp_group', 'get_world_group'],
    'sglang.srt.distributed.parallel_state': ['get_tp_group'],
    'sglang.srt.distributed.parallel_state_wrapper': ['ParallelState'],
    'sglang.srt.dllm.config': ['DllmConfig'],
    'sglang.srt.dllm.mixin.scheduler': ['SchedulerDllmMixin'],
    'sglang.srt.eplb.expert_distribution': ['ExpertDistributionMetrics', 'get_global_expert_distribution_recorder'],
    'sglang.srt.hardware_backend.npu.dsv4.dsv4_common_hooks': ['maybe_write_dsv4_decode', 'maybe_write_dsv4_extend'],
    'sglang.srt.layers.attention.dsa.utils': ['aiter_can_use_preshuffle_paged_mqa', 'is_dsa_prefill_cp_in_seq_split'],
    'sglang.srt.layers.dp_attention': ['compute_dp_attention_world_info'],
    'sglang.srt.layers.logits_processor': ['LogitsProcessorOutput'],
    'sglang.srt.layers.moe': ['initialize_moe_config'],
    'sglang.srt.layers.quantization.fp4_kv_cache_quant_method': ['UnquantizedKVCacheMethod'],
    'sglang.srt.layers.quantization.fp4_utils': ['initialize_fp4_gemm_config'],
    'sglang.srt.layers.quantization.fp8_utils': ['initialize_fp8_gemm_config'],
    'sglang.srt.layers.quantization.unquant': ['initialize_bf16_gemm_config'],
    'sglang.srt.layers.radix_attention': ['RadixAttention'],
    'sglang.srt.layers.utils.cp_utils': ['is_prefill_context_parallel_enabled'],
    'sglang.srt.lora.lora_drainer': ['LoRADrainer'],
    'sglang.srt.lora.lora_overlap_loader': ['LoRAOverlapLoader'],
    'sglang.srt.managers.disagg_service': ['maybe_create_ascend_config_store'],
    'sglang.srt.managers.embed_types': ['PositionalEmbeds'],
    'sglang.srt.managers.hisparse_coordinator': ['HiSparseCoordinator'],
    'sglang.srt.managers.io_struct': ['AbortReq', 'ActiveRanksOutput', 'AddExternalCorpusReqInput', 'AddExternalCorpusReqOutput', 'AttachHiCacheStorageReqInput', 'AttachHiCacheStorageReqOutput', 'BatchTokenizedEmbeddingReqInput', 'BatchTokenizedGenerateReqInput', 'CheckWeightsReqInput', 'ClearHiCacheReqInput', 'ClearHiCacheReqOutput', 'CloseSessionReqInput', 'ConfigureLoggingReq', 'ContinueGenerationReqInput', 'DestroyWeightsUpdateGroupReqInput', 'DetachHiCacheStorageReqInput', 'DetachHiCacheStorageReqOutput', 'DumperControlReqInput', 'DumperControlReqOutput', 'ExpertDistributionReq', 'ExpertDistributionReqOutput', 'ExpertDistributionReqType', 'FlushCacheReqInput', 'FreezeGCReq', 'GetInternalStateReq', 'GetInternalStateReqOutput', 'GetWeightsByNameReqInput', 'HealthCheckOutput', 'InitWeightsSendGroupForRemoteInstanceReqInput', 'InitWeightsSendGroupForRemoteInstanceReqOutput', 'InitWeightsUpdateGroupReqInput', 'ListExternalCorporaReqInput', 'ListExternalCorporaReqOutput', 'LoadLoRAAdapterFromTensorsReqInput', 'LoadLoRAAdapterFromTensorsReqOutput', 'LoadLoRAAdapterReqInput', 'LoadLoRAAdapterReqOutput', 'OpenSessionReqInput', 'PauseGenerationReqInput', 'ProfileReq', 'ReleaseMemoryOccupationReqInput', 'RemoveExternalCorpusReqInput', 'RemoveExternalCorpusReqOutput', 'ResumeMemoryOccupationReqInput', 'RpcReqInput', 'RpcReqOutput', 'ScaleElasticEPReqInput', 'ScaleElasticEPReqOutput', 'SendWeightsToRemoteInstanceReqInput', 'SendWeightsToRemoteInstanceReqOutput', 'SetInternalStateReq', 'SetInternalStateReqOutput', 'ShutdownReq', 'SlowDownReqInput', 'SlowDownReqOutput', 'TokenizedEmbeddingReqInput', 'TokenizedGenerateReqInput', 'UnloadLoRAAdapterReqInput', 'UnloadLoRAAdapterReqOutput', 'UpdateWeightFromDiskReqInput', 'UpdateWeightsFromDistributedReqInput', 'UpdateWeightsFromIPCReqInput', 'UpdateWeightsFromTensorReqInput', 'sock_send'],
    'sglang.srt.managers.load_snapshot': ['create_load_snapshot_writer'],
    'sglang.srt.managers.min_free_slots_delayer': ['MinFreeSlotsDelayer', 'resolve_min_free_slots'],
    'sglang.srt.managers.multimodal_processor': ['get_mm_processor', 'import_processors'],
    'sglang.srt.managers.overlap_utils': ['RelayPayload', 'decide_needs_confidence_relay', 'decide_needs_cpu_seq_lens', 'resolve_forward_inputs'],
    'sglang.srt.managers.prefill_delayer': ['PrefillDelayer', 'PrefillDelayerSinglePassExecutor', 'RecentPrefillBatchSizeTracker'],
    'sglang.srt.managers.rust_server': ['RustServer'],
    'sglang.srt.managers.scheduler_components.dp_attn': ['SchedulerDPAttnAdapter'],
    'sglang.srt.managers.scheduler_components.flush_wrapper': ['SchedulerFlushWrapper'],
    'sglang.srt.managers.scheduler_components.idle_sleeper': ['IdleSleeper', 'RustServerIdleSleeper'],
    'sglang.srt.managers.scheduler_components.invariant_checker': ['SchedulerInvariantChecker', 'create_scheduler_watchdog'],
    'sglang.srt.managers.scheduler_components.ipc_channels': ['SchedulerIpcChannels'],
    'sglang.srt.managers.scheduler_components.load_inquirer': ['SchedulerLoadInquirer'],
    'sglang.srt.managers.scheduler_components.logprob_result_processor': ['SchedulerLogprobResultProcessor'],
    'sglang.srt.managers.scheduler_components.memory_usage': ['build_memory_usage', 'combine_graph_memory_usage'],
    'sglang.srt.managers.scheduler_components.metrics_reporter': ['PrefillStats', 'RECORD_STEP_TIME', 'SchedulerMetricsReporter'],
    'sglang.srt.managers.scheduler_components.output_streamer': ['SchedulerOutputStreamer'],
    'sglang.srt.managers.scheduler_components.pool_stats_observer': ['SchedulerPoolStatsObserver'],
    'sglang.srt.managers.scheduler_components.profiler_manager': ['SchedulerProfilerManager'],
    'sglang.srt.managers.scheduler_components.recv_skipper': ['SchedulerRecvSkipper'],
    'sglang.srt.managers.scheduler_components.request_receiver': ['SchedulerRequestReceiver'],
    'sglang.srt.managers.scheduler_components.weight_updater': ['SchedulerWeightUpdaterManager'],
    'sglang.srt.managers.scheduler_input_blocker': ['SchedulerInputBlocker'],
    'sglang.srt.managers.scheduler_pp_mixin': ['SchedulerPPMixin'],
    'sglang.srt.mem_cache': ['kv_cache_builder'],
    'sglang.srt.mem_cache.allocator.hisparse': ['DeepSeekV4HiSparseTokenToKVPoolAllocator'],
    'sglang.srt.mem_cache.allocator.mamba': ['MambaSlotAllocator'],
    'sglang.srt.mem_cache.allocator.swa': ['PureSWATokenToKVPoolAllocator', 'SWATokenToKVPoolAllocator'],
    'sglang.srt.mem_cache.hicache_storage': ['PoolTransfer'],
    'sglang.srt.mem_cache.index_key_cache': ['IndexKeyCache'],
    'sglang.srt.mem_cache.kv_vmm_backing': ['KvVmmBufferOwner'],
    'sglang.srt.mem_cache.layout.page_major': ['build_page_major_mamba_views', 'build_page_major_mha_views', 'mamba_entry_bytes', 'mha_entry_bytes'],
    'sglang.srt.mem_cache.multi_ended_allocator': ['UnifiedMambaTokenToKVPoolAllocator'],
    'sglang.srt.model_executor.forward_batch_info': ['CaptureHiddenMode', 'ForwardBatch', 'ForwardMode', 'PPProxyTensors', 'get_required_capture_hidden_mode', 'get_server_return_hidden_states_mode'],
    'sglang.srt.model_loader.utils': ['get_resolved_model_impl'],
    'sglang.srt.multimodal.transport.cuda_ipc': ['CudaIpcTensorTransportProxy', 'DEFER_CUDA_IPC_FEATURE_RECONSTRUCTION_KEY'],
    'sglang.srt.multiplex.multiplexing_mixin': ['SchedulerMultiplexMixin'],
    'sglang.srt.observability.metrics_collector': ['DPCooperationInfo', 'EncoderMetricsCollector', 'RadixCacheMetricsCollector', 'STAT_LOGGER_ROLE_RADIX_CACHE', 'SchedulerMetricsCollector', 'TokenizerMetricsCollector', 'resolve_collector_class'],
    'sglang.srt.observability.startup_time': ['build_scheduler_startup_time'],
    'sglang.srt.parser.reasoning_parser': ['ReasoningParser'],
    'sglang.srt.plugins': ['load_plugins'],
    'sglang.srt.server_args': ['PortArgs', 'ServerArgs'],
    'sglang.srt.session.session_controller': ['SessionController'],
    'sglang.srt.speculative.base_spec_worker': ['BaseSpecWorker'],
    'sglang.srt.speculative.dflash_utils': ['validate_dflash_request'],
    'sglang.srt.speculative.eagle_utils': ['get_draft_recurrent_hidden_state_spec'],
    'sglang.srt.state_capturer.indexer_topk': ['get_global_indexer_capturer'],
    'sglang.srt.state_capturer.routed_experts': ['get_global_experts_capturer'],
    'sglang.srt.utils.async_probe': ['maybe_detect_oob'],
    'sglang.srt.utils.hf_transformers_utils': ['get_processor', 'get_tokenizer', 'get_tokenizer_from_processor', 'resolve_image_processor_backend'],
    'sglang.srt.utils.msgspec_utils': ['msgspec_to_builtins'],
    'sglang.srt.utils.numa_utils': ['get_numa_node_if_available', 'numa_bind_to_node'],
    'sglang.srt.utils.nvtx_utils': ['scheduler_nvtx_method'],
    'sglang.srt.utils.tensor_bridge': ['use_mlx'],
    'sglang.srt.utils.token_sequence_matcher': ['TokenSequenceMatcher'],
    'sglang.utils': ['TypeBasedDispatcher', 'get_exception_traceback'],
    'torch.cuda': ['StreamContext'],
}


# Names upstream calls (at import: module-level constants and decorators; or on the driven path: feature
# probes): the value each takes on one CPU rank without the feature.
class _NoPrefillStats:  # prefill statistics for logging (metrics off): nothing is kept
    @staticmethod
    def from_adder(*a, **k):
        return None


@dataclasses.dataclass(kw_only=True)
class AbortReq:
    """managers/io_struct.py AbortReq's fields (the message to and from the tokenizer; transport)."""

    rid: str | None = None
    abort_all: bool = False
    finished_reason: dict | None = None
    abort_message: str | None = None
    http_worker_ipc: str | None = None

    def __post_init__(self):
        if self.rid is None:
            self.rid = ""


AT_IMPORT = {
    "sglang.srt.managers.io_struct": {"AbortReq": AbortReq},
    # No routed-expert or indexer capture is configured (the global capturers are None).
    "sglang.srt.state_capturer.indexer_topk": {"get_global_indexer_capturer": lambda: None},
    "sglang.srt.state_capturer.routed_experts": {"get_global_experts_capturer": lambda: None},
    "sglang.srt.model_executor.forward_batch_info": {"get_exec": lambda: CONTEXT["exec"]},
    "sglang.srt.managers.scheduler_components.metrics_reporter": {"PrefillStats": _NoPrefillStats,
                                                                  "RECORD_STEP_TIME": False},
    "sglang.srt.layers.attention.dsa.utils": {"is_dsa_prefill_cp_in_seq_split": lambda: False},
    "sglang.srt.layers.utils.cp_utils": {"is_prefill_context_parallel_enabled": lambda: False},
    "sglang.srt.observability.trace_async": {"is_async_tracing_available": lambda: False},
    "sglang.kernels.ops.quantization.fp8_kernel": {"is_fp8_fnuz": lambda: False},
    # NVTX profiling ranges around scheduler methods: the method itself.
    "sglang.srt.utils.nvtx_utils": {"scheduler_nvtx_method": lambda *a, **k: (
        a[0] if len(a) == 1 and callable(a[0]) and not k else (lambda fn: fn))},
}


def _mixin(module, name):
    """A mixin an upstream class (Scheduler, Req, ScheduleBatch) inherits from for a feature outside what the
    oracle drives: an empty class, so the real class keeps a plain metaclass; the mixin's methods are absent
    (AttributeError if reached)."""
    return type(name, (), {"__module__": module})


def _absent_module(name, names):
    def build(m):
        defined = dict(AT_IMPORT.get(name, {}))
        defined.update({n: _mixin(name, n) for n in names if n.endswith("Mixin")})
        absent(m, *[n for n in names if n not in defined])
        define(m, **defined)
    return build


for _name, _names in ABSENT.items():
    STUBS.setdefault(_name, _absent_module(_name, _names))
