#!/usr/bin/python3
"""DEV-12 change-class: each change declares whether it verifies or validates, and a verification change
moves no modelled output.

  change_class.py SOURCE

SOURCE is a git work tree (the repository itself) or a git fast-import stream (`*.fi`, imported into a
scratch repository first: how the known-bad histories are written). The rule starts with the commit that
added this check: the oldest commit reachable from HEAD (the stream's `refs/heads/main`) adding
`checks/repo/change_class.py` is the boundary, and every non-merge commit reachable from HEAD but not from the
boundary is checked; the boundary and its ancestors predate the rule and are exempt (the boundary is
reported). When no commit adds that file, a work tree has not taken the rule up yet and nothing is checked;
a stream is a history written for this check, so all of it is checked.

A checked commit that adds, modifies or deletes a path under src/, engines/, router/, catalog/, registry/ or
tests/golden/ (DEV-12's applies_to) must carry exactly one line

    change-class: verification[:] <reason>      or      change-class: validation[:] <reason>

in its message. No line, two lines, both classes (the change is split instead), a class other than those
two, or a line with no reason is a finding. A `verification` commit must leave modelled outputs unchanged:
modifying or deleting a byte-gate Result (tests/golden/expected/; adding one, for a new scenario, moves
nothing) or adding, modifying or deleting coefficient or catalog data (any file under registry/ or catalog/
except their scripts/, *.md and meson.build) is a finding naming the file. A `validation` commit has no
such limit: its evidence is judged in review (the record's review question). Commits touching none of those
paths (docs, tests, checks) need no line and are not judged. A shallow history's boundary commits cannot
be compared with their parents and are reported, not checked.
Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

SELF = "checks/repo/change_class.py"
APPLIES_TO = ("src/", "engines/", "router/", "catalog/", "registry/", "tests/golden/")
CLASSES = ("verification", "validation")
KEY = re.compile(r"^change-class:(.*)$", re.IGNORECASE)
VALUE = re.compile(r"([A-Za-z-]+)(?:\s*:\s*|\s+|$)(.*)")  # the class word, then ':' or a space, then the reason
STATUS = {"A": "added", "M": "modified", "D": "deleted", "T": "type changed"}


class CannotRun(Exception):
    pass


def git(repo: str, *args: str) -> str:
    proc = subprocess.run(["git", "-C", repo, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise CannotRun(f"git {' '.join(args)}: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout.decode("utf-8", errors="replace")


def moves_output(path: str, status: str) -> bool:
    """Whether a verification change may not make this change to this path."""
    if path.startswith("tests/golden/expected/"):
        return status != "A"  # a new scenario's Result is new, not moved
    top = path.split("/", 1)[0]
    if top in ("registry", "catalog"):
        return not (path.startswith(f"{top}/scripts/") or path.endswith(".md")
                    or os.path.basename(path) == "meson.build")
    return False


def class_lines(message: str) -> list[tuple[str, str, str]]:
    """(line, class or '' when unreadable, reason) for every change-class line of a commit message."""
    out = []
    for raw in message.splitlines():
        m = KEY.match(raw.strip())
        if m:
            v = VALUE.fullmatch(m.group(1).strip())
            out.append((raw.strip(), v.group(1).lower() if v else "", v.group(2).strip() if v else ""))
    return out


def judge(where: str, touched: list[tuple[str, str]], message: str) -> list[str]:
    """The findings for one commit that touches DEV-12's paths: touched is [(status letter, path)]."""
    lines = class_lines(message)
    if not lines:
        first = touched[0][1] + (f" and {len(touched) - 1} more path(s)" if len(touched) > 1 else "")
        return [f"{where}: changes {first} but has no `change-class:` line: declare `change-class: "
                f"verification: <reason>` or `change-class: validation: <reason>` (DEV-12)"]
    findings = []
    for line, cls, reason in lines:
        if cls not in CLASSES:
            findings.append(f"{where}: `{line}`: the class is verification or validation (DEV-12)")
        elif not reason:
            findings.append(f"{where}: `{line}` gives no reason: `change-class: {cls}: <reason>` (DEV-12)")
    classes = {cls for _, cls, _ in lines}
    if set(CLASSES) <= classes:
        return findings + [f"{where}: declares both verification and validation: split the change (DEV-12)"]
    if len(lines) > 1:
        return findings + [f"{where}: carries {len(lines)} `change-class:` lines: a change declares its "
                           f"class once (DEV-12)"]
    if classes == {"verification"}:
        for status, path in touched:
            if moves_output(path, status):
                findings.append(f"{where}: verification change moves {path} ({STATUS.get(status, status)}): a "
                                f"verification change leaves modelled outputs unchanged; declare validation "
                                f"or split (DEV-12)")
    return findings


