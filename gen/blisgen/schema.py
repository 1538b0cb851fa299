"""Checks a located YAML value against a schema written in schemas/ (language: schemas/README.md).

The same rules as the generated C++ loaders: unknown keys refused with the nearest valid spelling,
nothing dropped or defaulted silently, numbers exact, units declared. Writer scripts use this through
`blis_gen.py validate-doc` so that what they write is checked before the C++ build sees it.
"""
from __future__ import annotations

import difflib
import math
import os
import re

from .yamlnodes import GenError, Value, load

TYPES = {"string", "text", "int", "number", "bool", "enum", "list", "object", "map", "ref", "verbatim"}
UNITS = {"bytes", "seconds", "tokens", "flops", "bytes_per_s", "flops_per_s", "ratio", "count"}
SCOPES = {"rank", "node", "group"}
INT_UNITS = {"bytes", "tokens", "count"}  # counted in whole units; the rest are real-valued
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1

_ATTRS = {
    "string": {"pattern", "max_length", "example", "label"},
    "text": {"max_length", "example", "label"},
    "bool": {"example"},
    "int": {"min", "max", "unit", "example"},
    "number": {"min", "max", "exclusive_min", "unit", "example"},
    "enum": {"values", "example"},
    "list": {"items", "min_items", "max_items"},
    "object": {"fields", "one_of"},
    "map": {"keys", "values", "min_items"},
    "ref": {"ref"},
    "verbatim": {"example"},
}
_COMMON_ATTRS = {"type", "required", "nullable", "doc"}
_TOP = {"name", "doc", "aliases", "types", "type", "fields"}


def check_unit(unit: str) -> bool:
    base, _, scope = unit.partition("/")
    return base in UNITS and (not scope or scope in SCOPES)


