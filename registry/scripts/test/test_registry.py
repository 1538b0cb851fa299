"""Tests of the registry's writer framework, the floor writer and the validators (registry/README.md).

Every validator rule has a known-bad input under fixtures/cases/<rule>.bad.yaml that it must refuse and
its closest accepted twin, <rule>.good.yaml, that it must accept, both added to a small fixture tree
(fixtures/tree: two invented chips, a few families) whose floor the test writes first.
"""
from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)

import check_registry as cr  # noqa: E402
import write_floor  # noqa: E402
import writer  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures")
CASES = os.path.join(FIXTURES, "cases")
REAL_FAMILIES = os.path.join(cr.CODE_ROOT, "registry", "families.yaml")

# rule -> (where the case file goes, the invariant its refusal names, a fragment of the message)
RULES = {
    "one-method": ("registry/sets/extra/gemm.yaml", "VAL-1", "exactly one of"),
    "value-not-charged": ("registry/sets/extra/gemm.yaml", "VAL-1", "not_charged and so has no value"),
    "cite-key": ("registry/sets/extra/gemm.yaml", "VAL-1", "not a key of the file's sources"),
    "vendor-kind": ("registry/sets/extra/gemm.yaml", "VAL-1", "cites a source of kind paper"),
    "roofline-fact": ("registry/sets/extra/gemm.yaml", "VAL-1", "rerun the writer"),
    "identity": ("registry/sets/extra/gemm.yaml", "VAL-4", "has the identity"),
    "precedence": ("registry/sets/extra/gemm.yaml", "VAL-4", "does not order them"),
    "kernel-overlap": ("registry/sets/extra/gemm.yaml", "VAL-4", "does not order them"),
    "interval": ("registry/sets/extra/gemm.yaml", "VAL-10", "outside its own interval_95"),
    "input-range": ("registry/sets/extra/gemm.yaml", "VAL-10", "not an input of gemm"),
    "range-order": ("registry/sets/extra/gemm.yaml", "VAL-10", "above max"),
    "fitted-kernel": ("registry/sets/extra/gemm.yaml", "D5", "leaves out kernel"),
    "boundary": ("registry/sets/extra/host.step.yaml", "VAL-9", "its formula reads time=host"),
    "efficiency-above-one": ("registry/sets/extra/gemm.yaml", "SUB-5", "is not in (0, 1]"),
    "time-negative": ("registry/sets/extra/host.step.yaml", "SUB-5", "no primitive takes less than no time"),
    "model-scope": ("registry/sets/extra/gemm.yaml", "VAL-7", "missing general form"),
    "workload-keyed": ("registry/sets/extra/moe.expert_imbalance.yaml", "D8", "its scope states a workload"),
    "workload-not-keyed": ("registry/sets/extra/gemm.yaml", "D8", "is not workload-keyed"),
    "unit": ("registry/sets/extra/gemm.yaml", "VAL-1", "declares ratio"),
    "coefficient": ("registry/sets/extra/gemm.yaml", "VAL-2", "is not a coefficient of family gemm"),
    "header": ("registry/sets/extra/gemm.yaml", "SUB-4", "the first line must be"),
    "placement": ("registry/sets/extra/gemm.yaml", "SUB-4", "belongs at registry/sets/extra/gemm.yaml"),
    "chip-unknown": ("registry/sets/extra/gemm.yaml", "VAL-2", "not in catalog/hardware/"),
    "transfer-source": ("registry/sets/extra/gemm.yaml", "VAL-1", "which is not in the registry"),
    "transfer-method": ("registry/sets/extra/gemm.yaml", "VAL-1", "a transfer moves a measured or calibrated value"),
    "acceptance-length": ("registry/acceptance/fixture.yaml", "D8", "exceeds K + 1"),
    "acceptance-rates-count": ("registry/acceptance/fixture.yaml", "D8", "2 rates for K = 3"),
    "acceptance-rates-order": ("registry/acceptance/fixture.yaml", "D8", "increase with position"),
    "acceptance-duplicate": ("registry/acceptance/fixture.yaml", "D8", "held twice in one set"),
}
# The placement case's bad twin sits at the wrong path.
BAD_PATH = {"placement": "registry/sets/extra/other.yaml"}


