engine = "vllm"  # near-miss: Python belongs to the scripts lint