class Schema:
    """One schema file. `common` supplies named types shared across files (schemas/common.yaml)."""

    def __init__(self, path: str, common: "Schema | None" = None):
        raw = load(path).plain()
        self.path = path
        for key in raw:
            if key not in _TOP:
                raise GenError(f"{path}: unknown top-level schema key {key!r}")
        self.name = raw["name"]
        self.doc = raw.get("doc", "")
        self.aliases = raw.get("aliases", "refused")
        if self.aliases not in ("refused", "allowed"):
            raise GenError(f"{path}: aliases must be refused or allowed, not {self.aliases!r}")
        self.types: dict[str, dict] = dict(raw.get("types") or {})
        self.common = common
        self.root = {k: raw[k] for k in ("type", "fields") if k in raw} or None
        for tname, tspec in self.types.items():
            if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", tname):
                raise GenError(f"{path}: type name {tname!r} must be CamelCase")
            self._check_spec(tspec, tname)
        if self.root is not None:
            if self.root.get("type") != "object":
                raise GenError(f"{path}: the root of a document schema is an object")
            self._check_spec(self.root, self.name)

    def resolve(self, name: str) -> dict:
        if name in self.types:
            return self.types[name]
        if self.common is not None and name in self.common.types:
            return self.common.types[name]
        raise GenError(f"{self.path}: unknown type {name!r} (not in types: of this file or common.yaml)")

    def _check_spec(self, spec: dict, where: str) -> None:
        if not isinstance(spec, dict):
            raise GenError(f"{self.path}: {where}: a type must be a mapping")
        t = spec.get("type")
        if t not in TYPES:
            raise GenError(f"{self.path}: {where}: unknown schema type {t!r}")
        for key in spec:
            if key not in _COMMON_ATTRS and key not in _ATTRS[t]:
                raise GenError(f"{self.path}: {where}: attribute {key!r} does not apply to type {t}")
        if "unit" in spec and not check_unit(spec["unit"]):
            raise GenError(f"{self.path}: {where}: unknown unit {spec['unit']!r}")
        if "unit" in spec:
            want_int = spec["unit"].partition("/")[0] in INT_UNITS
            if want_int != (t == "int"):
                raise GenError(f"{self.path}: {where}: unit {spec['unit']} is {'an integer' if want_int else 'a real'} "
                               f"quantity: use type {'int' if want_int else 'number'}")
        if "label" in spec and spec["label"] is not True:
            raise GenError(f"{self.path}: {where}: label is true or absent (a documentation-only text, SUB-20)")
        if "pattern" in spec:
            re.compile(spec["pattern"])
        if t == "enum" and not spec.get("values"):
            raise GenError(f"{self.path}: {where}: an enum needs values")
        if t == "object":
            for fname, fspec in (spec.get("fields") or {}).items():
                if not re.fullmatch(r"[a-z][a-z0-9_]*", fname) and not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", fname):
                    raise GenError(f"{self.path}: {where}.{fname}: field names are identifiers")
                self._check_spec(fspec, f"{where}.{fname}")
        if t == "list":
            self._check_spec(spec["items"], f"{where}[]")
        if t == "map":
            keys = spec.get("keys", {"type": "string"})
            if keys.get("type") != "string":
                raise GenError(f"{self.path}: {where}: map keys are strings")
            self._check_spec(keys, f"{where}{{key}}")
            self._check_spec(spec["values"], f"{where}{{}}")
        if t == "ref":
            self.resolve(spec["ref"])

    def validate(self, value: Value) -> list[str]:
        if self.root is None:
            raise GenError(f"{self.path}: has no root type (a types-only file)")
        errors: list[str] = []
        self._validate(self.root, value, self.name, errors)
        return errors

    def _validate(self, spec: dict, value: Value, field: str, errors: list[str]) -> None:
        t = spec["type"]
        if t == "ref":
            self._validate(self.resolve(spec["ref"]), value, field, errors)
            return
        v = value.v
        if v is None:
            if not spec.get("nullable"):
                errors.append(f"{value.loc}: {field}: null is not allowed here")
            return
        if t == "verbatim":
            return
        if t in ("string", "text"):
            if not isinstance(v, str):
                errors.append(f"{value.loc}: {field}: expected a string, got {_describe(v)} {v!r}"
                              + (" (quote it)" if isinstance(v, (int, float, bool)) else ""))
                return
            if not v.strip():
                errors.append(f"{value.loc}: {field}: must not be empty")
            if t == "string" and "\n" in v.strip():
                errors.append(f"{value.loc}: {field}: must be one line")
            if "pattern" in spec and not re.fullmatch(spec["pattern"], v):
                errors.append(f"{value.loc}: {field}: {v!r} does not match the pattern {spec['pattern']}")
            if "max_length" in spec and len(v) > spec["max_length"]:
                errors.append(f"{value.loc}: {field}: {len(v)} characters, at most {spec['max_length']} allowed")
        elif t in ("int", "number"):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                errors.append(f"{value.loc}: {field}: expected {'an integer' if t == 'int' else 'a number'}, "
                              f"got {_describe(v)} {v!r}")
                return
            if t == "int" and isinstance(v, float) and v.is_integer() and abs(v) < 2.0 ** 63:
                v = int(v)  # 3.0 and 1e3 are exact integers; the C++ reader accepts them too
            if t == "int" and isinstance(v, float):
                errors.append(f"{value.loc}: {field}: {v!r} is not an integer")
                return
            if t == "int" and not INT64_MIN <= v <= INT64_MAX:
                errors.append(f"{value.loc}: {field}: {v} does not fit a 64-bit integer")
                return
            if isinstance(v, float) and not math.isfinite(v):
                errors.append(f"{value.loc}: {field}: {v!r} is not a finite number")
                return
            if "min" in spec and v < spec["min"]:
                errors.append(f"{value.loc}: {field}: {v} is below the minimum {spec['min']}")
            if spec.get("exclusive_min") and "min" in spec and v == spec["min"]:
                errors.append(f"{value.loc}: {field}: {v} must be greater than {spec['min']}")
            if "max" in spec and v > spec["max"]:
                errors.append(f"{value.loc}: {field}: {v} is above the maximum {spec['max']}")
        elif t == "bool":
            if not isinstance(v, bool):
                errors.append(f"{value.loc}: {field}: expected true or false, got {_describe(v)} {v!r}")
        elif t == "enum":
            allowed = spec["values"]
            if not isinstance(v, str) or v not in allowed:
                hint = difflib.get_close_matches(str(v), allowed, n=1)
                more = f" (did you mean '{hint[0]}'?)" if hint else ""
                errors.append(f"{value.loc}: {field}: {v!r} is not one of {', '.join(allowed)}{more}")
        elif t == "list":
            if not isinstance(v, list):
                errors.append(f"{value.loc}: {field}: expected a list, got {_describe(v)}")
                return
            if len(v) < spec.get("min_items", 0):
                errors.append(f"{value.loc}: {field}: needs at least {spec['min_items']} item(s)")
            if "max_items" in spec and len(v) > spec["max_items"]:
                errors.append(f"{value.loc}: {field}: at most {spec['max_items']} item(s) allowed")
            for i, item in enumerate(v):
                self._validate(spec["items"], item, f"{field}[{i}]", errors)
        elif t == "map":
            if not isinstance(v, dict):
                errors.append(f"{value.loc}: {field}: expected a mapping, got {_describe(v)}")
                return
            if len(v) < spec.get("min_items", 0):
                errors.append(f"{value.loc}: {field}: needs at least {spec['min_items']} item(s)")
            kpat = spec.get("keys", {}).get("pattern")
            for key, item in v.items():
                if kpat and not re.fullmatch(kpat, key):
                    errors.append(f"{value.key_locs[key]}: {field}: key {key!r} does not match the pattern {kpat}")
                self._validate(spec["values"], item, f"{field}.{key}", errors)
        elif t == "object":
            if not isinstance(v, dict):
                errors.append(f"{value.loc}: {field}: expected a mapping, got {_describe(v)}")
                return
            fields = spec.get("fields", {})
            for key, item in v.items():
                if key not in fields:
                    hint = difflib.get_close_matches(key, list(fields), n=1)
                    more = f" (did you mean '{hint[0]}'?)" if hint else ""
                    errors.append(f"{value.key_locs[key]}: {field}: unknown key '{key}'{more}")
                    continue
                self._validate(fields[key], item, f"{field}.{key}", errors)
            if spec.get("one_of") and len([k for k in v if k in fields]) != 1:
                errors.append(f"{value.loc}: {field}: exactly one of {', '.join(fields)} must be given, "
                              f"found {len([k for k in v if k in fields])}")
            for fname, fspec in fields.items():
                if fspec.get("required") and fname not in v:
                    errors.append(f"{value.loc}: {field}: missing required key '{fname}'")


def _describe(v: object) -> str:
    return "null" if v is None else type(v).__name__


def load_schemas(schemas_dir: str) -> dict[str, Schema]:
    """Every document schema under schemas/<group>/*.yaml, keyed by name, sharing common.yaml."""
    common_path = os.path.join(schemas_dir, "common.yaml")
    common = Schema(common_path) if os.path.exists(common_path) else None
    out: dict[str, Schema] = {}
    for group in sorted(os.listdir(schemas_dir)):
        gdir = os.path.join(schemas_dir, group)
        if not os.path.isdir(gdir) or group in ("examples", "json"):
            continue
        for fname in sorted(os.listdir(gdir)):
            if not fname.endswith(".yaml"):
                continue
            s = Schema(os.path.join(gdir, fname), common)
            if s.name != fname[:-5]:
                raise GenError(f"{s.path}: name {s.name!r} differs from the file name")
            if s.name in out:
                raise GenError(f"{s.path}: schema {s.name!r} is defined twice (also {out[s.name].path})")
            out[s.name] = s
    return out
