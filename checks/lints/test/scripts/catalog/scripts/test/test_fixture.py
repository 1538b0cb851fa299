ENGINE = "vllm"  # near-miss: tests are exempt
