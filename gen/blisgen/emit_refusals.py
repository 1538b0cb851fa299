"""Generates refusal pairs for every field rule of every document schema (SUB-2, SIM-9).

For each rule the case set holds the smallest change to a valid example that breaks it (refused, with
the field path and cause the C++ reader must print) and its closest twin that keeps it (accepted).
Optional fields absent from the examples are synthesised, so every declared field is read at least
once. Every case is first checked with the Python validator: a case on which Python and the intended
verdict disagree stops generation, so the two implementations of the rules cannot drift apart silently.
"""
from __future__ import annotations

import copy
import json
import math
import os
import re

from .schema import Schema
from .yamlnodes import GenError, load

UNKNOWN = "zz_unknown_key"
_BAD_STRINGS = ["!", "x y", "A", "a", "0", "-", "x" * 3, "\u00e9"]


def _field(parent: str, key) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return key if not parent else f"{parent}.{key}"


class Cases:
    def __init__(self, schema: Schema, example, origin: str):
        self.schema = schema
        self.root = example
        self.origin = origin
        self.out: list[dict] = []
        self.covered: set = set()  # (id(spec), rule) already given a pair
        self.fields_read: set = set()  # (id(object spec), field) present in some accepted case

    # --- documents ----------------------------------------------------------------------------------
    def _doc_with(self, path: list, value, remove: bool = False):
        doc = copy.deepcopy(self.root)
        if not path:
            return value
        cur = doc
        for k in path[:-1]:
            cur = cur[k]
        if remove:
            del cur[path[-1]]
        else:
            cur[path[-1]] = value
        return doc

    def _add(self, rule: str, field: str, refused_doc, accepted_doc, expect: str) -> None:
        name = f"{self.schema.name}/{rule}/{field or '(root)'}"
        for verdict, doc in (("refused", refused_doc), ("accepted", accepted_doc)):
            if doc is None:
                continue
            text = json.dumps(doc, ensure_ascii=False, indent=1)
            errors = self.schema.validate(load("case.json", text=text, display="case.json"))
            if (verdict == "accepted") != (not errors):
                raise GenError(f"{self.schema.path}: generated {verdict} case {name} (from {self.origin}) is "
                               f"{'refused' if errors else 'accepted'} by the Python validator: "
                               f"{errors[:2] or 'no error'}\n{text}")
            expects = [expect] if isinstance(expect, str) else list(expect)
            self.out.append({"kind": self.schema.name, "name": f"{name}/{verdict}", "ok": verdict == "accepted",
                             "expect": [] if verdict == "accepted" else expects, "text": text, "path": "case.json"})

    def _add_literal(self, rule: str, field: str, path: list, literal: str, path_: str, expect: str) -> None:
        """A refused case whose value JSON cannot spell (1e400, .nan): written in as text."""
        sentinel = "__blis_literal__"
        text = json.dumps(self._doc_with(path, sentinel), ensure_ascii=False, indent=1)
        text = text.replace(json.dumps(sentinel), literal)
        name = f"{self.schema.name}/{rule}/{field}"
        errors = self.schema.validate(load(path_, text=text, display=path_))
        if not errors and rule != "int64-overflow":
            raise GenError(f"{self.schema.path}: generated refused case {name} is accepted by the Python validator")
        self.out.append({"kind": self.schema.name, "name": f"{name}/refused", "ok": False, "expect": [expect],
                         "text": text, "path": path_})

    # --- synthesis ----------------------------------------------------------------------------------
    def synth(self, spec: dict, where: str):
        t = spec["type"]
        if t == "ref":
            return self.synth(self.schema.resolve(spec["ref"]), where)
        if "example" in spec:
            return copy.deepcopy(spec["example"])
        if t in ("string", "text"):
            v = "x"
            if "pattern" in spec and not re.fullmatch(spec["pattern"], v):
                raise GenError(f"{self.schema.path}: {where}: give this pattern field an `example:` "
                               f"(needed to generate its refusal pairs)")
            return v
        if t == "bool":
            return True
        if t == "int":
            return int(spec.get("min", 0)) + (1 if spec.get("exclusive_min") else 0) if "min" in spec else \
                min(0, int(spec.get("max", 0)))
        if t == "number":
            lo = float(spec.get("min", 0.0))
            v = lo + 1.0 if spec.get("exclusive_min") else lo if "min" in spec else min(0.0, float(spec.get("max", 0.0)))
            if "max" in spec and v > spec["max"]:
                v = (lo + float(spec["max"])) / 2
            return v
        if t == "enum":
            return spec["values"][0]
        if t == "list":
            return [self.synth(spec["items"], where + "[]") for _ in range(spec.get("min_items", 0))]
        if t == "map":
            keys = spec.get("keys", {})
            k = keys.get("example", "k")
            return {k: self.synth(spec["values"], where + "{}")} if spec.get("min_items", 0) else {}
        if t == "object":
            fields = spec.get("fields") or {}
            if spec.get("one_of"):
                first = next(iter(fields))
                return {first: self.synth(fields[first], f"{where}.{first}")}
            return {f: self.synth(s, f"{where}.{f}") for f, s in fields.items() if s.get("required")}
        if t == "verbatim":
            return {"setting": "value"}
        raise GenError(f"{self.schema.path}: {where}: cannot synthesise type {t}")

    # --- the walk -----------------------------------------------------------------------------------
    def walk(self, spec: dict, value, path: list, field: str) -> None:
        t = spec["type"]
        if t == "ref":
            self.walk(self.schema.resolve(spec["ref"]), value, path, field)
            return
        if t == "verbatim" or value is None:
            return
        once = (id(spec), "type")
        if once not in self.covered:
            self.covered.add(once)
            self._type_case(spec, path, field)
        if t == "object":
            self._object(spec, value, path, field)
        elif t == "list":
            self._list(spec, value, path, field)
        elif t == "map":
            self._map(spec, value, path, field)
        else:
            self._scalar(spec, value, path, field)

    def _type_case(self, spec: dict, path: list, field: str) -> None:
        t = spec["type"]
        wrong, expect = {
            "string": (12345, "expected a string"), "text": (12345, "expected a string"),
            "enum": (12345, "expected a string"), "int": ("abc", "expected an integer, got the string 'abc'"),
            "number": ("abc", "expected a number, got the string 'abc'"),
            "bool": ("abc", "expected true or false, got the string 'abc'"),
            "list": ({}, "expected a list, got a mapping"), "map": ([], "expected a mapping, got a list"),
            "object": ([], "expected a mapping, got a list"),
        }[t]
        if not path:
            return  # the root: a document that is not a mapping is in the malformed conformance set
        self._add("type", field, self._doc_with(path, wrong), None, f"{field}: {expect}")

    def _object(self, spec: dict, value: dict, path: list, field: str) -> None:
        fields = spec.get("fields") or {}
        if (id(spec), "unknown") not in self.covered:
            self.covered.add((id(spec), "unknown"))
            bad = dict(value)
            bad[UNKNOWN] = 1
            self._add("unknown-key", field, self._doc_with(path, bad) if path else bad, None,
                      (f"{field}: " if field else "") + f"unknown key '{UNKNOWN}'")
        present = [f for f in fields if f in value]
        if spec.get("one_of") and (id(spec), "one_of") not in self.covered and len(present) == 1:
            self.covered.add((id(spec), "one_of"))
            other = next(f for f in fields if f not in present) if len(fields) > 1 else None
            if other is not None:
                two = dict(value)
                two[other] = self.synth(fields[other], f"{field}.{other}")
                self._add("one-of", field, self._doc_with(path, two) if path else two,
                          self._doc_with(path, dict(value)) if path else dict(value),
                          (f"{field}: " if field else "") + "exactly one of")
        for fname, fspec in fields.items():
            fpath = path + [fname]
            ff = _field(field, fname)
            if fname in value:
                self.fields_read.add((id(spec), fname))
                if fspec.get("required") and (id(spec), "req", fname) not in self.covered:
                    self.covered.add((id(spec), "req", fname))
                    self._add("required", ff, self._doc_with(fpath, None, remove=True), None,
                              (f"{field}: " if field else "") + f"missing required key '{fname}'")
                if not fspec.get("nullable") and (id(spec), "null", fname) not in self.covered:
                    self.covered.add((id(spec), "null", fname))
                    self._add("null", ff, self._doc_with(fpath, None), None, f"{ff}: null is not allowed here")
                self.walk(fspec, value[fname], fpath, ff)
            else:
                # An optional field the example leaves out (or another alternative of a one_of object):
                # add a synthesised value, then walk it.
                if (id(spec), "absent", fname) in self.covered:
                    continue
                self.covered.add((id(spec), "absent", fname))
                with_field = {} if spec.get("one_of") else dict(value)
                with_field[fname] = self.synth(fspec, ff)
                saved = self.root
                self.root = self._doc_with(path, with_field) if path else with_field
                self._add("optional-present", ff, None, self.root, "")
                self.fields_read.add((id(spec), fname))
                self.walk(fspec, with_field[fname], fpath, ff)
                self.root = saved

    def _list(self, spec: dict, value: list, path: list, field: str) -> None:
        items = list(value) or [self.synth(spec["items"], field + "[]")]
        if "min_items" in spec and (id(spec), "min_items") not in self.covered and spec["min_items"] > 0:
            self.covered.add((id(spec), "min_items"))
            n = spec["min_items"]
            self._add("min-items", field, self._doc_with(path, (items * n)[: n - 1]),
                      self._doc_with(path, (items * n)[:n]), f"{field}: needs at least {n} item(s)")
        if "max_items" in spec and (id(spec), "max_items") not in self.covered:
            self.covered.add((id(spec), "max_items"))
            n = spec["max_items"]
            self._add("max-items", field, self._doc_with(path, (items * (n + 1))[: n + 1]),
                      self._doc_with(path, (items * n)[:n]), f"{field}: at most {n} item(s) allowed")
        if value:
            self.walk(spec["items"], value[0], path + [0], _field(field, 0))
        elif (id(spec), "synth-item") not in self.covered:
            self.covered.add((id(spec), "synth-item"))
            saved = self.root
            self.root = self._doc_with(path, items[:1])
            self._add("item-present", field, None, self.root, "")
            self.walk(spec["items"], items[0], path + [0], _field(field, 0))
            self.root = saved

    def _map(self, spec: dict, value: dict, path: list, field: str) -> None:
        kpat = spec.get("keys", {}).get("pattern")
        if kpat and (id(spec), "key") not in self.covered:
            self.covered.add((id(spec), "key"))
            bad_key = next((s for s in ["Bad Key!", "!", " x"] if not re.fullmatch(kpat, s)), None)
            sample = next(iter(value.values())) if value else self.synth(spec["values"], field + "{}")
            if bad_key is not None:
                good = dict(value) or {spec["keys"].get("example", "k"): sample}
                self._add("key-pattern", field, self._doc_with(path, {**value, bad_key: sample}),
                          self._doc_with(path, good), f"{field}: key '{bad_key}' does not match the pattern")
        if "min_items" in spec and spec["min_items"] > 0 and (id(spec), "min_items") not in self.covered:
            self.covered.add((id(spec), "min_items"))
            keys = list(value)[: spec["min_items"] - 1]
            self._add("min-items", field, self._doc_with(path, {k: value[k] for k in keys}), None,
                      f"{field}: needs at least {spec['min_items']} item(s)")
        if value:
            k = next(iter(value))
            self.walk(spec["values"], value[k], path + [k], _field(field, k))
        elif (id(spec), "synth-value") not in self.covered:
            self.covered.add((id(spec), "synth-value"))
            key = spec.get("keys", {}).get("example", "k")
            one = {key: self.synth(spec["values"], field + "{}")}
            saved = self.root
            self.root = self._doc_with(path, one)
            self._add("value-present", field, None, self.root, "")
            self.walk(spec["values"], one[key], path + [key], _field(field, key))
            self.root = saved

    def _scalar(self, spec: dict, value, path: list, field: str) -> None:
        t = spec["type"]
        if t in ("string", "text") and (id(spec), "empty") not in self.covered:
            self.covered.add((id(spec), "empty"))
            self._add("empty", field, self._doc_with(path, ""), None, f"{field}: must not be empty")
        if "pattern" in spec and (id(spec), "pattern") not in self.covered:
            self.covered.add((id(spec), "pattern"))
            bad = next((s for s in _BAD_STRINGS + [value + " !"] if not re.fullmatch(spec["pattern"], s)), None)
            if bad is None:
                raise GenError(f"{self.schema.path}: {field}: found no string the pattern refuses")
            self._add("pattern", field, self._doc_with(path, bad), self._doc_with(path, value),
                      f"{field}: '{bad}' does not match the pattern")
        if "max_length" in spec and "pattern" not in spec and (id(spec), "max_length") not in self.covered:
            self.covered.add((id(spec), "max_length"))
            n = spec["max_length"]
            self._add("max-length", field, self._doc_with(path, "x" * (n + 1)), self._doc_with(path, "x" * n),
                      f"{field}: {n + 1} characters, at most {n} allowed")
        if t == "enum" and (id(spec), "enum") not in self.covered:
            self.covered.add((id(spec), "enum"))
            bad = spec["values"][0] + "x"
            self._add("enum", field, self._doc_with(path, bad), self._doc_with(path, spec["values"][0]),
                      f"{field}: '{bad}' is not one of")
        if t in ("int", "number"):
            step = (lambda x, d: x + d) if t == "int" else (lambda x, d: math.nextafter(float(x), d * math.inf))
            if "min" in spec and (id(spec), "min") not in self.covered:
                self.covered.add((id(spec), "min"))
                lo = spec["min"] if t == "int" else float(spec["min"])
                if spec.get("exclusive_min"):
                    self._add("exclusive-min", field, self._doc_with(path, lo), self._doc_with(path, step(lo, 1)),
                              [f"{field}: ", f" must be greater than {spec['min']}"])
                else:
                    self._add("min", field, self._doc_with(path, step(lo, -1)), self._doc_with(path, lo),
                              [f"{field}: ", f" is below the minimum {spec['min']}"])
            if "max" in spec and (id(spec), "max") not in self.covered:
                self.covered.add((id(spec), "max"))
                hi = spec["max"] if t == "int" else float(spec["max"])
                self._add("max", field, self._doc_with(path, step(hi, 1)), self._doc_with(path, hi),
                          [f"{field}: ", f" is above the maximum {spec['max']}"])
            if t == "number" and (id(spec), "special") not in self.covered:
                self.covered.add((id(spec), "special"))
                for rule, literal, path_, cause in (
                        ("overflow", "1e400", "case.json", "'1e400' is too large for a double"),
                        ("underflow", "1e-400", "case.json", "'1e-400' is too small for a double"),
                        ("nan", ".nan", "case.yaml", "'.nan' is not a finite number"),
                        ("infinity", "-.inf", "case.yaml", "'-.inf' is not a finite number")):
                    self._add_literal(rule, field, path, literal, path_, f"{field}: {cause}")
            if t == "int" and (id(spec), "range") not in self.covered:
                self.covered.add((id(spec), "range"))
                self._add_literal("int64-overflow", field, path, str(2 ** 63), "case.json",
                                  f"{field}: '{2 ** 63}' does not fit a 64-bit integer")
            if t == "int" and (id(spec), "exact") not in self.covered:
                self.covered.add((id(spec), "exact"))
                self._add("integer", field, self._doc_with(path, float(value) + 0.5), None,
                          f"{field}: '{float(value) + 0.5!r}' is not an integer")


