"""The document-schema compiler: a schema edit regenerates the C++ type, reader, validator, JSON Schema
and refusal cases; the schema language refuses what it cannot compile; cases agree with the validator."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(os.path.dirname(HERE), "blis_gen.py")
FIXTURE = os.path.join(HERE, "fixtures", "docs")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, GEN, *args], capture_output=True, text=True)


class DemoSchemaRoot(unittest.TestCase):
    """A copy of the demo schema tree to edit, per test (shared with test_schema_label)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.root = os.path.join(self.tmp, "root")
        shutil.copytree(FIXTURE, self.root)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def edit(self, old: str, new: str) -> None:
        path = os.path.join(self.root, "schemas", "docs", "demo.yaml")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.assertIn(old, text)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))


class SchemaDocs(DemoSchemaRoot):

    def outputs(self) -> dict[str, str]:
        out_dir = os.path.join(self.tmp, "out")
        r = run("emit-schemas", "--root", self.root, "-o", out_dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        r2 = run("emit-schema-cases", "--root", self.root, "-o", os.path.join(out_dir, "cases.json"))
        self.assertEqual(r2.returncode, 0, r2.stderr)
        sys.path.insert(0, os.path.dirname(GEN))
        from blisgen import emit_jsonschema
        from blisgen.schema import load_schemas
        texts = {}
        for f in sorted(os.listdir(out_dir)):
            with open(os.path.join(out_dir, f), encoding="utf-8") as fh:
                texts[f] = fh.read()
        texts.update(emit_jsonschema.emit_all(load_schemas(os.path.join(self.root, "schemas"))))
        return texts

    def test_an_edit_regenerates_type_reader_validator_json_schema_and_cases(self):
        before = self.outputs()
        self.edit("  flag: {type: bool, doc: A flag.}",
                  "  flag: {type: bool, doc: A flag.}\n  replicas: {type: int, min: 2, doc: Copies.}")
        after = self.outputs()
        self.assertIn("std::optional<std::int64_t> replicas{};", after["demo.h"])       # the type
        self.assertIn('k.scalar == "replicas"', after["demo.cpp"])                     # the reader
        self.assertIn("is below the minimum 2", after["demo.cpp"])                     # the rule
        self.assertIn('"replicas"', after["schemas/json/demo.json"])                   # the JSON Schema
        names = [c["name"] for c in json.loads(after["cases.json"])]
        self.assertIn("demo/min/replicas/refused", names)                               # the refusal pair
        self.assertIn("demo/min/replicas/accepted", names)
        for key in ("demo.h", "demo.cpp", "schemas/json/demo.json", "cases.json", "kinds.cpp"):
            self.assertNotEqual(before[key], after[key], key)

    def test_the_language_refuses_a_unit_on_the_wrong_number_type(self):
        self.edit("count: {type: int, min: 1, max: 64, doc: How many.}",
                  "count: {type: number, unit: bytes, doc: How many.}")
        r = run("emit-schemas", "--root", self.root, "-o", os.path.join(self.tmp, "o"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("unit bytes is an integer quantity: use type int", r.stderr)

    def test_the_flow_mapping_comma_trap_is_refused(self):
        self.edit("doc: How many.}", "doc: How many, roughly.}")
        r = run("emit-schemas", "--root", self.root, "-o", os.path.join(self.tmp, "o"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("attribute 'roughly.' does not apply to type int", r.stderr)

    def test_a_kind_without_an_example_is_refused(self):
        shutil.rmtree(os.path.join(self.root, "schemas", "examples", "demo"))
        r = run("emit-schema-cases", "--root", self.root, "-o", os.path.join(self.tmp, "c.json"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("no example under schemas/examples/demo/", r.stderr)

    def test_a_pattern_field_without_example_cannot_be_synthesised(self):
        self.edit("  flag: {type: bool, doc: A flag.}",
                  "  flag: {type: bool, doc: A flag.}\n  code: {type: string, pattern: '[0-9]{3}', doc: A code.}")
        r = run("emit-schema-cases", "--root", self.root, "-o", os.path.join(self.tmp, "c.json"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("give this pattern field an `example:`", r.stderr)

    def test_an_invalid_example_is_refused_with_its_position(self):
        path = os.path.join(self.root, "schemas", "examples", "demo", "a.yaml")
        with open(path, "a", encoding="utf-8") as f:
            f.write("bogus: 1\n")
        r = run("emit-schema-cases", "--root", self.root, "-o", os.path.join(self.tmp, "c.json"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("a.yaml:13:1: demo: unknown key 'bogus'", r.stderr)

    def test_every_field_is_read_by_some_accepted_case(self):
        cases = json.loads(self.outputs()["cases.json"])
        accepted = [json.loads(c["text"]) for c in cases if c["ok"] and c["path"] == "case.json"]
        seen_keys = set()

        def keys(v):
            if isinstance(v, dict):
                for k, x in v.items():
                    seen_keys.add(k)
                    keys(x)
            elif isinstance(v, list):
                for x in v:
                    keys(x)
        for a in accepted:
            keys(a)
        for field in ("note", "publisher", "revision", "device", "measured", "units", "assumed"):
            self.assertIn(field, seen_keys)


if __name__ == "__main__":
    unittest.main()
