#!/usr/bin/env bash
# A fixture of blis-scripts for shell: its marks sit after `#`, as in Python and YAML fixtures.
set -euo pipefail
python3 -m vllm.entrypoints.api_server  # expect: engine word 'vllm' in a shell script
python3 -m blis.entrypoints.api_server  # near-miss: a neutral module
ENGINE=sglang  # expect: engine word 'sglang' in a shell script
ENGINE=simulated  # near-miss: a neutral value
MAX_NUM_SEQS=256  # expect: script writes an engine default ('max_num_seqs')
MAX_SEQS=256  # near-miss: a bare number under a neutral name
blis run --max-num-batched-tokens 8192  # expect: script writes an engine default ('max_num_batched_tokens')
blis run --max-batched-tokens 8192  # near-miss: a neutral option
blis run --gpu-memory-utilization=0.9  # expect: script writes an engine default ('gpu_memory_utilization')
blis run --memory-share=0.9  # near-miss: a neutral option
blis run --max-num-seqs "$SEQS"  # expect: engine word 'max_num_seqs' in a shell script
blis run --max-seqs "$SEQS"  # near-miss: a value from a variable under a neutral option
echo "see # vllm"  # expect: engine word 'vllm' in a shell script
echo "see # notes"  # vllm timings  // near-miss: a comment is not flagged
