#!/usr/bin/env python3
"""DEV-10 one-detector: one detector classes steady-state runs, and applications reach it only through the
simulator. The detector is src/sim/analysis/steady_state.{h,cpp} (classify, on the trend tests of
src/sim/analysis/trend.h); src/sim runs it (src/sim/run/steady_state.cpp) and states its class in the
Result, which src/score, src/cli and every other reader take from there (or from `blis metrics`).

Flags, in the C++ of src/, engines/ and router/:
  - a file outside src/sim/ that includes the detector's parts (sim/analysis/steady_state.h or
    sim/analysis/trend.h): it could class a run itself instead of reading the simulator's class;
  - an enum outside src/sim/analysis/steady_state.h whose enumerators include settled and overloaded: a
    second set of run classes, the shape a second detector takes.
A detector written from scratch with neither is beyond what this reads; review covers it (the record's
question).

usage: one_detector.py INPUT
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tree  # noqa: E402

RUNTIME = ("src/", "engines/", "router/")
SOURCES = (".cpp", ".cc", ".h", ".hpp")
SITE = "src/sim/"
DETECTOR = "src/sim/analysis/steady_state.h"
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](sim/analysis/(?:steady_state|trend)\.h)[>"]', re.M)
CLASSES = re.compile(r"\benum\b[^{;]*\{([^}]*)\}", re.S)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("input")
    a = p.parse_args()
    findings = []
    read = 0
    for rel in tree.files(a.input):
        if not (rel.startswith(RUNTIME) and rel.endswith(SOURCES)):
            continue
        text = tree.read_text(os.path.join(a.input, rel))
        if text is None:
            continue
        read += 1
        if not rel.startswith(SITE):
            for m in INCLUDE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                findings.append(f"{rel}:{line}: includes {m.group(1)}: outside src/sim it reaches the detector's "
                                f"parts; read the run's class from the Result (src/sim's run API) [one-detector; DEV-10]")
        if rel != DETECTOR:
            for m in CLASSES.finditer(text):
                names = set(re.findall(r"\b\w+\b", m.group(1)))
                if {"settled", "overloaded"} <= names:
                    line = text.count("\n", 0, m.start()) + 1
                    findings.append(f"{rel}:{line}: an enum of run classes (settled, overloaded) outside {DETECTOR}: "
                                    f"a second detector's classes; use analysis::RunClass [one-detector; DEV-10]")
    return tree.finish(findings, f"one-detector: {read} runtime sources; the detector's parts are reached only "
                                 f"from src/sim, and its classes are defined once")


if __name__ == "__main__":
    sys.exit(main())
