"""Checks a located YAML value against a schema written in schemas/*.yaml.

The schema language is small on purpose: string, text, int, bool, enum, list, object. Unknown keys are
refused with the nearest valid spelling; nothing is dropped or defaulted silently.
"""
from __future__ import annotations

import difflib
import re

from .yamlnodes import GenError, Value, load

_TYPES = {"string", "text", "int", "bool", "enum", "list", "object"}


class Schema:
    def __init__(self, path: str):
        raw = load(path).plain()
        self.path = path
        self.name = raw["name"]
        self.root = {k: raw[k] for k in raw if k not in ("name", "doc")}
        self._check_spec(self.root, raw["name"])

    def _check_spec(self, spec: dict, where: str) -> None:
        t = spec.get("type")
        if t not in _TYPES:
            raise GenError(f"{self.path}: {where}: unknown schema type {t!r}")
        if t == "object":
            for fname, fspec in spec.get("fields", {}).items():
                self._check_spec(fspec, f"{where}.{fname}")
        if t == "list":
            self._check_spec(spec["items"], f"{where}[]")

    def validate(self, value: Value) -> list[str]:
        errors: list[str] = []
        _validate(self.root, value, self.name, errors)
        return errors


def _describe(v: object) -> str:
    return "null" if v is None else type(v).__name__


def _validate(spec: dict, value: Value, field: str, errors: list[str]) -> None:
    t = spec["type"]
    v = value.v
    if v is None:
        if not spec.get("nullable"):
            errors.append(f"{value.loc}: {field}: null is not allowed here")
        return
    if t in ("string", "text"):
        if not isinstance(v, str):
            errors.append(f"{value.loc}: {field}: expected a string, got {_describe(v)} {v!r}")
            return
        if not v.strip():
            errors.append(f"{value.loc}: {field}: must not be empty")
        if t == "string" and "\n" in v.strip():
            errors.append(f"{value.loc}: {field}: must be one line")
        if "pattern" in spec and not re.fullmatch(spec["pattern"], v):
            errors.append(f"{value.loc}: {field}: {v!r} does not match the pattern {spec['pattern']}")
        if "max_length" in spec and len(v) > spec["max_length"]:
            errors.append(f"{value.loc}: {field}: {len(v)} characters, at most {spec['max_length']} allowed")
    elif t == "int":
        if not isinstance(v, int) or isinstance(v, bool):
            errors.append(f"{value.loc}: {field}: expected an integer, got {_describe(v)} {v!r}")
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
        for i, item in enumerate(v):
            _validate(spec["items"], item, f"{field}[{i}]", errors)
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
            _validate(fields[key], item, f"{field}.{key}", errors)
        for fname, fspec in fields.items():
            if fspec.get("required") and fname not in v:
                errors.append(f"{value.loc}: {field}: missing required key '{fname}'")
