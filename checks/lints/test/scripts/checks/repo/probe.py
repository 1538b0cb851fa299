ENGINE = "vllm"  # expect: engine word 'vllm' in a script string
