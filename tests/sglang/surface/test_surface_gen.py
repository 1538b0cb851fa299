#!/usr/bin/env python3
"""sglang-surface-gen (SGL-4, SGL-6) on small SGLang-shaped trees: what it lists, and what it refuses.

usage: test_surface_gen.py SOURCE_ROOT SGLANG_SURFACE_GEN
Each tree holds the few files the reader reads (an enum, a base class and a subclass in another file, a
registration call, a ServerArgs field with choices, a metric), written here; the real tree is read only in
the upstream tier (sglang-surface-generate).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.abspath(sys.argv.pop(1))
GEN = os.path.abspath(sys.argv.pop(1))
SRT = "python/sglang/srt"
FILES = {
    "disaggregation/utils.py": """
        class TransferBackend(Enum):
            MOONCAKE = "mooncake"
            NIXL = "nixl"
        """,
    "disaggregation/kv_events.py": """
        class KVCacheEvent(msgspec.Struct):
            pass
        class BlockStored(KVCacheEvent):
            pass
        """,
    "mem_cache/base_prefix_cache.py": "class BasePrefixCache(ABC):\n    pass\n",
    "mem_cache/radix_cache.py": "class RadixCache(BasePrefixCache):\n    pass\n",
    "mem_cache/hiradix_cache.py": "class HiRadixCache(radix_cache.RadixCache):\n    pass\n",
    "mem_cache/allocator/base.py": "class BaseTokenToKVPoolAllocator(abc.ABC):\n    pass\n",
    "mem_cache/allocator/token.py": "class TokenToKVPoolAllocator(BaseTokenToKVPoolAllocator):\n    pass\n",
    "mem_cache/memory_pool.py": "class KVCache(abc.ABC):\n    pass\nclass MHATokenToKVPool(KVCache):\n    pass\n",
    "mem_cache/storage/backend_factory.py": 'StorageBackendFactory.register_backend("file", "m", "C")\n',
    "mem_cache/unified_cache/tree_core_registry.py": 'register_tree_core_backend("python", f)\n',
    "speculative/spec_info.py": "class SpeculativeAlgorithm(Enum):\n    EAGLE = auto()\n    NONE = auto()\n",
    "server_args.py": """
        POLICIES = ["lru", "lfu"]
        class ServerArgs:
            schedule_policy: A[str, Arg(help="p", choices=["lpm", "fcfs"])] = "fcfs"
            radix_eviction_policy: A[str, Arg(choices=POLICIES)] = "lru"
            retraction_policy: A[str, Arg(choices=["length"])] = "length"
            attention_backend: A[Optional[str], Arg(choices=["fa3", "triton"])] = None
            page_size: A[int, Arg(help="no choices")] = 1
        """,
    "observability/metrics_collector.py": 'g = Gauge(name="sglang:num_running_reqs", documentation="d")\n',
}


def make_tree(tmp: str, files: dict) -> str:
    checkout = os.path.join(tmp, "checkout")
    for rel, text in files.items():
        path = os.path.join(checkout, SRT, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text).lstrip("\n"))
    return checkout


def make_root(tmp: str, statuses: str) -> str:
    root = os.path.join(tmp, "root")
    os.makedirs(os.path.join(root, "engines", "sglang", "surface"))
    shutil.copy(os.path.join(ROOT, "engines", "sglang", "upstream.yaml"), os.path.join(root, "engines", "sglang"))
    with open(os.path.join(root, "engines", "sglang", "surface", "statuses.yaml"), "w", encoding="utf-8") as f:
        f.write(statuses)
    return root


CATEGORIES = ["transfer_backend", "hicache_storage_backend", "tree_cache", "tree_core", "allocator", "memory_pool",
              "speculative_algorithm", "schedule_policy", "eviction_policy", "retraction_policy",
              "attention_backend", "metric_family", "kv_event"]
REFUSED = "defaults:\n" + "".join(f"  {c}:\n    refused: {{issue: \"#9\", message: not yet.}}\n" for c in CATEGORIES) + \
    "items: []\n"


def run(checkout: str, root: str) -> subprocess.CompletedProcess:
    return subprocess.run([GEN, "surface", "--checkout", checkout, "--root", root], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


class SurfaceGen(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_lists_every_category_from_its_definition(self):
        p = run(make_tree(self.tmp, FILES), make_root(self.tmp, REFUSED))
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = json.loads(p.stdout)
        got = {}
        for it in doc["items"]:
            got.setdefault(it["category"], []).append(it["name"])
        self.assertEqual(got, {
            "allocator": ["BaseTokenToKVPoolAllocator", "TokenToKVPoolAllocator"],
            "attention_backend": ["fa3", "triton"],
            "eviction_policy": ["lfu", "lru"],
            "hicache_storage_backend": ["file"],
            "kv_event": ["BlockStored", "KVCacheEvent"],
            "memory_pool": ["KVCache", "MHATokenToKVPool"],
            "metric_family": ["sglang:num_running_reqs"],
            "retraction_policy": ["length"],
            "schedule_policy": ["fcfs", "lpm"],
            "speculative_algorithm": ["EAGLE", "NONE"],
            "transfer_backend": ["mooncake", "nixl"],
            # transitively: HiRadixCache derives RadixCache by a dotted base name
            "tree_cache": ["BasePrefixCache", "HiRadixCache", "RadixCache"],
            "tree_core": ["python"],
        })
        hi = next(i for i in doc["items"] if i["name"] == "HiRadixCache")
        self.assertEqual(hi["registered_at"], f"{SRT}/mem_cache/hiradix_cache.py@71de97b2:1")
        base = next(i for i in doc["items"] if i["name"] == "BasePrefixCache")
        self.assertTrue(base.get("framework"))
        self.assertEqual(doc["upstream"]["name"], "sglang")

    def refused(self, files, expect, statuses=REFUSED):
        p = run(make_tree(self.tmp, files), make_root(self.tmp, statuses))
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn(expect, p.stderr)
        self.assertEqual(p.stdout, "")

    def test_a_missing_enum_stops_the_list(self):
        files = dict(FILES)
        files["speculative/spec_info.py"] = "class Other(Enum):\n    A = 1\n"
        self.refused(files, "no class SpeculativeAlgorithm")

    def test_a_metric_name_built_at_run_time_stops_the_list(self):
        files = dict(FILES)
        files["observability/metrics_collector.py"] = 'g = Gauge(name=f"sglang:{x}_reqs", documentation="d")\n'
        self.refused(files, "a metric name built at run time")

    def test_choices_not_a_string_list_stop_the_list(self):
        files = dict(FILES)
        files["server_args.py"] = FILES["server_args.py"].replace('choices=["length"]', "choices=make()")
        self.refused(files, "the choices of ServerArgs.retraction_policy (make()) are not a list of string literals")

    def test_a_status_for_an_item_the_release_lacks_stops_the_list(self):
        self.refused(FILES, "statuses.yaml: tree_cache NoSuchCache is not selectable in the release",
                     REFUSED.replace("items: []\n", "items:\n  - {category: tree_cache, name: NoSuchCache, "
                                                    "refused: {issue: \"#9\", message: x.}}\n"))

    def test_an_item_without_a_status_stops_the_list(self):
        self.refused(FILES, "no status for tree_core python",
                     REFUSED.replace("  tree_core:\n    refused: {issue: \"#9\", message: not yet.}\n", ""))


if __name__ == "__main__":
    unittest.main()
