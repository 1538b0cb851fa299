ENGINE_WORDS = ("vllm", "sglang")  # near-miss: an allowed file (a check that detects engine names names them)
