"""What the provenance checkers of the ported trees share (tests/*/provenance/check_provenance.py).

Each checker holds the names of its own upstream (the versions.yaml key, the Upstream record's path, the
words a NOTICE must hold, the release pattern, the invariant tags of its findings) and passes them in; this
module names no upstream of its own. The checkers import it by putting tests/ on sys.path relative to
their own file, so they still run as `python3 path/to/check_provenance.py --root ROOT`.
Python standard library only: the two YAML files are read for the few scalar keys a check needs.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Callable, Iterator

CHANGED = "// Changed for BLIS:"
ORIGINAL = "// Original to BLIS:"
# A citation: an upstream path (with a file extension) followed by @ and a hexadecimal commit prefix.
CITATION = re.compile(r"([A-Za-z0-9_.\-/]+\.[A-Za-z0-9]+)@([0-9a-f]{7,40})(?![0-9a-z])")


# ---------------------------------------------------------------------------------------------------------
# The Upstream record, versions.yaml, LICENSE and NOTICE.

def scalar(text: str, key: str, path: str, indent: str = "", space: str = r"[ \t]") -> str:
    """The value of a `key: value` line at the given indentation, quotes removed (enough for upstream.yaml).
    `space` is the class of the blanks around the value."""
    m = re.search(rf"(?m)^{indent}{re.escape(key)}:{space}*(\S+){space}*(?:#.*)?$", text)
    if not m:
        raise ValueError(f"{path}: no {'nested ' if indent else 'top-level '}'{key}:'")
    return m.group(1).strip("'\"")


def versions_entry(text: str, path: str, key: str) -> tuple[str, str]:
    """(release, commit) of `upstreams: <key>: {release: ..., commit: ...}` in versions.yaml."""
    block = re.search(r"(?ms)^upstreams:\n((?:[ \t]+.*\n?)*)", text)
    m = block and re.search(rf"(?m)^[ \t]+{re.escape(key)}:\s*\{{([^}}]*)\}}", block.group(1))
    if not m:
        raise ValueError(f"{path}: no upstreams.{key} entry ({{release: ..., commit: ...}})")
    fields = dict(re.findall(r"(\w+):\s*['\"]?([^,'\"}]+)['\"]?", m.group(1)))
    if "release" not in fields or "commit" not in fields:
        raise ValueError(f"{path}: upstreams.{key} needs release and commit")
    return fields["release"].strip(), fields["commit"].strip()


def check_record(root: str, findings: list[str], record: str, key: str, missing_tag: str, *,
                 space: str = r"[ \t]", stop_on_any_finding: bool = False,
                 read_extra: Callable[[str], object] | None = None,
                 check_extra: Callable[[object, list[str]], None] | None = None) -> tuple[str, str] | None:
    """The Upstream record's (release, commit8), after checking it against versions.yaml's upstreams.<key>.

    `record` is the record's path under ROOT (with '/'); its `kind` must be `key`. A missing record or
    versions.yaml is a finding tagged `missing_tag`; with `stop_on_any_finding`, any finding already made
    (LICENSE, NOTICE) also ends the check here. `read_extra(record text)` reads further keys after kind,
    release and commit (raising ValueError as `scalar` does), and `check_extra(what it read, findings)`
    checks them after the kind."""
    rec_path = os.path.join(root, *record.split("/"))
    ver_path = os.path.join(root, "versions.yaml")
    missing = False
    for p in (rec_path, ver_path):
        if not os.path.isfile(p):
            findings.append(f"{os.path.relpath(p, root)}: missing {missing_tag}")
            missing = True
    if missing or (stop_on_any_finding and findings):
        return None
    with open(rec_path, encoding="utf-8") as f:
        rec = f.read()
    with open(ver_path, encoding="utf-8") as f:
        ver = f.read()
    try:
        kind, release, commit = (scalar(rec, k, record, space=space) for k in ("kind", "release", "commit"))
        extra = read_extra(rec) if read_extra else None
        v_release, v_commit = versions_entry(ver, "versions.yaml", key)
    except ValueError as e:
        findings.append(f"{e} [LIF-5]")
        return None
    if kind != key:
        findings.append(f"{record}: kind is '{kind}', not {key} [LIF-5]")
    if check_extra:
        check_extra(extra, findings)
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        findings.append(f"{record}: commit '{commit}' is not a full 40-digit hash [LIF-5]")
    if release != v_release:
        findings.append(f"{record}: release {release} disagrees with versions.yaml's "
                        f"upstreams.{key} release {v_release} [LIF-5]")
    if not (len(v_commit) >= 7 and commit.startswith(v_commit)):
        findings.append(f"{record}: commit {commit} disagrees with versions.yaml's "
                        f"upstreams.{key} commit {v_commit} [LIF-5]")
    if not re.fullmatch(r"\d+\.\d+\.\d+", release):
        findings.append(f"{record}: release '{release}' is not a final release (X.Y.Z) [LIF-5]")
    return release, commit[:8]


def check_legal(root: str, findings: list[str], who: str, repository: str, tag: str,
                repository_in_finding: bool = True) -> None:
    """ROOT's LICENSE is the Apache-2.0 text and its NOTICE names `who` and `repository` (a URL without
    the scheme); `repository_in_finding` says whether a NOTICE finding repeats the repository."""
    lic = os.path.join(root, "LICENSE")
    notice = os.path.join(root, "NOTICE")
    if not os.path.isfile(lic):
        findings.append(f"LICENSE: missing; the Apache-2.0 text must ship with the changed {who} files [{tag}]")
    else:
        with open(lic, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if "Apache License" not in text or "Version 2.0" not in text:
            findings.append(f"LICENSE: is not the Apache License, Version 2.0 [{tag}]")
    if not os.path.isfile(notice):
        findings.append(f"NOTICE: missing; Apache-2.0 asks for a NOTICE naming {who} [{tag}]")
    else:
        with open(notice, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if who not in text or repository not in text:
            named = f" {repository}" if repository_in_finding else ""
            findings.append(f"NOTICE: does not name {who} and its repository{named} [{tag}]")


# ---------------------------------------------------------------------------------------------------------
# The file header and the citations in a file.

def original_header(rel: str, lines: list[str], findings: list[str], tag: str) -> bool:
    """True if the file starts `// Original to BLIS:` (a finding if nothing follows it)."""
    first = lines[0].strip() if lines else ""
    if not first.startswith(ORIGINAL):
        return False
    if len(first) <= len(ORIGINAL) + 1:
        findings.append(f"{rel}:1: '{ORIGINAL}' says nothing of what the file holds [{tag}]")
    return True


def changed_block(lines: list[str], start: int) -> str:
    """The `// Changed for BLIS:` line and the comment lines that continue it."""
    out = [lines[start].strip()]
    for line in lines[start + 1:]:
        s = line.strip()
        if not s.startswith("//") or s.startswith(CHANGED) or s == "//":
            break
        out.append(s)
    return " ".join(out)


def check_citations(rel: str, lines: list[str], release: str, commit8: str, findings: list[str],
                    release_re: re.Pattern, who: str, tag: str) -> None:
    """No line cites (`<path>@<hex>`) another commit than commit8, nor names (release_re's group 1)
    another release of `who` than `release`."""
    for n, line in enumerate(lines, 1):
        for m in CITATION.finditer(line):
            if m.group(2) != commit8:
                findings.append(f"{rel}:{n}: cites {m.group(0)}, not the Upstream record's commit {commit8} {tag}")
        for m in release_re.finditer(line):
            if m.group(1) != release:
                findings.append(f"{rel}:{n}: names {who} release {m.group(1)}, not the Upstream record's "
                                f"{release} {tag}")


# ---------------------------------------------------------------------------------------------------------
# The command line, the files and the report.

def parse_root(description: str, base: str) -> str | None:
    """ROOT from `--root ROOT`, or None (after saying so on stderr) if ROOT has no `base` directory."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--root", required=True, help="the repository root (or a known-bad tree shaped like it)")
    a = p.parse_args()
    root = os.path.abspath(a.root)
    if not os.path.isdir(os.path.join(root, *base.split("/"))):
        print(f"check_provenance: {root} has no {base}/", file=sys.stderr)
        return None
    return root


def sources(root: str, base: str) -> list[str]:
    """The .h and .cpp files under ROOT/`base`, as sorted '/'-separated paths relative to ROOT."""
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, *base.split("/"))):
        dirnames.sort()
        out.extend(os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                   for f in sorted(filenames) if f.endswith((".h", ".cpp")))
    return sorted(out)


def read_sources(root: str, files: list[str]) -> Iterator[tuple[str, str]]:
    """(path, text) of each of `files` under ROOT."""
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            yield rel, f.read()


def report(findings: list[str], failed: str, passed: Callable[[], str]) -> int:
    """Prints each finding and the `failed` summary (exit status 1), or the `passed()` line (0)."""
    for line in findings:
        print(line)
    if findings:
        print(failed)
        return 1
    print(passed())
    return 0
