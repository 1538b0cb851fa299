"""The `label: true` schema attribute (SUB-20): a documentation-only text field is declared as blis::Label,
so the lint blis-label-branch can refuse branching on it; the language allows it on string and text
fields only, and only as true."""
from __future__ import annotations

import os

from .test_schema_docs import DemoSchemaRoot, run


class SchemaLabel(DemoSchemaRoot):
    def header(self) -> str:
        out = os.path.join(self.tmp, "out")
        r = run("emit-schemas", "--root", self.root, "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "demo.h"), encoding="utf-8") as f:
            return f.read()

    def test_a_label_field_is_declared_as_blis_label_and_others_stay_strings(self):
        before = self.header()
        self.assertIn("std::string name{};", before)
        self.edit("  flag: {type: bool, doc: A flag.}",
                  "  flag: {type: bool, doc: A flag.}\n  remark: {type: text, label: true, doc: For people.}")
        after = self.header()
        self.assertIn("std::optional<blis::Label> remark{};", after)
        self.assertIn('#include "contracts/label.h"', after)
        self.assertIn("std::string name{};", after)  # an unmarked string keeps its type

    def test_label_is_refused_on_a_type_that_is_not_text(self):
        self.edit("count: {type: int, min: 1, max: 64, doc: How many.}",
                  "count: {type: int, label: true, min: 1, max: 64, doc: How many.}")
        r = run("emit-schemas", "--root", self.root, "-o", os.path.join(self.tmp, "o"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("attribute 'label' does not apply to type int", r.stderr)

    def test_label_is_true_or_absent(self):
        self.edit("  flag: {type: bool, doc: A flag.}",
                  "  flag: {type: bool, doc: A flag.}\n  remark: {type: text, label: false, doc: For people.}")
        r = run("emit-schemas", "--root", self.root, "-o", os.path.join(self.tmp, "o"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("label is true or absent", r.stderr)

