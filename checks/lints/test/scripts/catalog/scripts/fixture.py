"""A fixture of blis-scripts (X19, X2); the docstring may name vllm: documentation is not flagged."""  # near-miss: a docstring
import argparse
import vllm  # expect: engine word 'vllm' in a script identifier
import statistics  # near-miss: a neutral module

ENGINE = "sglang"  # expect: engine word 'sglang' in a script string
ENGINE_KIND = "simulated"  # near-miss: a neutral string
LABEL = f"run-{ENGINE_KIND}-vllm"  # expect: engine word 'vllm' in a script string
LABEL_TOO = f"run-{ENGINE_KIND}-sim"  # near-miss: the replacement field is an identifier, not text

max_num_seqs = 256  # expect: script writes an engine default ('max_num_seqs')
max_batch = 256  # near-miss: a bare number under a neutral key is for X19's generator test to catch
max_num_seqs = None  # expect: engine word 'max_num_seqs' in a script identifier
max_num_seqs = statistics.median([1, 2])  # expect: engine word 'max_num_seqs' in a script identifier


class Settings:
    max_num_batched_tokens: int = 8192  # expect: script writes an engine default ('max_num_batched_tokens')
    batch_tokens: int = 8192  # near-miss: a neutral field

    def __init__(self):
        self.enable_chunked_prefill = True  # expect: script writes an engine default ('enable_chunked_prefill')
        self.chunked = True  # near-miss: a neutral attribute


def build(gpu_memory_utilization=0.9):  # expect: script writes an engine default ('gpu_memory_utilization')
    return gpu_memory_utilization  # expect: engine word 'gpu_memory_utilization' in a script identifier


def build_neutral(memory_share=0.9):  # near-miss: a neutral parameter
    return memory_share  # near-miss: a neutral name


settings = dict(enable_prefix_caching=True)  # expect: script writes an engine default ('enable_prefix_caching')
settings = dict(prefix_reuse=True)  # near-miss: a neutral keyword
cfg = {"mem_fraction_static": 0.88}  # expect: script writes an engine default ('mem_fraction_static')
cfg = {"memory_fraction": 0.88}  # near-miss: a neutral key
cfg["max_running_requests"] = 64  # expect: script writes an engine default ('max_running_requests')
cfg["running_requests"] = 64  # near-miss: a neutral key

parser = argparse.ArgumentParser()
parser.add_argument("--max-num-seqs", type=int, default=256)  # expect: script writes an engine default ('max_num_seqs')
parser.add_argument("--max-seqs", type=int, default=256)  # near-miss: a neutral option
parser.add_argument("--chunked-prefill-size", type=int, default=None)  # expect: engine word 'chunked_prefill_size' in a script string
parser.add_argument("--chunk-size", type=int, default=None)  # near-miss: a neutral option left unset

row = {"note": "vllm/v1/core/sched/scheduler.py"}  # expect: engine word 'vllm' in a script string
row = {"source": "vllm/v1/core/sched/scheduler.py"}  # near-miss: a data-source citation is not an engine word
row = dict(url="https://github.com/sgl-project/sglang")  # near-miss: a citation keyword
# Measured with sglang on H100 (a comment citing where data came from).  near-miss: comments are not flagged
PINNED = "measured at 0.28.2"  # expect: engine word '0.28.2' in a script string
ROUTER = "routed by 0.11.3"  # near-miss: the router's pin is no engine's
