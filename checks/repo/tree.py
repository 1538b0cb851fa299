"""Walks a source tree the way the repository checks read it: sorted, without build output or fixtures."""
from __future__ import annotations

import os

# Never sources of this project: git's own data, build directories, fetched third-party code, and the
# known-bad fixtures (inputs that must fail a check, read only by the harness).
# Test fixtures and golden outputs are inputs and expectations, not sources: a check's own tests keep the
# bad text they feed it in a fixtures/ directory.
SKIP_DIRS = {".git", "third_party", "node_modules", "__pycache__", "subprojects", "fixtures", "golden"}
SKIP_PATHS = {"tests/known_bad"}


def files(root: str) -> list[str]:
    """Relative paths of the files under root, sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir
        keep = []
        for d in sorted(dirnames):
            rel = os.path.join(rel_dir, d)
            if d in SKIP_DIRS or d.startswith("build") or rel in SKIP_PATHS:
                continue
            if os.path.isfile(os.path.join(dirpath, d, "meson-private", "coredata.dat")):
                continue  # a Meson build directory under any name
            keep.append(d)
        dirnames[:] = keep
        out.extend(os.path.join(rel_dir, f) for f in filenames)
    return sorted(out)


def read_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None


def lines(root: str, keep) -> tuple[int, list[tuple[str, int, str]]]:
    """(files read, [(path, line number, line)]) for the text files under root that keep(path) accepts."""
    read = 0
    out = []
    for rel in files(root):
        if not keep(rel):
            continue
        text = read_text(os.path.join(root, rel))
        if text is None:
            continue
        read += 1
        out.extend((rel, n, line) for n, line in enumerate(text.splitlines(), 1))
    return read, out


def finish(findings: list[str], ok_message: str) -> int:
    """Prints the findings (exit 1) or the one-line all-clear (exit 0): every check ends the same way."""
    for f in findings:
        print(f)
    if findings:
        return 1
    print(ok_message)
    return 0
