"""Renders each document schema as JSON Schema (draft 2020-12), committed under schemas/json/ for
editors and other tools. The C++ loaders, not this file, are what BLIS enforces; both come from the
same schema, and the committed copy is staleness-tested (X7)."""
from __future__ import annotations

import json

from .schema import Schema

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _anchored(pattern: str) -> str:
    return f"^(?:{pattern})$"


def _spec(schema: Schema, spec: dict, defs: dict) -> dict:
    t = spec["type"]
    out: dict = {}
    if spec.get("doc"):
        out["description"] = " ".join(str(spec["doc"]).split())
    if t in ("string", "text"):
        out["type"] = "string"
        out["minLength"] = 1
        if "pattern" in spec:
            out["pattern"] = _anchored(spec["pattern"])
        if "max_length" in spec:
            out["maxLength"] = spec["max_length"]
        if spec.get("label"):
            out["x-label"] = True  # documentation only: no decision may branch on it (SUB-20)
    elif t == "bool":
        out["type"] = "boolean"
    elif t in ("int", "number"):
        out["type"] = "integer" if t == "int" else "number"
        if t == "int":
            out.setdefault("minimum", -(2 ** 63))
            out.setdefault("maximum", 2 ** 63 - 1)
        if "min" in spec:
            out["exclusiveMinimum" if spec.get("exclusive_min") else "minimum"] = spec["min"]
        if "max" in spec:
            out["maximum"] = spec["max"]
        if spec.get("unit"):
            out["x-unit"] = spec["unit"]
    elif t == "enum":
        out["enum"] = list(spec["values"])
    elif t == "list":
        out["type"] = "array"
        out["items"] = _spec(schema, spec["items"], defs)
        if "min_items" in spec:
            out["minItems"] = spec["min_items"]
        if "max_items" in spec:
            out["maxItems"] = spec["max_items"]
    elif t == "map":
        out["type"] = "object"
        out["additionalProperties"] = _spec(schema, spec["values"], defs)
        if spec.get("keys", {}).get("pattern"):
            out["propertyNames"] = {"pattern": _anchored(spec["keys"]["pattern"])}
        if "min_items" in spec:
            out["minProperties"] = spec["min_items"]
    elif t == "object":
        fields = spec.get("fields") or {}
        out["type"] = "object"
        out["properties"] = {}
        for fname, fspec in fields.items():
            p = _spec(schema, fspec, defs)
            if fspec.get("nullable"):
                p = {"anyOf": [p, {"type": "null"}]}
            out["properties"][fname] = p
        req = [f for f, s in fields.items() if s.get("required")]
        if req:
            out["required"] = req
        out["additionalProperties"] = False
        if spec.get("one_of"):
            out["minProperties"] = 1
            out["maxProperties"] = 1
    elif t == "ref":
        name = spec["ref"]
        if name not in defs:
            defs[name] = None  # reserve first: types may refer to each other
            defs[name] = _spec(schema, schema.resolve(name), defs)
        out["$ref"] = f"#/$defs/{name}"
    elif t == "verbatim":
        pass  # any value, kept as written
    return out


def emit(schema: Schema) -> str:
    defs: dict = {}
    root = dict(schema.root)
    root["doc"] = schema.doc
    body = {"$schema": DIALECT, "$id": f"urn:blis:schema:{schema.name}", "title": schema.name}
    body.update(_spec(schema, root, defs))
    if defs:
        body["$defs"] = dict(sorted(defs.items()))
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def emit_all(schemas: dict[str, Schema]) -> dict[str, str]:
    return {f"schemas/json/{name}.json": emit(s) for name, s in sorted(schemas.items())}
