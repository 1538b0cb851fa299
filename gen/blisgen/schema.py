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


# A ref naming another document kind (lower-case words joined by '-') rather than a CamelCase type: the
# value is that kind's whole root, and the kind's own types become visible to this file (see resolve()).
KIND_REF = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def check_unit(unit: str) -> bool:
    base, _, scope = unit.partition("/")
    return base in UNITS and (not scope or scope in SCOPES)


class Schema:
    """One schema file. `common` supplies named types shared across files (schemas/common.yaml).

    A ref may name another document kind (`ref: step-shape`): the field holds that kind's whole document,
    compiled to the same C++ type. Such refs resolve only once every kind is loaded, so load_schemas()
    builds each schema with defer=True and then calls link(); a schema built alone refuses them."""

    def __init__(self, path: str, common: "Schema | None" = None, defer: bool = False):
        raw = load(path).plain()
        self.kind_refs: list[str] = []           # kinds this file names in a ref, in first-use order
        self.kinds: dict[str, "Schema"] = {}     # set by link(): every kind reachable through kind refs
        self._pending: list[tuple[str, str]] = []  # (type name, where) found in no type table yet
        self._defer = defer
        self._root_spec: dict | None = None
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
        if not defer and (self.kind_refs or self._pending):
            name, where = (self.kind_refs[0], self.name) if self.kind_refs else self._pending[0]
            raise GenError(f"{path}: {where}: unknown type {name!r} (not in types: of this file or common.yaml"
                           + ("; a document kind is resolved only among all schemas" if self.kind_refs else "") + ")")

    def root_spec(self) -> dict:
        """The root with the schema's doc: what a ref naming this kind stands for (one object, so that
        id()-keyed bookkeeping of the generators sees the same spec at every use)."""
        if self._root_spec is None:
            self._root_spec = dict(self.root or {})
            self._root_spec["doc"] = self.doc
        return self._root_spec

    def link(self, schemas: dict[str, "Schema"]) -> None:
        """Resolves this file's kind refs against every loaded kind, then the type names that only a
        referenced kind defines. Refuses an unknown or self-referring kind and an ambiguous type name."""
        for k in self.kind_refs:
            if k not in schemas:
                raise GenError(f"{self.path}: ref {k!r} names no document kind (known: {', '.join(sorted(schemas))})")
            if k == self.name:
                raise GenError(f"{self.path}: ref {k!r} names this document kind itself")
        seen: dict[str, Schema] = {}
        todo = list(self.kind_refs)
        while todo:
            k = todo.pop(0)
            if k in seen:
                continue
            seen[k] = schemas[k]
            todo += schemas[k].kind_refs
        if self.name in seen:
            raise GenError(f"{self.path}: kind refs form a cycle through {self.name!r}: a document cannot hold itself")
        self.kinds = seen
        owners: dict[str, str] = {}
        for k, s in sorted(seen.items()):
            for t in s.types:
                if t in self.types or (t in owners and owners[t] != k):
                    other = "this file" if t in self.types else f"kind {owners[t]!r}"
                    raise GenError(f"{self.path}: type name {t!r} is defined by {other} and by kind {k!r}, "
                                   f"which this file refers to: rename one")
                owners[t] = k
        for name, where in self._pending:
            try:
                self.resolve(name)
            except GenError as e:
                raise GenError(f"{self.path}: {where}: {str(e).split(': ', 1)[1]}") from None
        self._pending = []

    def owner(self, name: str) -> "Schema":
        """The schema whose types (or, for a kind name, whose root) define a resolvable name."""
        if name in self.types or name == self.name:
            return self
        if self.common is not None and name in self.common.types:
            return self.common
        if name in self.kinds:
            return self.kinds[name]
        for s in self.kinds.values():
            if name in s.types:
                return s
        raise GenError(f"{self.path}: unknown type {name!r} (not in types: of this file, common.yaml"
                       + (f" or the kinds it refers to ({', '.join(self.kinds)})" if self.kinds else "") + ")")

    def resolve(self, name: str) -> dict:
        """A ref's spec: this file's types, then common.yaml's, then a referenced kind's root or types."""
        if name in self.types:
            return self.types[name]
        if self.common is not None and name in self.common.types:
            return self.common.types[name]
        if name in self.kinds:
            return self.kinds[name].root_spec()
        for s in self.kinds.values():
            if name in s.types:
                return s.types[name]
        raise GenError(f"{self.path}: unknown type {name!r} (not in types: of this file, common.yaml"
                       + (f" or the kinds it refers to ({', '.join(self.kinds)})" if self.kinds else "") + ")")

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
            name = spec["ref"]
            if not isinstance(name, str):
                raise GenError(f"{self.path}: {where}: ref must name a type or a document kind")
            if KIND_REF.fullmatch(name):
                if name not in self.kind_refs:
                    self.kind_refs.append(name)
            elif name in self.types or (self.common is not None and name in self.common.types):
                pass
            elif self._defer:
                self._pending.append((name, where))  # perhaps a referenced kind's type: link() decides
            else:
                self.resolve(name)

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
            s = Schema(os.path.join(gdir, fname), common, defer=True)
            if s.name != fname[:-5]:
                raise GenError(f"{s.path}: name {s.name!r} differs from the file name")
            if s.name in out:
                raise GenError(f"{s.path}: schema {s.name!r} is defined twice (also {out[s.name].path})")
            out[s.name] = s
    for s in out.values():
        s.link(out)
    return out


def kind_order(schemas: dict[str, Schema]) -> list[str]:
    """Kind names, each after every kind it refers to (then by name): the order C++ units are built in."""
    done: list[str] = []

    def visit(name: str) -> None:
        if name in done:
            return
        for k in sorted(schemas[name].kind_refs):
            visit(k)
        done.append(name)

    for name in sorted(schemas):
        visit(name)
    return done
