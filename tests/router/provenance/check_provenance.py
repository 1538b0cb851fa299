#!/usr/bin/env python3
"""RTR-2 and LIF-5: every C++ file under router/ states where it came from, and names one llm-d commit.

usage: check_provenance.py --root ROOT

A ported file starts with the Apache-2.0 header of the llm-d router file it ports and a line saying it
was changed:
    // SPDX-License-Identifier: Apache-2.0
    // Copyright <year> The Kubernetes Authors.      (or: The llm-d Authors.)
    // Changed for BLIS: a C++ port of <upstream path>@<commit8>; ...
(the Changed line may continue on the comment lines after it, and the citation may sit there). A file
with no upstream origin starts with `// Original to BLIS: <what it holds>` instead. No file cites
(`<path>@<hex>`) another commit than the Upstream record's, nor names another llm-d release in prose. In
a ported .cpp, every definition of a function or method at namespace scope has, in the comment block
directly above it, a citation `<upstream path>.go@<commit8>` of the Go function it ports.
ROOT also holds LICENSE and NOTICE (Apache-2.0 requires both for a work holding changed llm-d files), and
router/upstream.yaml agrees with versions.yaml (upstreams.llm_d_router).
Prints each finding and exits 1; exits 0 with a one-line all-clear; 2 on a usage error.
Python standard library only: the two YAML files are read for the few scalar keys this check needs.
"""
from __future__ import annotations

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from provenance_common import (CHANGED, CITATION, ORIGINAL, changed_block, check_citations,  # noqa: E402
                               check_legal, check_record, original_header, parse_root, read_sources, report,
                               scalar, sources)

SPDX = "// SPDX-License-Identifier: Apache-2.0"
COPYRIGHT = re.compile(r"// Copyright (\d{4}) The (?:Kubernetes|llm-d) Authors\.$")
RECORD = "router/upstream.yaml"
VERSIONS_KEY = "llm_d_router"
REPOSITORY = "https://github.com/llm-d/llm-d-router"
# An llm-d release named in prose: "llm-d 0.9.0", "llm-d-router v0.9", "llm-d router v0.9.1".
RELEASE = re.compile(r"(?i)\bllm-d(?:-router|\s+router)?(?:\s+|\s*==\s*|\s*v|\s+v)(\d+\.\d+(?:\.\d+)?(?:-?rc\.?\d+)?)\b")
TAG = "[RTR-2; LIF-5]"


# ---------------------------------------------------------------------------------------------------------
# The Upstream record (beyond what every Upstream record holds: its licence and repository url).

def read_licence_and_url(rec: str) -> tuple[str, str]:
    return scalar(rec, "licence", RECORD), scalar(rec, "url", RECORD, indent=r"[ \t]+")


def check_licence_and_url(extra: tuple[str, str], findings: list[str]) -> None:
    licence, url = extra
    if licence != "Apache-2.0":
        findings.append(f"{RECORD}: licence is '{licence}', not Apache-2.0 [RTR-2]")
    if url.rstrip("/") != REPOSITORY:
        findings.append(f"{RECORD}: repository url '{url}' is not {REPOSITORY} [LIF-5]")


# ---------------------------------------------------------------------------------------------------------
# The file header.

def check_header(rel: str, lines: list[str], commit8: str, findings: list[str]) -> bool:
    """Checks the first lines; True if the file is a port (carries the upstream licence header)."""
    if original_header(rel, lines, findings, "RTR-2"):
        return False
    if not lines or lines[0].rstrip() != SPDX:
        findings.append(f"{rel}:1: expected the licence header line '{SPDX}' "
                        f"(or '{ORIGINAL}' on line 1 for a file with no upstream origin) [RTR-2]")
        return True
    second = lines[1].rstrip() if len(lines) > 1 else ""
    if not COPYRIGHT.fullmatch(second):
        findings.append(f"{rel}:2: expected '// Copyright <year> The Kubernetes Authors.' or "
                        f"'// Copyright <year> The llm-d Authors.' as the upstream file's header says [RTR-2]")
    # The Changed line follows the copyright line (or, when that is missing, the licence line).
    at = 2 if COPYRIGHT.fullmatch(second) or not second.startswith(CHANGED) else 1
    if not (lines[at].strip() if len(lines) > at else "").startswith(CHANGED):
        findings.append(f"{rel}:{at + 1}: no '{CHANGED}' line after the copyright line saying which llm-d "
                        f"files it derives from [RTR-2]")
        return True
    block = changed_block(lines, at)
    if not any(m.group(2) == commit8 for m in CITATION.finditer(block)):
        findings.append(f"{rel}:{at + 1}: the '{CHANGED}' line names no upstream path@{commit8} [RTR-2; LIF-5]")
    return True


