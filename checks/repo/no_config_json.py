#!/usr/bin/env python3
"""SUB-3: no runtime code reads a vendor config.json. Every model value the runtime needs is a field of
the model's graph.yaml, written by catalog/scripts/derive_graph.py; the loader skips config.json by name
(src/data/patterns.yaml). Flags any string literal naming config.json as a path in the C++ of src/,
engines/ and router/.

usage: no_config_json.py INPUT
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tree  # noqa: E402

RUNTIME = ("src/", "engines/", "router/")
SOURCES = (".cpp", ".cc", ".h", ".hpp")
# A string literal holding config.json as a path (no blank inside it): code that could open it. Prose in a
# message, such as vLLM's own error text quoting "in model's config.json)", names no file to open.
MENTION = re.compile(r"\"[^\"\s]*config\.json[^\"\s]*\"")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("input")
    a = p.parse_args()
    read, found = tree.lines(a.input, lambda rel: rel.startswith(RUNTIME) and rel.endswith(SOURCES))
    findings = [f"{rel}:{n}: runtime code names config.json; read the model's graph.yaml instead "
                f"[no-runtime-config-json; SUB-3]" for rel, n, line in found if MENTION.search(line)]
    return tree.finish(findings, f"no-runtime-config-json: {read} runtime sources never name config.json")


if __name__ == "__main__":
    sys.exit(main())
