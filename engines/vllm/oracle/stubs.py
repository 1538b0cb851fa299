"""The vLLM oracle's replacements (X5, FID-1): what stands in for torch, the GPU, transports, platforms and
configuration objects while the pinned vLLM's own scheduler, KV-cache manager, coordinators and block pool
run unmodified. Every entry here is listed, with its kind and reason, in manifest.yaml beside this file;
the loader (checks/harness/oracle/loader.py) refuses a stub not listed there and an import under a
guarded package that is neither real, a shell nor listed.

No function here makes a scheduling or caching decision. Configuration objects are plain values the
runner fills from the scenario (they are resolved configuration, not its resolution).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import sys
import types

sys.path.insert(0, __file__.rsplit("/engines/", 1)[0])
from checks.harness.oracle.stubkit import absent, define  # noqa: E402


# --- torch: dtypes only (the KV cache specs name a dtype; nothing is computed on tensors).
class _DType:
    def __init__(self, name: str, itemsize: int):
        self.name = name
        self.itemsize = itemsize

    def __repr__(self):
        return f"torch.{self.name}"


def _torch(m):
    absent(m, "Tensor", "device", "Generator")
    nn = types.ModuleType("torch.nn")
    absent(nn, "Module")
    define(m, nn=nn)
    define(m, dtype=_DType, float32=_DType("float32", 4), float16=_DType("float16", 2),
           bfloat16=_DType("bfloat16", 2), int8=_DType("int8", 1), uint8=_DType("uint8", 1),
           int32=_DType("int32", 4), int64=_DType("int64", 8), float8_e4m3fn=_DType("float8_e4m3fn", 1),
           float8_e5m2=_DType("float8_e5m2", 1), __version__="0.0+oracle-stub")


def _numpy(m):
    absent(m, "ndarray", "array", "int32", "int64", "float32")


def _numpy_typing(m):
    absent(m, "NDArray")


# --- msgspec: a serialisation library. Struct becomes a dataclass with msgspec's constructor rules
# (positional then keyword fields in declaration order, defaults, default factories).
class _Field:
    def __init__(self, default=dataclasses.MISSING, default_factory=None, name=None):
        self.default = default
        self.factory = default_factory


class _StructMeta(type):
    def __new__(mcls, name, bases, ns, **kwargs):
        cls = super().__new__(mcls, name, bases, ns)
        if name != "Struct":
            for key, value in list(cls.__dict__.items()):
                if key.startswith("__"):
                    continue
                if isinstance(value, (list, dict, set)):  # msgspec copies mutable defaults
                    setattr(cls, key, dataclasses.field(default_factory=lambda v=value: type(v)(v)))
                elif isinstance(value, _Field):
                    setattr(cls, key, dataclasses.field(default=value.default) if value.factory is None
                            else dataclasses.field(default_factory=value.factory))
            cls = dataclasses.dataclass(cls, eq=kwargs.get("eq", True), kw_only=kwargs.get("kw_only", False))
        return cls


class _Struct(metaclass=_StructMeta):
    def __init_subclass__(cls, **kwargs):  # array_like, omit_defaults, gc, tag, ...: encoding options
        super().__init_subclass__()


def _msgspec(m):
    define(m, Struct=_Struct, field=lambda default=dataclasses.MISSING, default_factory=None, name=None:
           _Field(default, default_factory, name), UNSET=None, UnsetType=type(None), Meta=lambda **k: None)
    absent(m, "msgpack", "Raw", "json")


def _zmq(m):
    absent(m, "Context", "Socket", "PUB", "ROUTER", "Poller")


def _cbor2(m):
    absent(m, "dumps", "loads")


def _xxhash(m):
    absent(m, "xxh3_128_digest", "xxh3_128")


# --- vllm.logger: upstream's logging set-up (handlers, env-driven config) replaced by plain loggers.
def _logger(m):
    define(m, init_logger=lambda name: logging.getLogger(name))


# --- configuration objects given as resolved values (the runner fills VllmConfig from the scenario).
class VllmConfig(types.SimpleNamespace):
    pass


@dataclasses.dataclass
class KVEventsConfig:
    """vllm/config/kv_events.py@6e448d0e KVEventsConfig's fields, as resolved values."""

    enable_kv_cache_events: bool = False
    publisher: str = "null"
    endpoint: str = "tcp://*:5557"
    replay_endpoint: str | None = None
    buffer_steps: int = 10_000
    hwm: int = 100_000
    max_queue_size: int = 100_000
    topic: str = ""


def _config(m):
    define(m, VllmConfig=VllmConfig, KVEventsConfig=KVEventsConfig,
           get_current_vllm_config_or_none=lambda: None)


def _config_kv_events(m):
    define(m, KVEventsConfig=KVEventsConfig)


def _config_ec_manager(m):
    absent(m, "EncoderCacheManagerMetadata")


def _config_utils(m):
    # Only used by kv_cache_interface's spec hashing of config values; identity on plain values.
    define(m, normalize_value=lambda v: v)


# --- features the port refuses (connectors, multimodal, LoRA, pooling, speculative decoding, structured
# output, routed-expert capture): named so the modules import, and failing if ever used.
def _cuda_graph(m):
    absent(m, "CUDAGraphStat")


def _ec_base(m):
    absent(m, "ECConnectorBase", "ECConnectorMetadata", "ECConnectorRole")


def _ec_factory(m):
    absent(m, "ECConnectorFactory")


def _kv_factory(m):
    absent(m, "KVConnectorFactory")


def _kv_v1(m):
    absent(m, "KVConnectorBase_V1", "KVConnectorRole", "SupportsHMA")


