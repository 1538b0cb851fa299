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
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from provenance_common import (CHANGED, CITATION, ORIGINAL, changed_block, check_citations,  # noqa: E402
                               check_legal, check_record, original_header, parse_root, read_sources, report,
                               sources)

SPDX = ("// SPDX-License-Identifier: Apache-2.0",
        "// SPDX-FileCopyrightText: Copyright contributors to the vLLM project")
RECORD = "engines/vllm/upstream.yaml"
VERSIONS_KEY = "vllm"
TAGS = "[VLM-2; LIF-5]"
# A vLLM release named in prose: "vLLM 0.26.0", "vllm v0.26", "vllm==0.26.0".
RELEASE = re.compile(r"(?i)\bvllm(?:\s+|\s*==\s*|\s*v|\s+v)(\d+\.\d+(?:\.\d+)?(?:rc\d+)?)\b")


def check_file(rel: str, text: str, release: str, commit8: str, findings: list[str]) -> None:
    lines = text.splitlines()
    if not original_header(rel, lines, findings, "VLM-2"):
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
    check_citations(rel, lines, release, commit8, findings, RELEASE, "vLLM", TAGS)


def main() -> int:
    root = parse_root(__doc__.split("\n")[0], "engines/vllm")
    if root is None:
        return 2
    findings: list[str] = []
    check_legal(root, findings, "vLLM", "github.com/vllm-project/vllm", "VLM-2", repository_in_finding=False)
    # Any finding so far (LICENSE, NOTICE) leaves the files unread, as a missing record does.
    pinned = check_record(root, findings, RECORD, VERSIONS_KEY, TAGS, space=r"\s", stop_on_any_finding=True)
    files = sources(root, "engines/vllm")
    if pinned is not None:
        release, commit8 = pinned
        for rel, text in read_sources(root, files):
            check_file(rel, text, release, commit8, findings)
    return report(
        findings, f"vllm-provenance: {len(findings)} finding(s) in {len(files)} engines/vllm source file(s)",
        lambda: f"vllm-provenance: {len(files)} engines/vllm source files state their origin and name "
                f"release {release}; the Upstream record agrees with versions.yaml; LICENSE and NOTICE present")


if __name__ == "__main__":
    sys.exit(main())
