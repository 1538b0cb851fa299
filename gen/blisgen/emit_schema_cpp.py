"""Compiles document schemas (schemas/<group>/<name>.yaml) into C++: one struct per object, a strict
reader per type, the field rules written once (checked by the reader and by validate()), and a table
of document kinds with their JSON Schema for `blis schema`.

Generated files (build directory only): schema/<name>.h and schema/<name>.cpp per document kind,
schema/common.h/.cpp for schemas/common.yaml, schema/kinds.cpp for the table.
"""
from __future__ import annotations

import json
import re

from .schema import Schema, kind_order
from .yamlnodes import GenError

from .schema import INT_UNITS  # noqa: E402


def camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[-_/]", name) if p)


def unit_alias(unit: str) -> str:
    base, _, scope = unit.partition("/")
    alias = "".join(p[:1].upper() + p[1:] for p in base.split("_"))
    return f"blis::units::{alias}{('Per' + scope.capitalize()) if scope else ''}"


def cpp_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


class Unit:
    """One translation unit's worth of generated declarations and definitions."""

    def __init__(self, schema: Schema, prefix: str, common: "Unit | None", kinds: "dict[str, Unit] | None" = None):
        self.schema = schema
        self.prefix = prefix  # C++ name prefix for this file's types ("" for common)
        self.common = common
        self.kinds = kinds or {}  # the units of the document kinds this file refers to (built before it)
        self.structs: list[str] = []        # struct definitions, dependency order
        self.visitors: list[str] = []       # for_each_field overloads, one pair per struct
        self.aliases: list[str] = []        # using-declarations for named non-object types
        self.decls: list[str] = []          # public function declarations
        self.defs: list[str] = []           # function definitions
        self.named: dict[str, str] = {}     # type name -> C++ type
        self.defined: set[str] = set()      # struct names already emitted
        self._rcache: dict = {}             # (spec, C++ type) -> rule function name
        self._vcache: dict = {}             # (spec, C++ type) -> validator function name (or None)
        self.counter = 0
        for tname in schema.types:
            self._named(tname)

    # --- types --------------------------------------------------------------------------------------
    def _named(self, tname: str) -> str:
        if tname in self.named:
            return self.named[tname]
        cname = self.prefix + tname
        spec = self.schema.types[tname]
        self.named[tname] = cname
        if spec["type"] == "object":
            self._struct(spec, cname)
        else:
            self.aliases.append(f"using {cname} = {self.cpp_type(spec, cname)};")
        return cname

    def resolve_ref(self, ref: str) -> tuple[str, "Unit", dict]:
        """A ref's C++ type, the unit that defines it, and its spec (this file, common.yaml, or the root or
        a type of a document kind this file refers to)."""
        if ref in self.schema.types:
            return self._named(ref), self, self.schema.types[ref]
        if self.common is not None and ref in self.common.schema.types:
            return self.common.named[ref], self.common, self.common.schema.types[ref]
        owner = self.schema.owner(ref)  # raises for an unknown name
        unit = self.kinds.get(owner.name)
        if unit is None:
            raise GenError(f"{self.schema.path}: kind {owner.name!r} must be compiled before this file")
        if ref == owner.name:
            return camel(owner.name), unit, owner.root_spec()
        return unit.named[ref], unit, owner.types[ref]

    def cpp_type(self, spec: dict, hint: str) -> str:
        t = spec["type"]
        if t in ("string", "text") and spec.get("label"):
            return "blis::Label"  # documentation-only text (SUB-20): the lint blis-label-branch reads this name
        if t in ("string", "text", "enum"):
            return "std::string"
        if t == "bool":
            return "bool"
        if t in ("int", "number"):
            unit = spec.get("unit")
            if unit:
                want_int = unit.partition("/")[0] in INT_UNITS
                if want_int != (t == "int"):
                    raise GenError(f"{self.schema.path}: {hint}: unit {unit} is "
                                   f"{'an integer' if want_int else 'a real'} quantity: use type "
                                   f"{'int' if want_int else 'number'}")
                return unit_alias(unit)
            return "std::int64_t" if t == "int" else "double"
        if t == "list":
            return f"std::vector<{self.cpp_type(spec['items'], hint + 'Item')}>"
        if t == "map":
            return f"std::map<std::string, {self.cpp_type(spec['values'], hint + 'Value')}>"
        if t == "object":
            if hint not in self.defined:
                self._struct(spec, hint)
            return hint
        if t == "ref":
            return self.resolve_ref(spec["ref"])[0]
        if t == "verbatim":
            return "blis::doc::Node"
        raise GenError(f"{self.schema.path}: {hint}: type {t}")

    def field_type(self, fspec: dict, hint: str) -> str:
        inner = self.cpp_type(fspec, hint)
        if fspec.get("nullable"):
            inner = f"std::optional<{inner}>"
        if not fspec.get("required"):
            inner = f"std::optional<{inner}>"
        return inner

    def _struct(self, spec: dict, cname: str) -> None:
        self.defined.add(cname)
        lines = []
        doc = spec.get("doc")
        if doc:
            lines.append(f"// {' '.join(str(doc).split())}")
        lines.append(f"struct {cname} {{")
        for fname, fspec in (spec.get("fields") or {}).items():
            ftype = self.field_type(fspec, cname + camel(fname))
            fdoc = fspec.get("doc")
            if fdoc:
                lines.append(f"  // {' '.join(str(fdoc).split())}")
            lines.append(f"  {ftype} {fname}{{}};")
        lines.append("  blis::doc::Mark mark_;  // where the mapping was written (not a field: fields have no trailing _)")
        lines.append("};")
        self.structs.append("\n".join(lines))
        self._visitor(spec, cname)
        self.decls.append(f"bool read(const blis::doc::Node& n, const std::string& field, "
                          f"blis::doc::Diagnostics& d, {cname}& out);")
        self.decls.append(f"void validate(const {cname}& v, const std::string& field, blis::doc::Diagnostics& d);")
        self._object_functions(spec, cname)

    def _visitor(self, spec: dict, cname: str) -> None:
        """for_each_field(v, f): calls f(name, member) for each field in schema order, with the field's
        schema name and a reference to the member as declared (std::optional<T> for an optional field).
        schema/field_walk.h builds the recursive walk on it."""
        fields = spec.get("fields") or {}
        for const in ("", "const "):
            body = "".join(f"\n  f(std::string_view({cpp_str(fname)}), v.{fname});" for fname in fields)
            self.visitors.append(f"template <class F>\nvoid for_each_field({const}{cname}& v, F&& f) {{"
                                 f"\n  (void)v;\n  (void)f;{body}\n}}")

    def jexpr(self, spec: dict, expr: str, hint: str) -> str:
        t = spec["type"]
        if t == "ref":
            cname, unit, tspec = self.resolve_ref(spec["ref"])
            return self.jexpr(tspec, expr, cname)
        if t == "object":
            return f"to_json({expr})"
        if t == "verbatim":
            return f"blis::doc::to_json({expr})"
        if t in ("int", "number") and spec.get("unit"):
            return f"nlohmann::ordered_json({expr}.value())"
        if t == "list":
            item_t = self.cpp_type(spec["items"], hint + "Item")
            return (f"[&] {{ auto a = nlohmann::ordered_json::array(); for (const {item_t}& x : {expr}) "
                    f"a.push_back({self.jexpr(spec['items'], 'x', hint + 'Item')}); return a; }}()")
        if t == "map":
            val_t = self.cpp_type(spec["values"], hint + "Value")
            return (f"[&] {{ auto o = nlohmann::ordered_json::object(); for (const auto& [k, x] : {expr}) "
                    f"o[k] = {self.jexpr(spec['values'], 'x', hint + 'Value')}; (void)sizeof({val_t}*); return o; }}()")
        return f"nlohmann::ordered_json({expr})"

    # --- readers and rules --------------------------------------------------------------------------
    def _id(self) -> str:
        self.counter += 1
        return f"{self.prefix or 'Common'}_{self.counter}"

    def rule_fn(self, spec: dict, ctype: str) -> str | None:
        """A function returning the cause when a converted value breaks spec's rules, or None if none."""
        t = spec["type"]
        body: list[str] = []
        if t in ("string", "text"):
            body.append('  if (v.find_first_not_of(" \\t\\n") == std::string::npos) return "must not be empty";')
            if t == "string":
                body.append('  { const auto a = v.find_first_not_of(" \\t\\n"), b = v.find_last_not_of(" \\t\\n");')
                body.append('    if (v.substr(a, b - a + 1).find(\'\\n\') != std::string::npos) return "must be one line"; }')
            if "pattern" in spec:
                body.append(f"  static const std::regex re({cpp_str(spec['pattern'])}, std::regex::ECMAScript);")
                body.append(f'  if (!std::regex_match(v, re)) return "\'" + v + "\' does not match the pattern " + '
                            f'std::string({cpp_str(spec["pattern"])});')
            if "max_length" in spec:
                body.append(f"  if (v.size() > {int(spec['max_length'])}U) return std::to_string(v.size()) + "
                            f"\" characters, at most {int(spec['max_length'])} allowed\";")
        elif t in ("int", "number"):
            raw = "v.value()" if spec.get("unit") else "v"
            lit = (lambda x: f"std::int64_t{{{int(x)}}}") if t == "int" else (lambda x: repr(float(x)))
            show = (f"std::to_string({raw})" if t == "int" else f"blis::doc::show_number({raw})")
            if "min" in spec:
                body.append(f"  if ({raw} < {lit(spec['min'])}) return {show} + \" is below the minimum {spec['min']}\";")
                if spec.get("exclusive_min"):
                    body.append(f"  if ({raw} == {lit(spec['min'])}) return {show} + \" must be greater than {spec['min']}\";")
            if "max" in spec:
                body.append(f"  if ({raw} > {lit(spec['max'])}) return {show} + \" is above the maximum {spec['max']}\";")
        elif t == "enum":
            vals = spec["values"]
            body.append("  static const std::vector<std::string_view> values = {"
                        + ", ".join(cpp_str(x) for x in vals) + "};")
            body.append("  for (auto x : values) if (v == x) return std::nullopt;")
            body.append("  const std::string hint = blis::doc::nearest(v, values);")
            body.append(f'  return "\'" + v + "\' is not one of {", ".join(vals)}" + '
                        f'(hint.empty() ? std::string() : " (did you mean \'" + hint + "\'?)");')
        elif t in ("list", "map"):
            if "min_items" in spec:
                body.append(f"  if (v.size() < {int(spec['min_items'])}U) return \"needs at least {spec['min_items']} item(s)\";")
            if "max_items" in spec:
                body.append(f"  if (v.size() > {int(spec['max_items'])}U) return \"at most {spec['max_items']} item(s) allowed\";")
            if t == "map" and spec.get("keys", {}).get("pattern"):
                pat = spec["keys"]["pattern"]
                body.append(f"  static const std::regex re({cpp_str(pat)}, std::regex::ECMAScript);")
                body.append("  for (const auto& [k, x] : v) { (void)x; if (!std::regex_match(k, re)) "
                            f"return \"key '\" + k + \"' does not match the pattern \" + std::string({cpp_str(pat)}); }}")
        if not body:
            return None
        key = (json.dumps(spec, sort_keys=True), ctype)
        if key in self._rcache:
            return self._rcache[key]
        name = f"rule_{self._id()}"
        self._rcache[key] = name
        self.defs.append(f"[[maybe_unused]] std::optional<std::string> {name}(const {ctype}& v) {{\n" + "\n".join(body)
                         + "\n  return std::nullopt;\n}")
        return name

    def reader(self, spec: dict, ctype: str, hint: str) -> str:
        """Returns the name of a function `bool f(const Node&, const string& field, Diagnostics&, T&)`."""
        t = spec["type"]
        if t == "object":
            return "read"
        if t == "ref":
            cname, unit, tspec = self.resolve_ref(spec["ref"])
            if tspec["type"] == "object":
                return "read"
            return self.reader(tspec, ctype, hint)  # a named scalar/list type: its rules, inlined here
        name = f"read_{self._id()}"
        rule = self.rule_fn(spec, ctype)
        body = []
        if t in ("string", "text", "enum"):
            body.append("  if (!blis::doc::to_string(n, f, d, out)) return false;")
        elif t == "bool":
            body.append("  if (!blis::doc::to_bool(n, f, d, out)) return false;")
        elif t in ("int", "number"):
            raw = "std::int64_t" if t == "int" else "double"
            conv = "to_int" if t == "int" else "to_number"
            body.append(f"  {raw} raw{{}};")
            body.append(f"  if (!blis::doc::{conv}(n, f, d, raw)) return false;")
            body.append(f"  out = {ctype}{{raw}};" if spec.get("unit") else "  out = raw;")
        elif t == "verbatim":
            body.append("  (void)f;\n  (void)d;\n  out = n;")
        elif t == "list":
            item_t = self.cpp_type(spec["items"], hint + "Item")
            item_r = self.reader(spec["items"], item_t, hint + "Item")
            body += ["  if (!n.is_sequence()) { d.add(n.mark, f, std::string(\"expected a list, got \") + "
                     "blis::doc::kind_name(n)); return false; }",
                     "  bool ok = true;",
                     "  out.clear();",
                     "  for (std::size_t i = 0; i < n.items.size(); ++i) {",
                     f"    out.emplace_back();",
                     "    const std::string fi = f + \"[\" + std::to_string(i) + \"]\";",
                     self._null_guard("n.items[i]", "fi"),
                     f"    ok = {item_r}(n.items[i], fi, d, out.back()) && ok;",
                     "  }",
                     "  if (!ok) return false;"]
        elif t == "map":
            val_t = self.cpp_type(spec["values"], hint + "Value")
            val_r = self.reader(spec["values"], val_t, hint + "Value")
            body += ["  if (!n.is_map()) { d.add(n.mark, f, std::string(\"expected a mapping, got \") + "
                     "blis::doc::kind_name(n)); return false; }",
                     "  bool ok = true;",
                     "  out.clear();",
                     "  for (const auto& [k, v] : n.entries) {",
                     f"    auto& slot = out[k.scalar];",
                     "    const std::string fk = f + \".\" + k.scalar;",
                     self._null_guard("v", "fk"),
                     f"    ok = {val_r}(v, fk, d, slot) && ok;",
                     "  }",
                     "  if (!ok) return false;"]
        if rule:
            body.append(f"  if (auto cause = {rule}(out)) {{ d.add(n.mark, f, *cause); return false; }}")
        body.append("  return true;")
        self.defs.append(f"[[maybe_unused]] bool {name}(const blis::doc::Node& n, const std::string& f, blis::doc::Diagnostics& d, "
                         f"{ctype}& out) {{\n" + "\n".join(body) + "\n}")
        return name

    @staticmethod
    def _null_guard(node: str, field: str) -> str:
        """A list item or map value written as null is refused (only fields may be nullable)."""
        return f"    if ({node}.is_null()) {{ d.add({node}.mark, {field}, \"null is not allowed here\"); ok = false; continue; }}"

    @staticmethod
    def _access(fname: str, fspec: dict) -> tuple[list[str], str]:
        """The conditions under which field fname holds a value, and the expression that reads it."""
        access, conds = f"v.{fname}", []
        for layer in ("required", "nullable"):
            wrapped = not fspec.get("required") if layer == "required" else fspec.get("nullable")
            if wrapped:
                conds.append(access)
                access = f"(*{access})"
        return conds, access

    def validator(self, spec: dict, ctype: str, hint: str) -> str | None:
        """Returns a function `void f(const T&, const string& field, Mark, Diagnostics&)` or None."""
        t = spec["type"]
        if t == "object":
            return "validate_at"
        if t == "ref":
            cname, unit, tspec = self.resolve_ref(spec["ref"])
            return "validate_at" if tspec["type"] == "object" else self.validator(tspec, ctype, hint)
        key = (json.dumps(spec, sort_keys=True), ctype)
        if key in self._vcache:
            return self._vcache[key]
        rule = self.rule_fn(spec, ctype)
        body = []
        if rule:
            body.append(f"  if (auto cause = {rule}(v)) d.add(at, f, *cause);")
        if t == "list":
            iv = self.validator(spec["items"], self.cpp_type(spec["items"], hint + "Item"), hint + "Item")
            if iv:
                body.append(f"  for (std::size_t i = 0; i < v.size(); ++i) {iv}(v[i], f + \"[\" + std::to_string(i) + \"]\", at, d);")
        if t == "map":
            vv = self.validator(spec["values"], self.cpp_type(spec["values"], hint + "Value"), hint + "Value")
            if vv:
                body.append(f"  for (const auto& [k, x] : v) {vv}(x, f + \".\" + k, at, d);")
        if not body:
            self._vcache[key] = None
            return None
        name = f"check_{self._id()}"
        self.defs.append(f"[[maybe_unused]] void {name}(const {ctype}& v, const std::string& f, blis::doc::Mark at, "
                         f"blis::doc::Diagnostics& d) {{\n" + "\n".join(body) + "\n}")
        self._vcache[key] = name
        return name

    def _object_functions(self, spec: dict, cname: str) -> None:
        fields = spec.get("fields") or {}
        known = ", ".join(cpp_str(f) for f in fields)
        body = ["  out.mark_ = n.mark;",
                "  if (!n.is_map()) { d.add(n.mark, field, std::string(\"expected a mapping, got \") + "
                "blis::doc::kind_name(n)); return false; }",
                f"  static const std::vector<std::string_view> known = {{{known}}};",
                "  bool ok = true;"]
        for fname in fields:
            body.append(f"  [[maybe_unused]] bool seen_{fname} = false;")
        body.append("  for (const auto& [k, v] : n.entries) {")
        body.append("    const std::string f = field.empty() ? k.scalar : field + \".\" + k.scalar;")
        for fname, fspec in fields.items():
            hint = cname + camel(fname)
            inner_t = self.cpp_type(fspec, hint)
            r = self.reader(fspec, inner_t, hint)
            body.append(f"    if (k.scalar == {cpp_str(fname)}) {{")
            body.append(f"      seen_{fname} = true;")
            target = f"out.{fname}"
            if not fspec.get("required"):
                body.append(f"      {target}.emplace();")
                target = f"(*{target})"
            if fspec.get("nullable"):
                body.append(f"      if (v.is_null()) continue;")
                body.append(f"      {target}.emplace();")
                target = f"(*{target})"
            else:
                body.append(f"      if (v.is_null()) {{ d.add(v.mark, f, \"null is not allowed here\"); ok = false; continue; }}")
            body.append(f"      ok = {r}(v, f, d, {target}) && ok;")
            body.append("      continue;")
            body.append("    }")
        body.append("    const std::string hint = blis::doc::nearest(k.scalar, known);")
        body.append("    d.add(k.mark, field, \"unknown key '\" + k.scalar + \"'\" + "
                    "(hint.empty() ? std::string() : \" (did you mean '\" + hint + \"'?)\"));")
        body.append("    ok = false;")
        body.append("  }")
        for fname, fspec in fields.items():
            if fspec.get("required"):
                body.append(f"  if (!seen_{fname}) {{ d.add(n.mark, field, \"missing required key '{fname}'\"); ok = false; }}")
        if spec.get("one_of"):
            cnt = " + ".join(f"int(seen_{f})" for f in fields)
            body.append(f"  if (({cnt}) != 1) {{ d.add(n.mark, field, \"exactly one of {', '.join(fields)} must be given, "
                        f"found \" + std::to_string({cnt})); ok = false; }}")
        body.append("  return ok;")
        self.defs.append(f"bool read(const blis::doc::Node& n, const std::string& field, blis::doc::Diagnostics& d, "
                         f"{cname}& out) {{\n" + "\n".join(body) + "\n}")
        # validate(): the same rules on a value built in memory (SIM-11).
        vb = []
        for fname, fspec in fields.items():
            hint = cname + camel(fname)
            inner_t = self.cpp_type(fspec, hint)
            vfn = self.validator(fspec, inner_t, hint)
            path = f"(field.empty() ? std::string({cpp_str(fname)}) : field + \".{fname}\")"
            conds, access = self._access(fname, fspec)
            if vfn:
                call = f"{vfn}({access}, {path}, v.mark_, d);"
                vb.append(f"  if ({' && '.join(conds)}) {call}" if conds else f"  {call}")
        if spec.get("one_of"):
            cnt = " + ".join(f"int(v.{f}.has_value())" for f in fields)
            vb.append(f"  if (({cnt}) != 1) d.add(v.mark_, field, \"exactly one of {', '.join(fields)} must be given, "
                      f"found \" + std::to_string({cnt}));")
        self.defs.append(f"void validate_at(const {cname}& v, const std::string& field, blis::doc::Mark, "
                         f"blis::doc::Diagnostics& d) {{\n  (void)v;\n  (void)field;\n  (void)d;\n" + "\n".join(vb) + ("\n" if vb else "") + "}")
        self.defs.append(f"void validate(const {cname}& v, const std::string& field, blis::doc::Diagnostics& d) {{\n"
                         f"  validate_at(v, field, v.mark_, d);\n}}")
        self.decls.append(f"void validate_at(const {cname}& v, const std::string& field, blis::doc::Mark at, "
                          f"blis::doc::Diagnostics& d);")
        # to_json(): the document back as JSON, fields in schema order, absent fields omitted.
        wb = ["  nlohmann::ordered_json j = nlohmann::ordered_json::object();"]
        for fname, fspec in fields.items():
            hint = cname + camel(fname)
            conds, access = self._access(fname, {"required": fspec.get("required")})  # null is written as null
            expr = self.jexpr(fspec, access, hint)
            if fspec.get("nullable"):
                expr = f"({access} ? nlohmann::ordered_json({self.jexpr(fspec, '(*' + access + ')', hint)}) : nlohmann::ordered_json(nullptr))"
            line = f"j[{cpp_str(fname)}] = {expr};"
            wb.append(f"  if ({' && '.join(conds)}) {line}" if conds else f"  {line}")
        wb.append("  return j;")
        self.defs.append(f"nlohmann::ordered_json to_json(const {cname}& v) {{\n" + "\n".join(wb) + "\n}")
        self.decls.append(f"nlohmann::ordered_json to_json(const {cname}& v);")


