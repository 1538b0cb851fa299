"""Which upstream functions an oracle's recorded scenarios call (FID-4), shared by the engine runners.

  ran = coverage.start(checkout, manifest)   # before the scenarios run
  ...                                        # run them
  coverage.write(out, checkout, manifest, ran)

The record names every function and method each real module of the manifest defines (by qualified name)
and whether a scenario called it; checks/harness/oracle/check_function_coverage.py reads it.
"""

from __future__ import annotations

import ast
import json
import os
import sys


def start(checkout: str, manifest: dict) -> set:
    real_files = {os.path.join(os.path.abspath(checkout), e["path"]): e["path"] for e in manifest["real"]}
    ran: set = set()

    def tracer(frame, event, arg):
        if event == "call":
            path = real_files.get(frame.f_code.co_filename)
            if path is not None:
                ran.add((path, frame.f_code.co_qualname))
        return None

    sys.settrace(tracer)
    return ran


def write(out: str, checkout: str, manifest: dict, ran: set) -> None:
    sys.settrace(None)
    modules = {}
    for e in manifest["real"]:
        with open(os.path.join(checkout, e["path"]), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        defined = []

        def walk(body, prefix):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defined.append(prefix + node.name)
                    walk(node.body, prefix + node.name + ".<locals>.")
                elif isinstance(node, ast.ClassDef):
                    walk(node.body, prefix + node.name + ".")

        walk(tree.body, "")
        modules[e["path"]] = {q: (e["path"], q) in ran for q in sorted(set(defined))}
    doc = {"upstream_commit": manifest["commit"], "manifest_version": manifest["version"],
           "note": "recorded by the runner's --coverage over every scenario it ran", "modules": modules}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    n = sum(len(v) for v in modules.values())
    hit = sum(sum(v.values()) for v in modules.values())
    print(f"{out}: {hit} of {n} upstream functions ran")