def _unreached(schema: Schema, c: Cases) -> list[str]:
    """Fields of object specs reached in the walk that no accepted case ever carried."""
    missing = []

    def visit(spec, where, seen):
        t = spec["type"]
        if t == "ref":
            name = spec["ref"]
            if name in seen:
                return
            visit(schema.resolve(name), where, seen | {name})
        elif t == "object":
            for f, s in (spec.get("fields") or {}).items():
                if (id(spec), f) not in c.fields_read:
                    missing.append(f"{where}.{f}")
                visit(s, f"{where}.{f}", seen)
        elif t == "list":
            visit(spec["items"], where + "[]", seen)
        elif t == "map":
            visit(spec["values"], where + "{}", seen)

    visit(schema.root, schema.name, frozenset())
    return missing


def examples_of(root: str, name: str) -> list[str]:
    d = os.path.join(root, "schemas", "examples", name)
    if not os.path.isdir(d):
        return []
    return [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith((".yaml", ".json"))]


def emit(root: str, schemas: dict[str, Schema]) -> str:
    cases: list[dict] = []
    for name, schema in sorted(schemas.items()):
        files = examples_of(root, name)
        if not files:
            raise GenError(f"{schema.path}: no example under schemas/examples/{name}/ (every kind needs one)")
        for path in files:
            v = load(path)
            errors = schema.validate(v)
            if errors:
                raise GenError("\n".join(errors))
            with open(path, encoding="utf-8") as f:
                text = f.read()
            cases.append({"kind": name, "name": f"{name}/example/{os.path.basename(path)}", "ok": True,
                          "expect": [], "text": text, "path": os.path.relpath(path, root)})
        c = Cases(schema, load(files[0]).plain(), files[0])
        c.walk(schema.root, c.root, [], "")
        missing = _unreached(schema, c)
        if missing:
            raise GenError(f"{schema.path}: fields no generated case reads: {', '.join(missing[:8])}")
        cases += c.out
    return json.dumps(cases, ensure_ascii=False, indent=0) + "\n"