def check(repo: str, head: str, stream: bool) -> tuple[list[str], list[str], str]:
    notes = []
    added = git(repo, "log", "--diff-filter=A", "--format=%H", head, "--", SELF).split()
    boundary = added[-1] if added else None  # git log lists newest first
    shallow = set()
    if git(repo, "rev-parse", "--is-shallow-repository").strip() == "true":
        with open(os.path.join(git(repo, "rev-parse", "--absolute-git-dir").strip(), "shallow")) as f:
            shallow = {line.strip() for line in f if line.strip()}
    if boundary:
        exempt = int(git(repo, "rev-list", "--count", boundary).strip())
        notes.append(f"boundary: {boundary[:12]} ({subject(repo, boundary)}) adds {SELF}; it and its "
                     f"{exempt - 1} ancestor(s) predate the rule and are exempt")
        if boundary in shallow:
            notes.append(f"history is shallow at {boundary[:12]}: the commit adding {SELF} may be older")
        span = [f"{boundary}..{head}"]
    elif stream:
        notes.append(f"no commit in the stream adds {SELF}: every commit is checked")
        span = [head]
    else:
        total = int(git(repo, "rev-list", "--count", head).strip())
        notes.append(f"no commit in the history of {head} adds {SELF}: the rule is not in force yet, and "
                     f"all {total} commit(s) predate it")
        span = []
    commits = git(repo, "rev-list", "--reverse", "--no-merges", *span).split() if span else []
    merges = int(git(repo, "rev-list", "--count", "--merges", *span).strip()) if span else 0
    if merges:
        notes.append(f"{merges} merge(s) skipped (the commits they merge are checked)")
    findings, judged = [], 0
    for c in commits:
        if c in shallow:
            notes.append(f"history is shallow at {c[:12]}: its changes against its parent cannot be read")
            continue
        rows = git(repo, "diff-tree", "--root", "--no-commit-id", "--no-renames", "-r", "--name-status", "-z",
                   c).split("\0")
        touched = [(s[0], p) for s, p in zip(rows[0::2], rows[1::2]) if p.startswith(APPLIES_TO)]
        if not touched:
            continue
        judged += 1
        message = git(repo, "log", "-1", "--format=%B", c)
        findings += judge(f"commit {c[:12]} ({subject(repo, c)})", touched, message)
    summary = (f"change-class: {len(commits)} commit(s) after the boundary in the history of {head}, "
               f"{judged} touching {', '.join(APPLIES_TO)}; {len(findings)} findings")
    return findings, notes, summary


def subject(repo: str, commit: str) -> str:
    return git(repo, "log", "-1", "--format=%s", commit).strip()[:60]


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    source = sys.argv[1]
    try:
        if source.endswith(".fi"):
            with tempfile.TemporaryDirectory() as tmp:
                git(tmp, "init", "-q", "--bare", "-b", "main", ".")
                with open(source, "rb") as f:
                    proc = subprocess.run(["git", "-C", tmp, "fast-import", "--quiet"], stdin=f,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                if proc.returncode != 0:
                    raise CannotRun(f"git fast-import {source}: {proc.stderr.decode(errors='replace').strip()}")
                findings, notes, summary = check(tmp, "refs/heads/main", stream=True)
        else:
            top = git(source, "rev-parse", "--show-toplevel").strip()
            findings, notes, summary = check(top, "HEAD", stream=False)
    except (CannotRun, OSError) as e:
        print(f"change_class: cannot run: {e}", file=sys.stderr)
        return 2
    for n in notes:
        print("note:", n)
    for f in findings:
        print(f)
    print(summary)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