HEADER = """// Generated by blis-gen from {src}; do not edit (edit the schema and rebuild).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/doc/diagnostics.h"
#include "contracts/doc/json.h"
#include "contracts/doc/node.h"
#include "contracts/label.h"
#include "contracts/units.h"
{includes}
namespace blis::schema {{

{body}

}}  // namespace blis::schema
"""

SOURCE = """// Generated by blis-gen from {src}; do not edit (edit the schema and rebuild).
#include "schema/{name}.h"

#include <regex>

#include "contracts/doc/scalars.h"

namespace blis::schema {{
namespace {{

{forward}

}}  // namespace

{defs}

}}  // namespace blis::schema
"""


def _split_defs(unit: Unit) -> tuple[list[str], list[str]]:
    """Internal helpers (rule_/read_/check_) go in an anonymous namespace; read/validate are public."""
    internal, public = [], []
    for d in unit.defs:
        head = d.split("(", 1)[0].replace("[[maybe_unused]] ", "")
        (public if head.split()[-1] in ("read", "validate", "validate_at", "to_json") else internal).append(d)
    return internal, public


def emit_unit(unit: Unit, name: str, src: str, includes: str) -> tuple[str, str]:
    body = "\n\n".join(unit.aliases + unit.structs + ["\n".join(unit.decls)] + unit.visitors)
    header = HEADER.format(src=src, includes=includes, body=body)
    internal, public = _split_defs(unit)
    # Internal functions may call each other in any order: declare them all first.
    forward = "\n".join(d.split("{", 1)[0].rstrip() + ";" for d in internal)
    source = SOURCE.format(src=src, name=name, forward=forward + "\n\n" + "\n\n".join(internal),
                           defs="\n\n".join(public))
    return header, source