def _kv_v1_base(m):
    absent(m, "KVConnectorMetadata", "KVConnectorWorkerMetadata")


def _kv_v1_metrics(m):
    absent(m, "KVConnectorStats")


def _lora_request(m):
    absent(m, "LoRARequest")


def _routed_experts(m):
    absent(m, "RoutedExpertsManager")


class _TextOnlyRegistry:
    """A multimodal registry for a text-only model: supports_multimodal_inputs is False."""

    def supports_multimodal_inputs(self, model_config):
        return False


def _multimodal(m):
    define(m, MULTIMODAL_REGISTRY=_TextOnlyRegistry(), MultiModalRegistry=_TextOnlyRegistry)


def _mm_budget(m):
    absent(m, "MultiModalBudget")


def _mm_inputs(m):
    absent(m, "MultiModalFeatureSpec")


def _mm_utils(m):
    absent(m, "get_mm_features_in_window")


def _platforms(m):
    class _Platform:
        def register_custom_kv_cache_specs(self, vllm_config):
            return None

    define(m, current_platform=_Platform())


def _pooling_params(m):
    absent(m, "PoolingParams")


@dataclasses.dataclass
class SamplingParams:
    """Resolved sampling parameters (what SamplingParams.__post_init__ and update_from_generation_config
    leave on the object for a text request without logprobs or structured output)."""

    max_tokens: int
    eos_token_id: int | None = None
    stop_token_ids: list[int] = dataclasses.field(default_factory=list)
    ignore_eos: bool = False
    min_tokens: int = 0
    extra_args: dict | None = None
    repetition_detection: None = None
    routed_experts_prompt_start: None = None
    skip_reading_prefix_cache: bool | None = False
    num_logprobs: int | None = None
    structured_outputs: None = None
    logprobs: None = None
    prompt_logprobs: None = None


def _sampling_params(m):
    define(m, SamplingParams=SamplingParams)
    absent(m, "RepetitionDetectionParams")


def _mem_utils(m):
    define(m, format_gib=lambda b: f"{b / (1 << 30):.2f}")


def _torch_utils(m):
    define(m, get_dtype_size=lambda dtype: dtype.itemsize, is_torch_equal_or_newer=lambda v: False)
    absent(m, "nvfp4_kv_cache_full_dim")


def _perf(m):
    absent(m, "ModelMetrics", "PerfStats")


def _serial_utils(m):
    absent(m, "UtilityResult")


def _dynamic_sd(m):
    absent(m, "build_dynamic_sd_schedule_lookup")


def _spec_metrics(m):
    absent(m, "SpecDecodingStats")


class StructuredOutputManager:
    """No request carries structured output (the port refuses it): nothing ever advances a grammar."""

    def should_advance(self, request, new_token_ids=None) -> bool:
        if request.use_structured_output:
            raise AssertionError("oracle: a request with structured output reached the stub manager")
        return False


def _structured_output(m):
    absent(m, "StructuredOutputGrammar")
    define(m, StructuredOutputManager=StructuredOutputManager)


class _NoStructuredOutput:
    @staticmethod
    def from_sampling_params(sampling_params):
        return None


def _structured_output_request(m):
    define(m, StructuredOutputRequest=_NoStructuredOutput)


def _v1_utils(m):
    # ConstantList and tensor_data are upstream's own (extracted by the loader); the profiler range is a
    # no-op (no torch profiler).
    define(m, record_function_or_nullcontext=lambda name: contextlib.nullcontext())


STUBS = {
    "torch": _torch,
    "numpy": _numpy,
    "numpy.typing": _numpy_typing,
    "msgspec": _msgspec,
    "zmq": _zmq,
    "cbor2": _cbor2,
    "xxhash": _xxhash,
    "vllm.logger": _logger,
    "vllm.config": _config,
    "vllm.config.kv_events": _config_kv_events,
    "vllm.config.ec_manager_config": _config_ec_manager,
    "vllm.config.utils": _config_utils,
    "vllm.compilation.cuda_graph": _cuda_graph,
    "vllm.distributed.ec_transfer.ec_connector.base": _ec_base,
    "vllm.distributed.ec_transfer.ec_connector.factory": _ec_factory,
    "vllm.distributed.kv_transfer.kv_connector.factory": _kv_factory,
    "vllm.distributed.kv_transfer.kv_connector.v1": _kv_v1,
    "vllm.distributed.kv_transfer.kv_connector.v1.base": _kv_v1_base,
    "vllm.distributed.kv_transfer.kv_connector.v1.metrics": _kv_v1_metrics,
    "vllm.lora.request": _lora_request,
    "vllm.model_executor.layers.fused_moe.routed_experts_capturer": _routed_experts,
    "vllm.multimodal": _multimodal,
    "vllm.multimodal.encoder_budget": _mm_budget,
    "vllm.multimodal.inputs": _mm_inputs,
    "vllm.multimodal.utils": _mm_utils,
    "vllm.platforms": _platforms,
    "vllm.pooling_params": _pooling_params,
    "vllm.sampling_params": _sampling_params,
    "vllm.utils.mem_utils": _mem_utils,
    "vllm.utils.torch_utils": _torch_utils,
    "vllm.v1.metrics.perf": _perf,
    "vllm.v1.serial_utils": _serial_utils,
    "vllm.v1.spec_decode.dynamic.utils": _dynamic_sd,
    "vllm.v1.spec_decode.metrics": _spec_metrics,
    "vllm.v1.structured_output": _structured_output,
    "vllm.v1.structured_output.request": _structured_output_request,
    "vllm.v1.utils": _v1_utils,
}
