"""Data units of the operator tables and their roles: the one keyed rule (design §10.2; D1).

A unit is one whole sweep of one table, never a single row:
- GEMM: every m of one (kernel, data type, n, k);
- attention: every batch size of one (kernel, data types, heads, KV heads, head size, context bucket);
- MoE: every token count of one (kernel, data type, shape, top-k, experts, layout, distribution);
- MLA: every batch size of one (kernel, data types, heads, tp, context bucket);
- collectives: every message size of one (kernel, data type, operation, group size).

Its ID is stable text, `aic:<chip>:<table>:<sweep key>`: <chip> the table's system directory, <table>
the table's path below it without `.csv`, <sweep key> the fixed fields joined by `/`.

Its role comes from its ROLE KEY, the ID with the table's release directory (a version such as 0.24.0 or
2.27.3) left out, so re-measurements of one sweep under another release share a role (near-copies must,
§10.2): the first 8 bytes of SHA-256 of the role key, read big-endian, modulo 100, against the cut-points
below (fit 0-59, select 60-74, validate 75-84, held 85-99). Nothing from BLIS enters the key, so no BLIS
change moves a unit's role.
"""
from __future__ import annotations

import hashlib
import re

ROLES = (("fit", 60), ("select", 75), ("validate", 85), ("held", 100))  # role, exclusive upper cut-point
SOURCE = "aic"
_VERSION = re.compile(r"^[0-9]+(\.[0-9A-Za-z]+)+$")
_SAFE = re.compile(r"[^A-Za-z0-9._\-]")


def clean(text: str) -> str:
    """A field value as a unit-ID component: characters outside [A-Za-z0-9._-] become '-'."""
    return _SAFE.sub("-", str(text))


def unit_id(chip: str, table: str, key_parts: list) -> str:
    """`aic:<chip>:<table>:<sweep key>` (table: the path below the chip directory, without .csv)."""
    key = "/".join(clean(p) for p in key_parts)
    return f"{SOURCE}:{clean(chip)}:{table}:{key}"


def role_key(uid: str) -> str:
    """The unit ID without the table's release directory."""
    source, chip, table, key = uid.split(":", 3)
    parts = [p for p in table.split("/") if not _VERSION.match(p)]
    return f"{source}:{chip}:{'/'.join(parts)}:{key}"


def bucket(uid: str) -> int:
    digest = hashlib.sha256(role_key(uid).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % 100


def role(uid: str) -> str:
    v = bucket(uid)
    for name, upper in ROLES:
        if v < upper:
            return name
    raise AssertionError(v)