def emit_all(schemas: dict[str, Schema], common: Schema | None) -> dict[str, str]:
    """Returns {relative output path: text} for every generated C++ file."""
    out: dict[str, str] = {}
    cu = None
    if common is not None:
        cu = Unit(common, "", None)
        h, s = emit_unit(cu, "common", "schemas/common.yaml", "")
        out["schema/common.h"], out["schema/common.cpp"] = h, s
    units: dict[str, Unit] = {}
    for name in kind_order(schemas):  # a kind after the kinds it refers to
        schema = schemas[name]
        u = Unit(schema, camel(name), cu, {k: units[k] for k in schema.kinds})
        root_spec = dict(schema.root)
        root_spec["doc"] = schema.doc
        u._struct(root_spec, camel(name))
        u.decls.append(load_function(name))
        kind_includes = "".join(f'#include "schema/{k}.h"\n' for k in sorted(schema.kind_refs))
        h, s = emit_unit(u, name, _rel(schema.path),
                         ('#include "schema/common.h"\n' if cu else "") + '#include "contracts/doc/kinds.h"\n'
                         + kind_includes)
        out[f"schema/{name}.h"], out[f"schema/{name}.cpp"] = h, s
        units[name] = u
    out["schema/field_walk.h"] = FIELD_WALK
    return dict(sorted(out.items()))


