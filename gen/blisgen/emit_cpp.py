"""The C++ table compiled into the blis binary (build directory only)."""
from __future__ import annotations

from .emit_json import record_dict
from .registry import Record
from .render import render


def emit(records: list[Record]) -> str:
    rows = []
    for r in records:
        d = record_dict(r)
        d["cname"] = r.id.replace("-", "_")
        for c, cd in zip(r.checks, d["checks"]):
            cd["in_build"] = c.in_build
        rows.append(d)
    return render("invariants_table.cpp.j2", records=rows)
