"""Committed, human-read outputs: AGENTS.md, docs/invariants.md and the two checklists."""
from __future__ import annotations

from collections import Counter

from .emit_json import record_dict
from .registry import Record, STATUS_ORDER
from .render import render

OUTPUTS = {
    "AGENTS.md": "AGENTS.md.j2",
    "docs/invariants.md": "invariants.md.j2",
    "docs/checklists/pull-request.md": "pull-request.md.j2",
    "docs/checklists/maintainer.md": "maintainer.md.j2",
}


def _context(records: list[Record]) -> dict:
    rows = [record_dict(r) for r in records]
    families = []
    for fam in dict.fromkeys(r.family for r in records):
        members = [d for d in rows if d["family"] == fam]
        counts = Counter(d["status"] for d in members)
        families.append({"name": fam, "records": members,
                         "counts": [(s, counts[s]) for s in STATUS_ORDER if counts[s]]})
    return {
        "records": rows,
        "families": families,
        "guidance": [d for d in rows if "guidance" in d["kind"] and not d["undefined"]],
        "practices": [(d, c) for d in rows for c in d["checks"] if c["status"] == "practice"],
        "reviewed": [d for d in rows if d["review"]],
    }


def emit_all(records: list[Record]) -> dict[str, str]:
    ctx = _context(records)
    return {out: render(tpl, **ctx) for out, tpl in OUTPUTS.items()}
