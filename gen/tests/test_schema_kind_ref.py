"""A ref naming another document kind (`ref: <kind>`) and the field visitor every generated struct gets:
the holder compiles to the other kind's own C++ type and sees its types; unknown kinds, cycles and
clashing type names are refused; every field of every struct is enumerated by for_each_field."""
from __future__ import annotations

import json
import os
import re

from .test_schema_docs import DemoSchemaRoot, run

HOLDER = """name: holder
doc: A document that holds a demo document.
types:
  Wrap:
    type: object
    fields:
      level: {type: ref, ref: Level, doc: A type of the held kind.}
type: object
fields:
  inner: {type: ref, ref: demo, doc: The held document.}
  wrap: {type: ref, ref: Wrap, doc: A wrapper.}
  many: {type: list, items: {type: ref, ref: demo}, doc: Several.}
"""


class KindRef(DemoSchemaRoot):

    def write(self, rel: str, text: str) -> None:
        path = os.path.join(self.root, "schemas", rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def add_holder(self, text: str = HOLDER, example: str = "inner: {name: H100-SXM}\n") -> None:
        self.write("docs/holder.yaml", text)
        self.write("examples/holder/a.yaml", example)

    def emit(self) -> tuple[int, str, dict[str, str]]:
        out = os.path.join(self.tmp, "out")
        r = run("emit-schemas", "--root", self.root, "-o", out)
        texts = {}
        if r.returncode == 0:
            for f in os.listdir(out):
                with open(os.path.join(out, f), encoding="utf-8") as fh:
                    texts[f] = fh.read()
        return r.returncode, r.stderr, texts

    def test_a_kind_ref_compiles_to_the_held_kinds_own_type(self):
        self.add_holder()
        rc, err, out = self.emit()
        self.assertEqual(rc, 0, err)
        self.assertIn('#include "schema/demo.h"', out["holder.h"])
        self.assertIn("std::optional<Demo> inner{};", out["holder.h"])
        self.assertIn("std::optional<std::vector<Demo>> many{};", out["holder.h"])
        self.assertIn("std::optional<DemoLevel> level{};", out["holder.h"])  # the held kind's type, by its own name
        self.assertNotIn("struct HolderDemo", out["holder.h"])
        cases = os.path.join(self.tmp, "cases.json")
        r = run("emit-schema-cases", "--root", self.root, "-o", cases)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(cases, encoding="utf-8") as f:
            names = [c["name"] for c in json.load(f) if c["kind"] == "holder"]
        self.assertIn("holder/min/inner.count/refused", names)  # the held kind's rules, reached through the ref

    def test_the_json_schema_holds_the_kind_and_its_types_as_defs(self):
        self.add_holder()
        import sys
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from blisgen import emit_jsonschema
        from blisgen.schema import load_schemas
        js = json.loads(emit_jsonschema.emit_all(load_schemas(os.path.join(self.root, "schemas")))["schemas/json/holder.json"])
        self.assertEqual(js["properties"]["inner"]["$ref"], "#/$defs/demo")
        self.assertIn("Level", js["$defs"])
        self.assertIn("CitedBytes", js["$defs"])

    def test_an_unknown_kind_is_refused_naming_the_known_ones(self):
        self.add_holder(HOLDER.replace("ref: demo, doc: The held", "ref: demox, doc: The held"))
        rc, err, _ = self.emit()
        self.assertEqual(rc, 1)
        self.assertIn("ref 'demox' names no document kind (known: demo, holder)", err)

    def test_a_cycle_of_kind_refs_is_refused(self):
        self.add_holder()
        path = os.path.join(self.root, "schemas", "docs", "demo.yaml")
        with open(path, "a", encoding="utf-8") as f:
            f.write("  back: {type: ref, ref: holder, doc: A cycle.}\n")
        rc, err, _ = self.emit()
        self.assertEqual(rc, 1)
        self.assertIn("kind refs form a cycle", err)

    def test_a_type_name_clashing_with_the_held_kinds_is_refused(self):
        self.add_holder("name: holder\ndoc: A holder with its own Level.\ntypes:\n"
                        "  Level: {type: enum, values: [a]}\ntype: object\nfields:\n"
                        "  inner: {type: ref, ref: demo, doc: Held.}\n  lvl: {type: ref, ref: Level, doc: Mine.}\n")
        rc, err, _ = self.emit()
        self.assertEqual(rc, 1)
        self.assertIn("type name 'Level' is defined by this file and by kind 'demo'", err)

    def test_a_kind_ref_outside_the_schema_tree_is_refused(self):
        self.add_holder("name: holder\ndoc: Holds a demo.\ntype: object\nfields:\n"
                        "  inner: {type: ref, ref: demo, doc: Held.}\n")
        import sys
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from blisgen.schema import Schema
        from blisgen.yamlnodes import GenError
        with self.assertRaises(GenError) as e:
            Schema(os.path.join(self.root, "schemas", "docs", "holder.yaml"),
                   Schema(os.path.join(self.root, "schemas", "common.yaml")))
        self.assertIn("unknown type 'demo'", str(e.exception))
        self.assertIn("a document kind is resolved only among all schemas", str(e.exception))


class FieldVisitor(DemoSchemaRoot):

    def test_every_struct_enumerates_every_field_in_schema_order(self):
        out = os.path.join(self.tmp, "out")
        r = run("emit-schemas", "--root", self.root, "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "demo.h"), encoding="utf-8") as f:
            header = f.read()
        structs = dict(re.findall(r"struct (\w+) \{\n(.*?)\n\};", header, re.S))
        self.assertIn("Demo", structs)
        for name, body in structs.items():
            members = re.findall(r"^  \S.* (\w+)\{\};$", body, re.M)
            for const in ("", "const "):
                m = re.search(rf"void for_each_field\({const}{name}& v, F&& f\) \{{\n(.*?)\n\}}", header, re.S)
                self.assertIsNotNone(m, f"{const}{name}")
                visited = re.findall(r'f\(std::string_view\("(\w+)"\), v\.(\w+)\);', m.group(1))
                self.assertEqual([a for a, b in visited], members, name)
                self.assertEqual([b for a, b in visited], members, name)
        self.assertTrue(os.path.exists(os.path.join(out, "field_walk.h")))
