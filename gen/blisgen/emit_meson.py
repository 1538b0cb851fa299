"""The Meson registration of every ci check and its known-bad run (read by meson.build at configure time).

One line per ci check, tab-separated: id, check name, suite, meson test name, known-bad path, expected
text ('-' when none), the real run's input, runner (meson, script, shared or lint), then the command's arguments joined by '|'. Meson 1.0 has no JSON reader;
this flat form is what its string methods can split.
"""
from __future__ import annotations

from .registry import RUNS_SUITE, Record


def emit(records: list[Record]) -> str:
    lines = []
    first: dict[str, tuple] = {}  # meson test name -> (record, command, input) of its first ci check
    for r in records:
        for c in r.checks:
            if c.status != "ci":
                continue
            runner = c.runner
            if c.runner == "meson" and c.target in first:
                # Several records may name one check (e.g. a staleness test guards X7 and SUB-2): the real
                # run is registered once; each record keeps its own known-bad run.
                rid, cmd, inp = first[c.target]
                if (cmd, inp) != (c.command, c.input):
                    raise ValueError(f"{r.path}: check {c.name}: target {c.target} is already {rid}'s check "
                                     f"with another command or input")
                runner = "shared"
            elif c.runner == "meson":
                first[c.target] = (r.id, c.command, c.input)
            for arg in c.command:
                if "|" in arg or "\t" in arg:
                    raise ValueError(f"{r.path}: check {c.name}: argument {arg!r} holds '|' or a tab")
            suite = RUNS_SUITE[c.runs] or "required"
            lines.append("\t".join([r.id, c.name, suite, c.target, c.known_bad, c.expect or "-",
                                    c.input, runner, "|".join(c.command)]))
    return "\n".join(lines) + "\n"
