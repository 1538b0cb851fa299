#!/usr/bin/env python3
"""SUB-15: a model graph holds only what the checkpoint states. Lowering (how an engine shards, fuses,
pads or repacks a tensor, its page size, its kernels, the nodes it emits under a layout) belongs to the
engine, so no key of a graph.yaml may name it, and no value may name an engine.

usage: graph_vocabulary.py MODELS_DIR   (every <model>/graph.yaml below it)
"""
import argparse
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tree  # noqa: E402

# Keys that describe lowering or a layout, never a checkpoint.
LOWERING_KEYS = re.compile(r"^(page_size|block_size|kv_block_size|tensor_parallel(_size)?|tp|pp|ep|dp|"
                           r"pipeline_parallel(_size)?|expert_parallel(_size)?|shard(s|ing)?(_.*)?|fused(_.*)?|"
                           r"fusion|pad(ding|ded)?(_.*)?|repack(ed)?|kernel(s)?|backend|attention_backend|"
                           r"cuda_graph(s)?|capture_sizes|emit(s|ted)?(_.*)?|lowering|layout)$")
ENGINE_WORDS = re.compile(r"\b(vllm|sglang|tensorrt|trt-?llm|lmdeploy)\b", re.IGNORECASE)


def walk(value, path, out):
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str) and LOWERING_KEYS.match(k):
                out.append(f"{'.'.join(path + [k])}: names lowering ('{k}'), which belongs to the engine")
            walk(v, path + [str(k)], out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            walk(v, path + [str(i)], out)
    elif isinstance(value, str) and ENGINE_WORDS.search(value):
        out.append(f"{'.'.join(path)}: names an engine ('{ENGINE_WORDS.search(value).group(0)}')")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("models")
    a = p.parse_args()
    findings, read = [], 0
    for name in sorted(os.listdir(a.models)):
        path = os.path.join(a.models, name, "graph.yaml")
        if not os.path.isfile(path):
            continue
        read += 1
        with open(path, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        found = []
        walk(doc, [], found)
        findings += [f"{path}: {x} [graph-vocabulary; SUB-15]" for x in found]
    if read == 0:
        findings.append(f"{a.models}: no graph.yaml to check [graph-vocabulary; SUB-15]")
    return tree.finish(findings, f"graph-vocabulary: {read} graphs state checkpoint facts only")


if __name__ == "__main__":
    sys.exit(main())
