#!/usr/bin/env python3
"""VLM-2 and LIF-5: every C++ file under engines/vllm/ states where it came from, and names one release.

usage: check_provenance.py --root ROOT

A ported file starts with the vLLM licence header and a line saying it was changed:
    // SPDX-License-Identifier: Apache-2.0
    // SPDX-FileCopyrightText: Copyright contributors to the vLLM project
    // Changed for BLIS: a C++ port of <upstream path>@<commit8>; ...
(the Changed line may continue on the comment lines after it; the citation may sit there, and a list of
upstream paths may share one closing `@<commit8>`). A file with no
upstream origin starts with `// Original to BLIS:` instead. No file cites (`<path>@<hex>`) another commit
than the Upstream record's, nor names another vLLM release. ROOT also holds LICENSE and NOTICE (Apache-2.0
requires both for a work holding changed vLLM files), and engines/vllm/upstream.yaml agrees with
versions.yaml. Prints each finding and exits 1; exits 0 with a one-line all-clear; 2 on a usage error.
Python standard library only: the two YAML files are read for the few scalar keys this check needs.
"""
import argparse
import os
import re
import sys

SPDX = ("// SPDX-License-Identifier: Apache-2.0",
        "// SPDX-FileCopyrightText: Copyright contributors to the vLLM project")
CHANGED = "// Changed for BLIS:"
ORIGINAL = "// Original to BLIS:"
# A citation: an upstream path (with a file extension) followed by @ and a hexadecimal commit prefix.
CITATION = re.compile(r"([A-Za-z0-9_.\-/]+\.[A-Za-z0-9]+)@([0-9a-f]{7,40})(?![0-9a-z])")
# A vLLM release named in prose: "vLLM 0.26.0", "vllm v0.26", "vllm==0.26.0".
RELEASE = re.compile(r"(?i)\bvllm(?:\s+|\s*==\s*|\s*v|\s+v)(\d+\.\d+(?:\.\d+)?(?:rc\d+)?)\b")


def scalar(text: str, key: str, path: str) -> str:
    """The value of a top-level `key: value` line, quotes removed (enough for upstream.yaml)."""
    m = re.search(rf"(?m)^{re.escape(key)}:\s*(\S+)\s*(?:#.*)?$", text)
    if not m:
        raise ValueError(f"{path}: no top-level '{key}:'")
    return m.group(1).strip("'\"")


def versions_entry(text: str, path: str) -> tuple[str, str]:
    """(release, commit) of `upstreams: vllm: {release: ..., commit: ...}` in versions.yaml."""
    block = re.search(r"(?ms)^upstreams:\n((?:[ \t]+.*\n?)*)", text)
    m = block and re.search(r"(?m)^[ \t]+vllm:\s*\{([^}]*)\}", block.group(1))
    if not m:
        raise ValueError(f"{path}: no upstreams.vllm entry ({{release: ..., commit: ...}})")
    fields = dict(re.findall(r"(\w+):\s*['\"]?([^,'\"}]+)['\"]?", m.group(1)))
    if "release" not in fields or "commit" not in fields:
        raise ValueError(f"{path}: upstreams.vllm needs release and commit")
    return fields["release"].strip(), fields["commit"].strip()


def check_record(root: str, findings: list[str]) -> tuple[str, str] | None:
    """The Upstream record's (release, commit8), after checking it against versions.yaml."""
    rec_path = os.path.join(root, "engines", "vllm", "upstream.yaml")
    ver_path = os.path.join(root, "versions.yaml")
    for p in (rec_path, ver_path):
        if not os.path.isfile(p):
            findings.append(f"{os.path.relpath(p, root)}: missing [VLM-2; LIF-5]")
    if findings:
        return None
    with open(rec_path, encoding="utf-8") as f:
        rec = f.read()
    with open(ver_path, encoding="utf-8") as f:
        ver = f.read()
    try:
        kind, release, commit = (scalar(rec, k, "engines/vllm/upstream.yaml") for k in ("kind", "release", "commit"))
        v_release, v_commit = versions_entry(ver, "versions.yaml")
    except ValueError as e:
        findings.append(f"{e} [LIF-5]")
        return None
    if kind != "vllm":
        findings.append(f"engines/vllm/upstream.yaml: kind is '{kind}', not vllm [LIF-5]")
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        findings.append(f"engines/vllm/upstream.yaml: commit '{commit}' is not a full 40-digit hash [LIF-5]")
    if release != v_release:
        findings.append(f"engines/vllm/upstream.yaml: release {release} disagrees with versions.yaml's "
                        f"upstreams.vllm release {v_release} [LIF-5]")
    if not (len(v_commit) >= 7 and commit.startswith(v_commit)):
        findings.append(f"engines/vllm/upstream.yaml: commit {commit} disagrees with versions.yaml's "
                        f"upstreams.vllm commit {v_commit} [LIF-5]")
    if not re.fullmatch(r"\d+\.\d+\.\d+", release):
        findings.append(f"engines/vllm/upstream.yaml: release '{release}' is not a final release (X.Y.Z) [LIF-5]")
    return release, commit[:8]


