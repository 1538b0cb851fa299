"""A changed oracle manifest carries a new version (FID-1).

Each engine's oracle directory holds versions.yaml: for every manifest version ever used, the sha256 of
manifest.yaml and stubs.py together (what the replacements are). The current files must hash to the
entry of the manifest's own version; a change to either without a new version and a new entry fails.
"""

from __future__ import annotations

import hashlib
import os

import yaml


def content_hash(oracle_dir: str) -> str:
    h = hashlib.sha256()
    for name in ("manifest.yaml", "stubs.py"):
        with open(os.path.join(oracle_dir, name), "rb") as f:
            data = f.read()
        h.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def versions(oracle_dir: str) -> dict[int, str]:
    with open(os.path.join(oracle_dir, "versions.yaml"), encoding="utf-8") as f:
        doc = yaml.safe_load(f) or {}
    return {int(k): str(v) for k, v in (doc.get("versions") or {}).items()}