# ---------------------------------------------------------------------------------------------------------
# Definitions at namespace scope in a .cpp, and the citation above each.

def code_lines(text: str) -> list[str]:
    """The text's lines with comments removed and the contents of string and character literals blanked,
    so that braces, parentheses and semicolons in them are not counted. Line numbering is kept."""
    out: list[str] = []
    cur: list[str] = []
    i, n = 0, len(text)
    in_block = False
    while i < n:
        c = text[i]
        if c == "\n":
            out.append("".join(cur))
            cur = []
            i += 1
            continue
        if in_block:
            if text.startswith("*/", i):
                in_block = False
                cur.append(" ")
                i += 2
            else:
                i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            in_block = True
            i += 2
            continue
        raw = re.match(r'(?:u8|[uUL])?R"([^()\\\s]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + raw.group(1) + '"', i + raw.end())
            end = n if end < 0 else end + len(raw.group(1)) + 2
            cur.append('""')
            # Keep the line count of a raw string spanning lines.
            for _ in range(text.count("\n", i, end)):
                out.append("".join(cur))
                cur = []
            i = end
            continue
        if c == '"' or (c == "'" and not (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"))):
            # A string or character literal (a ' after a digit or letter is a digit separator: 1'000).
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            cur.append(c + c)
            i = j + 1 if j < n and text[j] == c else j
            continue
        cur.append(c)
        i += 1
    out.append("".join(cur))
    return out


TYPE_HEAD = re.compile(r"^(?:template\s*<.*>\s*)?(?:typedef\s+)?(?:class|struct|union|enum)\b")
NAMESPACE_HEAD = re.compile(r"^(?:inline\s+)?namespace\b|^extern\s*\"\"")
NAME_BEFORE_PAREN = re.compile(r"((?:[A-Za-z_]\w*(?:<[^()]*>)?\s*::\s*)*~?\s*[A-Za-z_]\w*)\s*$")


def depth0(head: str) -> str:
    """The head with everything inside (), [] and <> of templates removed, as far as a heuristic can."""
    out, depth = [], 0
    for ch in head:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def without_template_prefix(h: str) -> str:
    """`template <typename T, typename = U> R f(...)` without its `template <...>` prefix."""
    m = re.match(r"template\s*<", h)
    if not m:
        return h
    depth = 0
    for k in range(m.end() - 1, len(h)):
        if h[k] == "<":
            depth += 1
        elif h[k] == ">":
            depth -= 1
            if depth == 0:
                return without_template_prefix(h[k + 1:].lstrip())
    return h


def classify(head: str) -> str | None:
    """What a statement whose first `{` at parenthesis depth 0 follows `head` opens: 'ns' for a namespace
    or linkage block, 'fn' for a function or method definition, None for anything else (a class, struct,
    union or enum body, a variable's brace initialiser, a lambda held by a variable)."""
    h = " ".join(head.split())
    if NAMESPACE_HEAD.match(h):
        return "ns"
    if TYPE_HEAD.match(h):
        return None
    if "(" not in h:
        return None  # `const std::vector<int> kX{`: a brace-initialised variable
    outer = depth0(without_template_prefix(h))
    if re.search(r"\boperator\b", h) is None and re.search(r"(?<![=!<>])=(?!=)", outer):
        return None  # `auto f = [](...) {`, `const Map kM = {`: a variable, not a definition
    return "fn"


def member_brace_init(head: str) -> bool:
    """True if a `{` after `head` brace-initialises a member in a constructor's initialiser list
    (`: typedName_{...}`), so the statement's body is still to come."""
    h = head.rstrip()
    if not h or not (h[-1].isalnum() or h[-1] in "_>"):
        return False
    outer = depth0(without_template_prefix(" ".join(h.split())))
    return ")" in h and re.search(r"(?<!:):(?!:)", outer) is not None and classify(head) == "fn"


def definition_name(head: str) -> str:
    h = without_template_prefix(" ".join(head.split()))
    op = re.search(r"((?:[A-Za-z_]\w*\s*::\s*)*operator\s*(?:\(\)|\[\]|[^\s(]+))\s*\(", h)
    if op:
        return re.sub(r"\s+", "", op.group(1))
    depth = 0
    for k, ch in enumerate(h):  # the first '(' at template-argument depth 0 opens the parameter list
        if ch == "<":
            depth += 1
        elif ch == ">" and depth:
            depth -= 1
        elif ch == "(" and depth == 0:
            m = NAME_BEFORE_PAREN.search(h[:k])
            if m:
                return re.sub(r"\s+", "", m.group(1))
            break
    return h[:60]


def definitions(text: str) -> list[tuple[int, str]]:
    """(1-based line of the statement's first line, name) of each function or method definition at
    namespace scope (inside only namespace and linkage blocks)."""
    code = code_lines(text)
    stack: list[str] = []  # the kind of each open brace: 'ns' or 'other'
    pending: list[str] | None = None  # the statement at namespace scope being read, if any
    start = 0
    paren = 0
    continued = False  # a preprocessor line ending with a backslash
    out: list[tuple[int, str]] = []
    for ln, line in enumerate(code):
        s = line.strip()
        if continued or (pending is None and s.startswith("#")):
            continued = line.rstrip().endswith("\\")
            continue
        at_ns = all(k == "ns" for k in stack)
        if pending is None and at_ns and s and s[0] not in "};":
            pending, start, paren = [], ln, 0
        for ch in line:
            if ch == "{":
                head = "".join(pending) if pending is not None else ""
                if pending is not None and paren == 0 and not member_brace_init(head):
                    kind = classify(head)
                    if kind == "fn":
                        out.append((start + 1, definition_name(head)))
                    stack.append("ns" if kind == "ns" else "other")
                    pending = None
                else:  # a brace inside the statement: a default argument's or a member's initialiser
                    stack.append("other")
                    if pending is not None:
                        paren += 1
                        pending.append(ch)
                continue
            if ch == "}":
                if stack:
                    stack.pop()
                if pending is not None:
                    paren = max(0, paren - 1)
                    pending.append(ch)
                continue
            if pending is None:
                continue
            if ch in "([":
                paren += 1
            elif ch in ")]":
                paren = max(0, paren - 1)
            elif ch == ";" and paren == 0:
                pending = None  # a declaration, alias, using-directive or variable: no body
                continue
            pending.append(ch)
        if pending is not None:
            pending.append(" ")
    return out


def comment_above(lines: list[str], start: int) -> str:
    """The `//` comment lines directly above 0-based line `start`, joined."""
    block = []
    k = start - 1
    while k >= 0 and lines[k].strip().startswith("//"):
        block.append(lines[k].strip())
        k -= 1
    return " ".join(reversed(block))


def check_definitions(rel: str, text: str, commit8: str, findings: list[str]) -> int:
    lines = text.splitlines()
    go_cite = re.compile(rf"[A-Za-z0-9_.\-/]+\.go@{re.escape(commit8)}(?![0-9a-z])")
    defs = definitions(text)
    for line_no, name in defs:
        above = comment_above(lines, line_no - 1)
        # A helper the port adds (no upstream function behind it) says so: "Original to BLIS: <why>".
        if not go_cite.search(above) and not re.search(r"Original to BLIS:\s*\S", above):
            findings.append(f"{rel}:{line_no}: definition of {name} has no `<upstream path>.go@{commit8}` "
                            f"citation (or `Original to BLIS: <why>` for a helper of the port's own) in the "
                            f"comment block directly above it [RTR-2]")
    return len(defs)


def main() -> int:
    root = parse_root(__doc__.split("\n")[0], "router")
    if root is None:
        return 2
    findings: list[str] = []
    check_legal(root, findings, "llm-d", "github.com/llm-d/llm-d-router", "RTR-2")
    pinned = check_record(root, findings, RECORD, VERSIONS_KEY, TAG, read_extra=read_licence_and_url,
                          check_extra=check_licence_and_url)
    files = sources(root, "router")
    ported = defs = 0
    if pinned is not None:
        release, commit8 = pinned
        for rel, text in read_sources(root, files):
            lines = text.splitlines()
            is_port = check_header(rel, lines, commit8, findings)
            check_citations(rel, lines, release, commit8, findings, RELEASE, "llm-d", TAG)
            if is_port:
                ported += 1
                if rel.endswith(".cpp"):
                    defs += check_definitions(rel, text, commit8, findings)
    return report(
        findings, f"router-provenance: {len(findings)} finding(s) in {len(files)} router source file(s)",
        lambda: f"router-provenance: {len(files)} router source files state their origin ({ported} ports, "
                f"{defs} definitions in ported .cpp files each cite their Go function at {commit8}); the "
                f"Upstream record agrees with versions.yaml; LICENSE and NOTICE present")


if __name__ == "__main__":
    sys.exit(main())