def check_legal(root: str, findings: list[str]) -> None:
    lic = os.path.join(root, "LICENSE")
    notice = os.path.join(root, "NOTICE")
    if not os.path.isfile(lic):
        findings.append("LICENSE: missing; the Apache-2.0 text must ship with the changed vLLM files [VLM-2]")
    else:
        with open(lic, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if "Apache License" not in text or "Version 2.0" not in text:
            findings.append("LICENSE: is not the Apache License, Version 2.0 [VLM-2]")
    if not os.path.isfile(notice):
        findings.append("NOTICE: missing; Apache-2.0 asks for a NOTICE naming vLLM [VLM-2]")
    else:
        with open(notice, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if "vLLM" not in text or "github.com/vllm-project/vllm" not in text:
            findings.append("NOTICE: does not name vLLM and its repository [VLM-2]")


def changed_block(lines: list[str], start: int) -> str:
    """The `// Changed for BLIS:` line and the comment lines that continue it."""
    out = [lines[start]]
    for line in lines[start + 1:]:
        s = line.strip()
        if not s.startswith("//") or s.startswith(CHANGED) or s == "//":
            break
        out.append(s)
    return " ".join(out)


def check_file(rel: str, text: str, release: str, commit8: str, findings: list[str]) -> None:
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    if first.startswith(ORIGINAL):
        if len(first) <= len(ORIGINAL) + 1:
            findings.append(f"{rel}:1: '{ORIGINAL}' says nothing of what the file holds [VLM-2]")
    else:
        for i, want in enumerate(SPDX):
            got = lines[i].rstrip() if len(lines) > i else ""
            if got != want:
                findings.append(f"{rel}:{i + 1}: expected the vLLM licence header line '{want}' "
                                f"(or '{ORIGINAL}' on line 1 for a file with no upstream origin) [VLM-2]")
                break
        at = next((i for i, l in enumerate(lines) if l.strip().startswith(CHANGED)), None)
        if at is None:
            findings.append(f"{rel}: no '{CHANGED}' line saying which vLLM files it derives from [VLM-2]")
        else:
            # `path@commit8`, or a list of paths closed by one `@commit8` ("a.py, b/{c,d}.py and e.py (F)@...").
            block = changed_block(lines, at)
            cites = [m for m in CITATION.finditer(block) if m.group(2) == commit8] or (
                re.search(rf"@{commit8}(?![0-9a-z])", block) and re.search(r"[\w/}]\.py\b", block))
            if not cites:
                findings.append(f"{rel}:{at + 1}: the '{CHANGED}' line names no upstream path@{commit8} [VLM-2]")
    for n, line in enumerate(lines, 1):
        for m in CITATION.finditer(line):
            if m.group(2) != commit8:
                findings.append(f"{rel}:{n}: cites {m.group(0)}, not the Upstream record's commit {commit8} "
                                f"[VLM-2; LIF-5]")
        for m in RELEASE.finditer(line):
            if m.group(1) != release:
                findings.append(f"{rel}:{n}: names vLLM release {m.group(1)}, not the Upstream record's "
                                f"{release} [VLM-2; LIF-5]")


def sources(root: str) -> list[str]:
    base = os.path.join(root, "engines", "vllm")
    out = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        out.extend(os.path.relpath(os.path.join(dirpath, f), root) for f in sorted(filenames)
                   if f.endswith((".h", ".cpp")))
    return sorted(out)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", required=True, help="the repository root (or a known-bad tree shaped like it)")
    a = p.parse_args()
    root = os.path.abspath(a.root)
    if not os.path.isdir(os.path.join(root, "engines", "vllm")):
        print(f"check_provenance: {root} has no engines/vllm/", file=sys.stderr)
        return 2
    findings: list[str] = []
    check_legal(root, findings)
    pinned = check_record(root, findings)
    files = sources(root)
    if pinned is not None:
        release, commit8 = pinned
        for rel in files:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                check_file(rel, f.read(), release, commit8, findings)
    for line in findings:
        print(line)
    if findings:
        print(f"vllm-provenance: {len(findings)} finding(s) in {len(files)} engines/vllm source file(s)")
        return 1
    print(f"vllm-provenance: {len(files)} engines/vllm source files state their origin and name "
          f"release {release}; the Upstream record agrees with versions.yaml; LICENSE and NOTICE present")
    return 0


if __name__ == "__main__":
    sys.exit(main())