def _rel(path: str) -> str:
    i = path.rfind("schemas/")
    return path[i:] if i >= 0 else path


KINDS = """// Generated by blis-gen from schemas/; do not edit.
#include <array>

#include "contracts/doc/kinds.h"
{includes}

namespace blis::doc {{
namespace {{

{checks}

const std::array<KindInfo, {n}> kTable = {{{{
{rows}
}}}};

}}  // namespace

std::span<const KindInfo> kinds() {{ return kTable; }}

}}  // namespace blis::doc
"""


def emit_kinds(schemas: dict[str, Schema], json_texts: dict[str, str]) -> str:
    includes, checks, rows = [], [], []
    for name, schema in sorted(schemas.items()):
        c = camel(name)
        includes.append(f'#include "schema/{name}.h"')
        checks.append(f"bool check_{c}(const Node& n, Diagnostics& d) {{\n"
                      f"  blis::schema::{c} x;\n  return blis::schema::read(n, \"\", d, x);\n}}\n\n"
                      f"bool round_trip_{c}(const Node& n, Diagnostics& d, nlohmann::ordered_json& out) {{\n"
                      f"  blis::schema::{c} x;\n  if (!blis::schema::read(n, \"\", d, x)) return false;\n"
                      f"  out = blis::schema::to_json(x);\n  return true;\n}}")
        js = json_texts[f"schemas/json/{name}.json"]
        if ")blis\"" in js:
            raise GenError(f"{schema.path}: the JSON Schema holds the raw-string delimiter")
        doc = " ".join(str(schema.doc).split())
        rows.append(f"  KindInfo{{{cpp_str(name)}, {cpp_str(_rel(schema.path))}, {cpp_str(doc)}, "
                    f"{'true' if schema.aliases == 'allowed' else 'false'}, R\"blis({js})blis\", &check_{c}, &round_trip_{c}}},")
    return KINDS.format(includes="\n".join(includes), checks="\n\n".join(checks), n=len(rows), rows="\n".join(rows))


