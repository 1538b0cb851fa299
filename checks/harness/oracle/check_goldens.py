#!/usr/bin/python3
"""FID-3 golden-reviewed-line: a committed trace's decisions change only in a commit that says so.

  check_goldens.py SOURCE

SOURCE is a git work tree (the repository itself) or a git fast-import stream (`*.fi`, imported into a
scratch repository first: how the known-bad histories are written). The check walks every commit reachable
from HEAD (the stream's `refs/heads/main`) that touches a recorded oracle trace
(`engines/<engine>/oracle/traces/*.trace.json`) and, for each trace the commit modifies or deletes, compares
its decisions with the parent's: everything the trace holds except its provenance (`upstream_commit`,
`environment`, `manifest_version`; FID-2). A commit that changes or deletes a trace's decisions must carry a
line

    golden-reviewed: <trace path or fnmatch pattern>[:] <reason>

naming it; a `golden-reviewed:` line without a reason, or naming no trace whose decisions the commit changes,
is a finding too (a mistyped name would otherwise pass unnoticed). A new trace needs no line.

The whole history is checked (every re-recording since the first trace carried its line). Merge commits are
skipped (the commits they merge are checked); a shallow history is checked down to its boundary, and the
boundary is reported.
Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile

TRACES = ":(glob)engines/*/oracle/traces/*.trace.json"
PROVENANCE = ("upstream_commit", "environment", "manifest_version")
LINE = re.compile(r"^golden-reviewed:[ \t]*(\S*)[ \t]*(.*?)[ \t]*$")


class CannotRun(Exception):
    pass


def git(repo: str, *args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", "-C", repo, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and proc.returncode != 0:
        raise CannotRun(f"git {' '.join(args)}: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout.decode("utf-8", errors="replace") if proc.returncode == 0 else ""


def decisions(repo: str, commit: str, path: str):
    text = git(repo, "show", f"{commit}:{path}")
    try:
        trace = json.loads(text)
    except json.JSONDecodeError as e:
        return ("unreadable", str(e))  # an unreadable trace differs from any readable one
    if isinstance(trace, dict):
        for key in PROVENANCE:
            trace.pop(key, None)
    return trace


def reviewed_lines(message: str):
    """(pattern, reason) for every golden-reviewed line of a commit message."""
    out = []
    for line in message.splitlines():
        m = LINE.match(line.strip())
        if m:
            pattern = m.group(1)
            out.append((pattern[:-1] if pattern.endswith(":") else pattern, m.group(2)))
    return out


def check(repo: str, head: str) -> tuple[list[str], str]:
    commits = git(repo, "rev-list", "--reverse", head, "--", TRACES).split()
    shallow = set()
    if git(repo, "rev-parse", "--is-shallow-repository").strip() == "true":
        shallow = set(_read_lines(os.path.join(git(repo, "rev-parse", "--absolute-git-dir").strip(), "shallow")))
    findings, notes = [], []
    changed_total = 0
    for c in commits:
        parents = git(repo, "rev-list", "--parents", "-n", "1", c).split()[1:]
        if len(parents) > 1:
            notes.append(f"merge {c[:12]} skipped (its merged commits are checked)")
            continue
        if c in shallow:
            notes.append(f"history is shallow at {c[:12]}: its changes against its parent cannot be read")
            continue
        message = git(repo, "log", "-1", "--format=%B", c)
        subject = message.splitlines()[0] if message else ""
        where = f"commit {c[:12]} ({subject[:60]})"
        changed = []
        if parents:
            for row in git(repo, "diff-tree", "--no-renames", "-r", "--name-status", parents[0], c,
                           "--", TRACES).splitlines():
                status, path = row.split("\t", 1)
                if status == "A":
                    continue
                if status == "D" or decisions(repo, parents[0], path) != decisions(repo, c, path):
                    changed.append((path, "deleted" if status == "D" else "decisions changed"))
        changed_total += len(changed)
        lines = reviewed_lines(message)
        for pattern, reason in lines:
            if not pattern or not reason:
                findings.append(f"{where}: `golden-reviewed: {pattern} {reason}`: a golden-reviewed line names a "
                                f"trace and gives the reason")
            elif not any(fnmatch.fnmatchcase(p, pattern) for p, _ in changed):
                findings.append(f"{where}: golden-reviewed line names {pattern}, but this commit changes no "
                                f"recorded trace's decisions by that name")
        for path, what in changed:
            if not any(p and r and fnmatch.fnmatchcase(path, p) for p, r in lines):
                findings.append(f"{where}: {path}: {what} without a `golden-reviewed: {path} <reason>` line (FID-3)")
    summary = (f"golden-reviewed traces: {len(commits)} commit(s) touching recorded traces "
               f"in the history of {head}; {changed_total} decision change(s) "
               f"or deletion(s); {len(findings)} findings")
    for n in notes:
        print("note:", n)
    return findings, summary


def _read_lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return []


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    source = sys.argv[1]
    try:
        if source.endswith(".fi"):
            with tempfile.TemporaryDirectory() as tmp:
                git(tmp, "init", "-q", "--bare", "-b", "main", ".")
                with open(source, "rb") as stream:
                    proc = subprocess.run(["git", "-C", tmp, "fast-import", "--quiet"], stdin=stream,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                if proc.returncode != 0:
                    raise CannotRun(f"git fast-import {source}: {proc.stderr.decode(errors='replace').strip()}")
                findings, summary = check(tmp, "refs/heads/main")
        else:
            top = git(source, "rev-parse", "--show-toplevel").strip()
            findings, summary = check(top, "HEAD")
    except CannotRun as e:
        print(f"check_goldens: cannot run: {e}", file=sys.stderr)
        return 2
    for f in findings:
        print(f)
    print(summary)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
