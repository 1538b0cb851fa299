#!/usr/bin/env python3
"""SGL-2 and LIF-5: every C++ file under engines/sglang/ states where it came from, and names one release.

usage: check_provenance.py --root ROOT

A ported file starts with SGLang's licence header and a line saying it was changed:
    // SPDX-License-Identifier: Apache-2.0
    // SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
    // Changed for BLIS: a C++ port of <upstream path>@<commit8>; ...
(the Changed line may continue on the comment lines after it, and the citation may sit there). A file with
no upstream origin starts with `// Original to BLIS:` instead. No file cites (`<path>@<hex>`) another commit
than the Upstream record's, nor names another SGLang release. ROOT also holds LICENSE and NOTICE (Apache-2.0
requires both for a work holding changed SGLang files), and engines/sglang/upstream.yaml agrees with
versions.yaml. Prints each finding and exits 1; exits 0 with a one-line all-clear; 2 on a usage error.
Python standard library only.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from provenance_common import (CHANGED, CITATION, changed_block, check_citations,  # noqa: E402
                               check_legal, check_record, original_header, parse_root, read_sources, report,
                               sources)

SPDX = ("// SPDX-License-Identifier: Apache-2.0",
        "// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team")
RECORD = "engines/sglang/upstream.yaml"
VERSIONS_KEY = "sglang"
TAGS = "[SGL-2; LIF-5]"
# An SGLang release named in prose: "SGLang 0.5.17", "sglang v0.5", "sglang==0.5.17".
RELEASE = re.compile(r"(?i)\bsglang(?:\s+|\s*==\s*|\s*v|\s+v)(\d+\.\d+(?:\.\d+)?(?:rc\d+|\.post\d+)?)\b")


def check_file(rel: str, text: str, release: str, commit8: str, findings: list[str]) -> None:
    lines = text.splitlines()
    if not original_header(rel, lines, findings, "SGL-2"):
        for i, want in enumerate(SPDX):
            got = lines[i].rstrip() if len(lines) > i else ""
            if got != want:
                findings.append(f"{rel}:{i + 1}: expected the SGLang licence header line '{want}' "
                                f"(or '// Original to BLIS:' on line 1 for a file with no upstream origin) [SGL-2]")
                break
        at = next((i for i, l in enumerate(lines) if l.strip().startswith(CHANGED)), None)
        if at is None:
            findings.append(f"{rel}: no '{CHANGED}' line saying which SGLang files it derives from [SGL-2]")
        elif not [m for m in CITATION.finditer(changed_block(lines, at)) if m.group(2) == commit8]:
            findings.append(f"{rel}:{at + 1}: the '{CHANGED}' line names no upstream path@{commit8} [SGL-2]")
    check_citations(rel, lines, release, commit8, findings, RELEASE, "SGLang", TAGS)


def main() -> int:
    root = parse_root(__doc__.split("\n")[0], "engines/sglang")
    if root is None:
        return 2
    findings: list[str] = []
    check_legal(root, findings, "SGLang", "github.com/sgl-project/sglang", "SGL-2", repository_in_finding=False)
    pinned = check_record(root, findings, RECORD, VERSIONS_KEY, TAGS, space=r"\s", stop_on_any_finding=True)
    files = sources(root, "engines/sglang")
    if pinned is not None:
        release, commit8 = pinned
        for rel, text in read_sources(root, files):
            check_file(rel, text, release, commit8, findings)
    return report(
        findings, f"sglang-provenance: {len(findings)} finding(s) in {len(files)} engines/sglang source file(s)",
        lambda: f"sglang-provenance: {len(files)} engines/sglang source files state their origin and name "
                f"release {release}; the Upstream record agrees with versions.yaml; LICENSE and NOTICE present")


if __name__ == "__main__":
    sys.exit(main())