def load_function(name: str) -> str:
    c = camel(name)
    fn = name.replace("-", "_")
    return (f"// Loads one {name} document (file:line:col refusals in d).\n"
            f"inline std::optional<{c}> load_{fn}(std::string_view text, std::string_view path, "
            f"blis::doc::Diagnostics& d) {{\n  return blis::doc::load_as<{c}>({cpp_str(name)}, text, path, d);\n}}")


# The recursive walk over the for_each_field overloads every generated struct has (schema/<kind>.h). One
# fixed text, generated beside the types it walks so that src/contracts may include it (X7: contracts
# include only contracts and generated types).
FIELD_WALK = """// Generated by blis-gen (gen/blisgen/emit_schema_cpp.py); do not edit.
// The field walk over generated schema types. Every generated struct S has
//   template <class F> void for_each_field(S& v, F&& f);        // and a const S& overload
// which calls f(std::string_view name, Member& member) for each field in schema order, member as declared
// (std::optional<T> for an optional field). The walk below recurses through it: into present optionals,
// every list item and every map value, so a test can enumerate and perturb every field of a document.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace blis::schema {
namespace walk_detail {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_map : std::false_type {};
template <class V, class C, class A>
struct is_map<std::map<std::string, V, C, A>> : std::true_type {};

struct Probe {
  template <class X>
  void operator()(std::string_view, X&) const {}
};

}  // namespace walk_detail

// A generated schema struct (found by argument-dependent lookup of its for_each_field overloads).
template <class T>
concept SchemaStruct = requires(T& v) { for_each_field(v, walk_detail::Probe{}); };

namespace walk_detail {

// T without its std::optional layers, list and map wrappers: the type a field finally holds.
template <class T>
struct innermost {
  using type = T;
};
template <class T>
struct innermost<std::optional<T>> : innermost<T> {};
template <class T, class A>
struct innermost<std::vector<T, A>> : innermost<T> {};
template <class V, class C, class A>
struct innermost<std::map<std::string, V, C, A>> : innermost<V> {};

}  // namespace walk_detail

// Whether a member (as for_each_field gives it) is an optional field, std::optional<T>: absent when empty.
template <class T>
inline constexpr bool is_optional_v = walk_detail::is_optional<std::remove_const_t<T>>::value;

// A leaf field holds no struct at any depth: a scalar, a unit quantity, a string, a verbatim node, or an
// optional, list or map of those. The walk reports every field; a leaf is where it stops.
template <class T>
inline constexpr bool is_leaf_field_v =
    !SchemaStruct<std::remove_const_t<typename walk_detail::innermost<std::remove_const_t<T>>::type>>;

template <class T, class F>
void walk_fields(T& v, F&& f, const std::string& prefix = {});

namespace walk_detail {

inline std::string join(const std::string& prefix, std::string_view name) {
  return prefix.empty() ? std::string(name) : prefix + "." + std::string(name);
}

template <class X, class F>
void descend(X& x, F& f, const std::string& path) {
  using T = std::remove_const_t<X>;
  if constexpr (is_optional<T>::value) {
    if (x) descend(*x, f, path);
  } else if constexpr (is_vector<T>::value) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      auto&& item = x[i];
      descend(item, f, path + "[" + std::to_string(i) + "]");
    }
  } else if constexpr (is_map<T>::value) {
    for (auto& [key, value] : x) descend(value, f, path + "." + key);
  } else if constexpr (SchemaStruct<X>) {
    walk_fields(x, f, path);
  }
}

template <class X>
void fill(X& x, const std::string& key) {
  using T = std::remove_const_t<X>;
  if constexpr (is_optional<T>::value) {
    if (!x) x.emplace();
    fill(*x, key);
  } else if constexpr (is_vector<T>::value) {
    if (x.empty()) x.emplace_back();
    for (auto& item : x) fill(item, key);
  } else if constexpr (is_map<T>::value) {
    if (x.empty()) x.emplace(key, typename T::mapped_type{});
    for (auto& [k, value] : x) fill(value, key);
  } else if constexpr (SchemaStruct<T>) {
    for_each_field(x, [&](std::string_view, auto& field) { fill(field, key); });
  }
}

}  // namespace walk_detail

// Calls f(const std::string& path, Member& member) for every field of v and, depth first, of every struct
// under it (through present optionals, list items and map values), in schema order. The path names the
// field as the readers' diagnostics do: "layers[0].kernel.library", a map value as "field.key".
template <class T, class F>
void walk_fields(T& v, F&& f, const std::string& prefix) {
  for_each_field(v, [&](std::string_view name, auto& field) {
    const std::string path = walk_detail::join(prefix, name);
    f(path, field);
    walk_detail::descend(field, f, path);
  });
}

// Makes every field of v present at every depth: engages each optional (with a value-initialised one),
// gives each empty list one item and each empty map one entry under `key`. The result is the schema's
// whole shape, for enumerating every field; it is not a valid document.
template <class T>
void fill_all(T& v, const std::string& key = "key") {
  walk_detail::fill(v, key);
}

}  // namespace blis::schema
"""