def quiet(fn, *args, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        rc = fn(*args, **kwargs)
    return rc, out.getvalue()


TEMPLATE: str | None = None  # the fixture tree with its floor written, made once


def setUpModule():
    global TEMPLATE
    TEMPLATE = tempfile.mkdtemp(prefix="blis-registry-template-")
    shutil.copytree(os.path.join(FIXTURES, "tree"), TEMPLATE, dirs_exist_ok=True)
    rc, out = quiet(writer.run, write_floor.__file__, write_floor.produce, True, ["--root", TEMPLATE])
    assert rc == 0, out


def tearDownModule():
    shutil.rmtree(TEMPLATE)


class Tree:
    """A temporary copy of the fixture tree with its floor written."""

    def __init__(self, test: unittest.TestCase, families: str | None = None):
        self.root = tempfile.mkdtemp(prefix="blis-registry-")
        test.addCleanup(shutil.rmtree, self.root)
        if families:
            shutil.copytree(os.path.join(FIXTURES, "tree"), self.root, dirs_exist_ok=True)
            shutil.copy(families, self.path("registry/families.yaml"))
            rc, out = self.floor()
            test.assertEqual(rc, 0, out)
        else:
            shutil.copytree(TEMPLATE, self.root, dirs_exist_ok=True)

    def path(self, rel: str) -> str:
        return os.path.join(self.root, rel)

    def floor(self, *args):
        return quiet(writer.run, write_floor.__file__, write_floor.produce, True,
                     ["--root", self.root, *args])

    def add(self, rel: str, text: str):
        os.makedirs(os.path.dirname(self.path(rel)), exist_ok=True)
        with open(self.path(rel), "w", encoding="utf-8") as f:
            f.write(text)

    def read(self, rel: str) -> str:
        with open(self.path(rel), encoding="utf-8") as f:
            return f.read()

    def check(self):
        return cr.check(cr.Registry(self.root))


def case(name: str, twin: str) -> str:
    with open(os.path.join(CASES, f"{name}.{twin}.yaml"), encoding="utf-8") as f:
        return f.read()


class ValidatorRules(unittest.TestCase):
    def test_fixture_floor_is_valid(self):
        errors, notices = Tree(self).check()
        self.assertEqual([str(e) for e in errors], [])
        self.assertEqual(notices, [])

    def test_every_rule_refuses_its_bad_case_and_accepts_its_twin(self):
        for name, (rel, rule, fragment) in RULES.items():
            with self.subTest(rule=name):
                bad = Tree(self)
                bad.add(BAD_PATH.get(name, rel), case(name, "bad"))
                errors, _ = bad.check()
                hits = [e for e in errors if e.rule == rule and fragment in e.message]
                self.assertTrue(hits, f"{name}: expected a {rule} refusal with {fragment!r}; got "
                                      f"{[str(e) for e in errors]}")
                good = Tree(self)
                good.add(rel, case(name, "good"))
                errors, _ = good.check()
                self.assertEqual([str(e) for e in errors], [], f"{name}: the accepted twin was refused")

    def test_every_case_file_is_in_the_table(self):
        names = {f.rsplit(".", 2)[0] for f in os.listdir(CASES)}
        self.assertEqual(names, set(RULES) | {"unidentified"})

    def test_unidentified_is_flagged_not_refused(self):
        for twin, flagged in (("bad", True), ("good", False)):
            t = Tree(self)
            t.add("registry/sets/extra/gemm.yaml", case("unidentified", twin))
            errors, notices = t.check()
            self.assertEqual([str(e) for e in errors], [])
            self.assertEqual(any("unidentified" in n.message and n.rule == "VAL-10" for n in notices), flagged)

    def test_unbounded_interval_is_flagged(self):
        t = Tree(self)
        t.add("registry/sets/extra/gemm.yaml",
              case("unidentified", "good").replace("low: 0.6,", "low: null,"))
        errors, notices = t.check()
        self.assertEqual([str(e) for e in errors], [])
        self.assertTrue(any("unbounded" in n.message for n in notices))

    def test_acceptance_key_in_two_sets_is_ambiguous(self):
        t = Tree(self)
        text = case("acceptance-duplicate", "good")
        t.add("registry/acceptance/fixture.yaml", text)
        t.add("registry/acceptance/other.yaml", text.replace("set: fixture", "set: other"))
        errors, _ = t.check()
        self.assertTrue(any("in two sets (fixture, other)" in e.message for e in errors),
                        [str(e) for e in errors])

    def test_completeness_refuses_a_chip_without_a_floor(self):
        t = Tree(self)
        chip = t.read("catalog/hardware/Chip-A.yaml").replace("Chip-A", "Chip-B")
        t.add("catalog/hardware/Chip-B.yaml", chip)
        errors, _ = t.check()
        missing = [e for e in errors if e.rule == "VAL-2" and "Chip-B" in e.message]
        self.assertTrue(missing, [str(e) for e in errors])
        self.assertTrue(any("gemm.compute_rate {chip=Chip-B, dtype=fp8}" in e.message for e in missing))
        rc, out = t.floor()
        self.assertEqual(rc, 0, out)
        errors, _ = t.check()
        self.assertEqual([str(e) for e in errors], [])

    def test_completeness_refuses_a_removed_entry(self):
        t = Tree(self)
        text = t.read("registry/sets/floor/host.step.yaml")
        start = text.index("- name: host.step.time\n  scope: {chip: Chip-R}")
        t.add("registry/sets/floor/host.step.yaml", text[:start])
        errors, _ = t.check()
        self.assertTrue(any(e.rule == "VAL-2" and "host.step.time {chip=Chip-R}" in e.message for e in errors),
                        [str(e) for e in errors])

    def test_main_exit_status(self):
        t = Tree(self)
        self.assertEqual(quiet(cr.main, ["--root", t.root])[0], 0)
        t.add("registry/sets/extra/gemm.yaml", case("precedence", "bad"))
        rc, out = quiet(cr.main, ["--root", t.root])
        self.assertEqual(rc, 1)
        self.assertIn("registry/sets/extra/gemm.yaml:", out)
        self.assertIn("[registry-validators; VAL-4]", out)


class Precedence(unittest.TestCase):
    """VAL-4: one written order picks one entry whatever the load order, and agrees with the validator."""

    VALUES = {"kernel": {"library": "fixture-lib", "variant": "k", "code_hashes": ["sha256:" + "1" * 64]},
              "chip": "Chip-A", "dtype": "bf16", "model": "fixture/Model-T", "workload": "chat-x",
              "fabric": "Link-F", "span": "node", "group_size": 8, "tp": 8, "ep": 8, "pp": 2, "dp": 2, "cp": 2}

    def entry(self, scope: dict) -> cr.Entry:
        doc = cr.Doc("x.yaml", "coefficient-set", "", None)
        data = {"name": "gemm.compute_efficiency", "scope": scope, "method": {"assumed": {}}}
        return cr.Entry(doc, cr.Value(data, cr.load("x", text="a: 1").loc), data, "extra", "gemm")

    def test_every_pair_of_dimensions_resolves_the_same_in_both_load_orders(self):
        lookup = dict(self.VALUES)
        dims = cr.PRECEDENCE
        for i, a in enumerate(dims):
            for b in dims[i + 1:]:
                ea, eb = self.entry({a: self.VALUES[a]}), self.entry({b: self.VALUES[b]})
                first = cr.resolve([ea, eb], "gemm.compute_efficiency", lookup)[0]
                second = cr.resolve([eb, ea], "gemm.compute_efficiency", lookup)[0]
                self.assertIs(first, ea, f"{a} must outrank {b}")
                self.assertIs(second, ea, f"{a} must outrank {b} whatever the load order")
                self.assertTrue(cr.precedes(ea.scope, eb.scope))
                self.assertEqual(cr._check_precedence([ea, eb]), [])

    def test_more_dimensions_do_not_outrank_an_earlier_one(self):
        kernel_only = self.entry({"kernel": self.VALUES["kernel"]})
        many = self.entry({k: self.VALUES[k] for k in cr.PRECEDENCE[1:]})
        self.assertIs(cr.resolve([many, kernel_only], "gemm.compute_efficiency", dict(self.VALUES))[0],
                      kernel_only)

    def test_rank_comes_before_scope(self):
        roof = self.entry({"chip": "Chip-A"})
        roof.data["method"] = {"roofline": {}}
        assumed = self.entry({"kernel": self.VALUES["kernel"], "chip": "Chip-A"})
        self.assertIs(cr.resolve([assumed, roof], "gemm.compute_efficiency", dict(self.VALUES))[0], roof)

    def test_precedence_is_the_schema_scope_order(self):
        scope = cr.registry_schemas()["coefficient-set"].types["Scope"]["fields"]
        self.assertEqual(list(scope), cr.PRECEDENCE)

    def test_unordered_pair_is_refused(self):
        a = self.entry({"chip": "Chip-A", "tp": 8})
        b = self.entry({"chip": "Chip-A", "tp": 8})
        b.set = "other"
        self.assertEqual(len(cr._check_precedence([a, b])), 1)
        c = self.entry({"chip": "Chip-A", "tp": 4})  # never both answer one lookup
        self.assertEqual(cr._check_precedence([a, c]), [])


class Writers(unittest.TestCase):
    def test_fixture_floor_contents(self):
        t = Tree(self)
        files = sorted(os.listdir(t.path("registry/sets/floor")))
        self.assertEqual(files, ["collective.all_reduce.yaml", "copy.host_to_device.yaml", "gemm.yaml",
                                 "host.step.yaml", "moe.expert_imbalance.yaml"])
        entries = cr.Registry(t.root).entries()
        self.assertEqual(len(entries), 24)
        spans = sorted(e.scope.get("span") for e in entries
                       if e.name == "collective.all_reduce.link_rate" and e.scope["chip"] == "Chip-R")
        self.assertEqual(spans, ["fabric", "node", "rack"])
        imbalance = [e for e in entries if e.family == "moe.expert_imbalance"]
        self.assertEqual([(e.scope, e.method, e.data["value"]) for e in imbalance], [({}, "assumed", 1.0)])
        self.assertTrue(t.read("registry/sets/floor/gemm.yaml").startswith(
            "# written by registry/scripts/write_floor.py; do not edit\n"))

    def test_check_passes_then_names_an_edited_file(self):
        t = Tree(self)
        self.assertEqual(t.floor("--check")[0], 0)
        rel = "registry/sets/floor/gemm.yaml"
        t.add(rel, t.read(rel).replace("value: 1.0", "value: 0.9", 1))
        rc, out = t.floor("--check")
        self.assertEqual(rc, 1)
        self.assertIn(f"{rel}: stale", out)
        self.assertIn("regenerate with: /usr/bin/python3 registry/scripts/write_floor.py", out)
        self.assertEqual(t.floor()[0], 0)
        self.assertEqual(t.floor("--check")[0], 0)

    def test_check_names_a_missing_file_and_an_orphan(self):
        t = Tree(self)
        os.remove(t.path("registry/sets/floor/host.step.yaml"))
        orphan = "registry/sets/floor/zzz.yaml"
        t.add(orphan, "# written by registry/scripts/write_floor.py; do not edit\nset: floor\n")
        rc, out = t.floor("--check")
        self.assertEqual(rc, 1)
        self.assertIn("registry/sets/floor/host.step.yaml: missing", out)
        self.assertIn(f"{orphan}: stale: write_floor.py no longer writes it", out)
        self.assertEqual(t.floor()[0], 0)
        self.assertFalse(os.path.exists(t.path(orphan)))
        self.assertEqual(t.floor("--check")[0], 0)

    def test_check_all_refuses_a_file_no_writer_wrote(self):
        t = Tree(self)
        self.assertEqual(quiet(writer.check_all, t.root)[0], 0)
        t.add("registry/sets/extra/gemm.yaml", case("header", "bad"))
        rc, out = quiet(writer.check_all, t.root)
        self.assertEqual(rc, 1)
        self.assertIn("registry/sets/extra/gemm.yaml:1:1: no writer script wrote it", out)

    def test_output_is_deterministic(self):
        t = Tree(self)
        a, _, _ = writer.build(t.root, "write_floor.py", write_floor.produce, True)

        def shuffled(ctx):
            ctx.chips = dict(reversed(list(ctx.chips.items())))
            outs = list(write_floor.produce(ctx))
            for o in outs:  # a writer's key order changes nothing
                o.body = dict(reversed(list(o.body.items())))
                o.body["entries"] = [dict(reversed(list(e.items()))) for e in o.body["entries"]]
            return outs
        b, _, _ = writer.build(t.root, "write_floor.py", shuffled, True)
        self.assertEqual(a, b)

    def test_invalid_output_is_refused_and_nothing_written(self):
        t = Tree(self)

        def bad(ctx):
            yield writer.coefficient_set("extra", "gemm", [
                {"name": "gemm.compute_efficiency", "scope": {"chip": "Chip-A", "dtype": "bf16"}, "value": 1.0,
                 "unit": "ratio", "boundary": {"time": "device", "execution": "independent"},
                 "method": {"assumed": {"reason": "x", "price_bound": "lower"}, "roofline": {}}}])
        rc, out = quiet(writer.run, os.path.join(SCRIPTS, "write_floor.py"), bad, False, ["--root", t.root])
        self.assertEqual(rc, 1)
        self.assertIn("exactly one of", out)
        self.assertFalse(os.path.exists(t.path("registry/sets/extra/gemm.yaml")))

    def test_missing_catalog_fact_is_not_charged_with_its_reason(self):
        t = Tree(self)
        chip = t.read("catalog/hardware/Chip-A.yaml")
        t.add("catalog/hardware/Chip-A.yaml", chip[:chip.index("host_link:")])
        rc, out = t.floor()
        self.assertEqual(rc, 0, out)
        self.assertIn("notice: not charged: copy.host_to_device.link_rate on Chip-A", out)
        entries = [e for e in cr.Registry(t.root).entries()
                   if e.name == "copy.host_to_device.link_rate" and e.scope == {"chip": "Chip-A"}]
        self.assertEqual([e.method for e in entries], ["not_charged"])
        self.assertIn("states no host_link", entries[0].sources["reason"])
        self.assertEqual(t.check()[0], [])

    def test_the_real_families_all_have_a_floor_rule(self):
        t = Tree(self, families=REAL_FAMILIES)
        errors, _ = t.check()
        self.assertEqual([str(e) for e in errors], [])
        reg = cr.Registry(t.root)
        names = {e.name for e in reg.entries()}
        for fam, spec in reg.families.items():
            for coef in spec["coefficients"]:
                self.assertIn(f"{fam}.{coef}", names)


if __name__ == "__main__":
    unittest.main()
