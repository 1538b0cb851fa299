#!/usr/bin/env python3
"""X14, local form: every invariant ID cited in the docs, AGENTS.md, the records or the commit messages
of the last release range exists in the registry.

usage: cited_ids.py --registry ROOT INPUT
Reads the registry's IDs from ROOT/docs/invariants.json; scans INPUT's *.md files and invariants/*.yaml,
and, when INPUT is a git checkout, the messages of the commits since the newest tag (all commits when
there is none). Exit 1 listing each unknown citation with where it stands.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tree  # noqa: E402

# The design's identifier shapes; a word boundary on both sides so x86-64 or G1 grades are not IDs.
CITE = re.compile(r"(?<![\w-])((?:X|SUB-|VLM-|SGL-|RTR-|SIM-|CFG-|FID-|DEV-|VAL-|COV-|LIF-|D)[0-9]+"
                  r"|T-[A-Z]{1,3}[0-9]+)(?![\w-])")


def commit_messages(root: str) -> list[tuple[str, str]]:
    if not os.path.isdir(os.path.join(root, ".git")):
        return []
    tag = subprocess.run(["git", "-C", root, "describe", "--tags", "--abbrev=0"],
                         capture_output=True, text=True)
    rng = f"{tag.stdout.strip()}..HEAD" if tag.returncode == 0 else "HEAD"
    log = subprocess.run(["git", "-C", root, "log", "--format=%H%x00%B%x01", rng],
                         capture_output=True, text=True)
    if log.returncode != 0:
        return []  # a repository without commits has no messages to check
    out = []
    for entry in log.stdout.split("\x01"):
        if "\x00" in entry:
            sha, body = entry.strip("\n").split("\x00", 1)
            out.append((f"commit {sha[:12]}", body))
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--registry", required=True)
    p.add_argument("input")
    a = p.parse_args()
    with open(os.path.join(a.registry, "docs", "invariants.json"), encoding="utf-8") as f:
        known = {r["id"] for r in json.load(f)["invariants"]}
    texts = []
    for rel in tree.files(a.input):
        if rel.endswith(".md") or (rel.startswith("invariants/") and rel.endswith(".yaml")):
            text = tree.read_text(os.path.join(a.input, rel))
            if text is not None:
                texts.append((rel, text))
    texts += commit_messages(a.input)
    findings = [f"{where}:{n}: cites {m.group(1)}, which is not in the invariant registry [cited-ids; X14]"
                for where, text in texts for n, line in enumerate(text.splitlines(), 1)
                for m in CITE.finditer(line) if m.group(1) not in known]
    return tree.finish(findings, f"cited-ids: every citation in {len(texts)} documents and messages exists")


if __name__ == "__main__":
    sys.exit(main())
