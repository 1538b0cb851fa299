#!/usr/bin/env python3
"""SUB-19: one definition per document. Documents are read only by the readers blis-gen compiles from
schemas/, through the strict parser in src/contracts/doc/. Any other C++ code that parses YAML or JSON
itself (yaml-cpp's Load/LoadFile/Parser, nlohmann's parse) is a second, hand-written definition of a
document, and is flagged.

usage: document_readers.py INPUT
Allowed: src/contracts/doc/ (the one parser), tests/ (test drivers read their own case files), and
checks/ (tools that read compile_commands.json and other tool outputs, not BLIS documents).
"""
import argparse
import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tree  # noqa: E402

ALLOWED = ("src/contracts/doc/", "tests/", "checks/", "gen/")
# Declared allowances, each with its reason (a lint allowance is written here, never in the code it skips).
ALLOWANCES = {
    "src/data/coefficients.cpp": "reads only the identity (set, name, scope, method) of coefficient files the "
                                 "generated reader validates in the same load, to merge overlays; to be replaced "
                                 "by the generated CoefficientSet reader when the cost model reads entries",
    "engines/*/surface/gen_surface.cpp": "a build tool, never linked into the engine: it reads the Upstream record "
                                         "and its hand-written statuses.yaml, which have no schema yet; the "
                                         "surface.json it writes is validated by the generated surface-list reader "
                                         "(the surface-status check)",
    "router/epp/config/loader/yamljson.cpp": "the router port reads the user's EndpointPickerConfig (router.config) "
                                             "as llm-d's loader does (X1): YAML converted to JSON as "
                                             "sigs.k8s.io/yaml does, then decoded with llm-d's strict semantics and "
                                             "error texts; the document is llm-d's, defined by its apix types, not "
                                             "a BLIS schema (the scenario's router.config field holds it verbatim)",
}
CALLS = re.compile(r"\bYAML::(Load|LoadFile|LoadAll|LoadAllFromFile|Parser)\b|\bjson::parse\s*\(|"
                   r"\bnlohmann::(ordered_)?json::parse\s*\(|\bsimdjson::")
SOURCES = (".cpp", ".cc", ".h", ".hpp")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("input")
    a = p.parse_args()
    read, found = tree.lines(a.input, lambda rel: rel.endswith(SOURCES) and not rel.startswith(ALLOWED)
                          and not any(fnmatch.fnmatch(rel, k) for k in ALLOWANCES))
    findings = [f"{rel}:{n}: parses a document by hand; read it with the reader blis-gen compiles from "
                f"schemas/ [document-readers; SUB-19]" for rel, n, line in found if CALLS.search(line)]
    return tree.finish(findings, f"document-readers: {read} sources read documents only through generated readers")


if __name__ == "__main__":
    sys.exit(main())
