"""docs/invariants.json: the registry as data, byte-identical to `blis invariants --json`."""
from __future__ import annotations

import json

from .registry import Record


def record_dict(r: Record) -> dict:
    return {
        "id": r.id, "family": r.family, "title": r.title, "section": r.section,
        "statement": r.statement, "applies_to": r.applies_to, "kind": r.kind,
        "checks": [{
            "name": c.name, "runs": c.runs, "target": c.target, "status": c.status,
            "command": c.command, "input": c.input, "known_bad": c.known_bad, "expect": c.expect,
            "runner": c.runner,
        } for c in r.checks],
        "review": None if r.review is None else {
            "question": " ".join(r.review["question"].split()), "expertise": r.review["expertise"],
            "applies_when": r.review["applies_when"]},
        "status": r.status,
        "cpp_counterpart": None if r.cpp_counterpart is None else {
            "design": r.cpp_counterpart["design"], "here": " ".join(r.cpp_counterpart["here"].split())},
        "not_applicable": None if r.not_applicable is None else " ".join(r.not_applicable.split()),
        "gaps": [" ".join(g.split()) for g in r.gaps],
        "trigger": r.trigger,
        "undefined": None if r.undefined is None else " ".join(r.undefined.split()),
    }


def emit(records: list[Record]) -> str:
    return json.dumps({"invariants": [record_dict(r) for r in records]}, indent=2, ensure_ascii=False) + "\n"
