"""Tests of the fitting pipeline on the committed fixture fixtures/aic-small (the shared data are never read here):
units and roles (units.py), the pricing forms (forms.py), the fit writer end to end (write_measured.py)
and the validator rules a fitted curve needs (curve, D1 unit roles, D5 kernel identity).
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)

import aicdata  # noqa: E402
import check_registry as cr  # noqa: E402
import fitcurve  # noqa: E402
import fitfamily as ff  # noqa: E402
import forms  # noqa: E402
import units  # noqa: E402
import write_floor  # noqa: E402
import write_measured  # noqa: E402
import writer  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures")
SMALL = os.path.join(FIXTURES, "aic-small")
CASES = os.path.join(FIXTURES, "fit-cases")
RULES = {  # case -> (invariant, message fragment)
    "curve-axis": ("VAL-10", "curve axis 'tokens' is not an input of gemm"),
    "curve-distinct": ("VAL-10", "appears twice"),
    "curve-points": ("VAL-10", "strictly increasing"),
    "curve-count": ("VAL-10", "3 values for a grid of 4 points"),
    "curve-method": ("VAL-10", "only a measured, calibrated or transferred entry carries a fitted curve"),
    "unit-role": ("D1", "whose role is not fit"),
    "kernel-identity": ("D5", "are not the identities of the units it cites"),
    "efficiency-physics": ("SUB-5", "curve value 3 = 1.2 is not in (0, 1]"),
    "unit-set": ("D1", "whose prefix stops before the end of the sweep key's kernel part"),
}


def quiet(fn, *args, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        rc = fn(*args, **kwargs)
    return rc, out.getvalue()


class Units(unittest.TestCase):
    def test_role_is_the_keyed_rule(self):
        uid = "aic:h100_sxm:gemm/0.24.0/gemm_perf:torch.nn.functional.linear/bf16/n4096/k4096"
        key = "aic:h100_sxm:gemm/gemm_perf:torch.nn.functional.linear/bf16/n4096/k4096"
        self.assertEqual(units.role_key(uid), key)
        v = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") % 100
        want = "fit" if v < 60 else "select" if v < 75 else "validate" if v < 85 else "held"
        self.assertEqual(units.role(uid), want)

    def test_releases_of_one_sweep_share_a_role(self):
        a = "aic:h100_sxm:comm/nccl/2.27.3/nccl_perf:all_reduce/fp16/n8"
        b = "aic:h100_sxm:comm/nccl/2.29.2/nccl_perf:all_reduce/fp16/n8"
        self.assertEqual(units.role_key(a), units.role_key(b))
        self.assertEqual(units.role(a), units.role(b))

    def test_roles_are_roughly_the_stated_shares(self):
        counts = {}
        for i in range(4000):
            r = units.role(f"aic:x:t/1.0/t:k/n{i}")
            counts[r] = counts.get(r, 0) + 1
        for role, share in (("fit", 0.60), ("select", 0.15), ("validate", 0.10), ("held", 0.15)):
            self.assertAlmostEqual(counts[role] / 4000, share, delta=0.03, msg=role)

    def test_units_are_whole_sweeps_and_partition_the_rows(self):
        tables = aicdata.load(SMALL)
        self.assertTrue(tables)
        for t in tables:
            us = t.units()
            self.assertEqual(sum(len(v) for v in us.values()), len(t.rows))
            for uid, rows in us.items():
                fixed = {k: v for k, v in rows[0].inputs.items()}
                if t.family == "gemm":
                    self.assertEqual({(r.inputs["n"], r.inputs["k"]) for r in rows}, {(fixed["n"], fixed["k"])}, uid)
                    self.assertGreater(len({r.inputs["m"] for r in rows}), 1, uid)
                if t.family == "collective.all_reduce":
                    self.assertEqual({r.inputs["group_size"] for r in rows}, {fixed["group_size"]}, uid)
                    self.assertGreater(len({r.inputs["bytes"] for r in rows}), 1, uid)
            # the fixture's tables hold fit and held units (and select units where the table has any)
            self.assertLessEqual({"fit", "held"}, {units.role(u) for u in us}, t.path)


class Forms(unittest.TestCase):
    def test_stored_bytes(self):
        self.assertEqual(forms.stored_bytes(100, "nvfp4"), 50 + 7)
        self.assertEqual(forms.stored_bytes(256, "fp8_block"), 256 + 8)
        self.assertEqual(forms.stored_bytes(3, "bf16"), 6)
        self.assertEqual(forms.stored_bytes(129, "int4_group128"), 65 + 4)
        self.assertEqual(forms.b("nvfp4"), 0.5 + 8 / 128)
        with self.assertRaisesRegex(forms.FormError, "'fp7' is not a known data format"):
            forms.b("fp7")

    def test_curve_interpolates_and_clamps(self):
        c = {"axes": [{"input": "m", "scale": "log2", "points": [0, 2]},
                      {"input": "k", "scale": "linear", "points": [10, 20]}], "values": [1.0, 2.0, 3.0, 4.0]}
        self.assertEqual(forms.curve_value(c, {"m": 2, "k": 15}), 0.5 * 1.5 + 0.5 * 3.5)
        self.assertEqual(forms.curve_value(c, {"m": 64, "k": 100}), 4.0)
        self.assertEqual(forms.curve_value(c, {"m": 1, "k": 0}), 1.0)
        # Below the first point and at zero (an idle rank's count) the low end is held, as in C++ (Curve::at).
        self.assertEqual(forms.curve_value(c, {"m": 0.5, "k": 10}), 1.0)
        self.assertEqual(forms.curve_value(c, {"m": 0, "k": 10}), 1.0)
        with self.assertRaisesRegex(forms.FormError, "negative, and a log2 axis reads it"):
            forms.curve_value(c, {"m": -1, "k": 10})

    def test_a_plain_number_is_a_fixed_coefficient(self):
        self.assertEqual(forms.coefficient(0.5, {"m": 8}), 0.5)
        self.assertEqual(forms.coefficient({"value": 0.25}, {"m": 8}), 0.25)

    def test_gemm_and_collective_times(self):
        fm = {"act": "bf16", "w": "bf16", "out": "bf16"}
        f, b = forms.flops_bytes("gemm", {"m": 2, "n": 3, "k": 4}, fm)
        self.assertEqual((f, b), (48.0, 2 * 4 * 2 + 4 * 3 * 2 + 2 * 3 * 2))
        self.assertEqual(forms.compute_time("gemm", {"m": 2, "n": 3, "k": 4}, fm, 48.0, 1.0, 0.5, 1.0), 52.0)
        self.assertEqual(forms.compute_time("gemm", {"m": 2, "n": 3, "k": 4}, fm, 1.0, 1.0, 0.5, 1.0), 96.0)
        self.assertEqual(forms.compute_time("gemm", {"m": 2, "n": 3, "k": 4}, fm, 1.0, 1.0, 0.5, 1.0, latency=4.0), 100.0)
        self.assertEqual(forms.link_time("collective.all_reduce", {"bytes": 800, "group_size": 4}, 100.0, 0.5, 1.0),
                         1.0 + 2 * 3 / 4 * 800 / 50.0)


class CollectiveLatency(unittest.TestCase):
    """A collective's fixed time grows with its group (nccl-tests: about 6, 9.5 and 16 us for an all-reduce
    of 2, 4 and 8 H200s); one latency for every group size cannot fit the small messages of all three."""

    @staticmethod
    def rows():
        axes = [fitcurve.axis("bytes", 512, 2 ** 28, 2)]
        lat = ff.LatencyModel(True, 2.0, 8.0)
        obs = []
        for n in (2, 4, 8):
            for k in range(9, 29):
                s = 2 ** k
                T = 2.0 * (n - 1) / n * s / 450e9
                t = 4e-6 + 1.5e-6 * (n - 1) + T / 0.8
                obs.append(fitcurve.Obs(forms.corners(axes, {"bytes": s}), T, t, f"u{n}", lat.weights({"group_size": n})))
        return axes, lat, obs

    def test_a_line_in_the_group_size_is_recovered(self):
        axes, lat, obs = self.rows()
        f = fitcurve.fit(fitcurve.Grid(axes), obs, lat.terms)
        a, b = f.latency_terms
        self.assertAlmostEqual(a / 4e-6, 1.0, delta=0.02)
        self.assertAlmostEqual(b / 1.5e-6, 1.0, delta=0.02)
        c = lat.curve(f)
        self.assertEqual(c["axes"], [{"input": "group_size", "scale": "linear", "points": [2.0, 8.0]}])
        # Read back as the cost model reads a curve: the line at every group size between the points.
        self.assertAlmostEqual(forms.curve_value(c, {"group_size": 4}) / (4e-6 + 3 * 1.5e-6), 1.0, delta=0.02)
        worst = max(fitcurve.ape(f.predict(o.corners, o.T, o.lcorners), o.t) for o in obs)
        self.assertLess(worst, 0.02)

    def test_one_latency_for_every_group_misses_the_small_messages(self):
        axes, lat, obs = self.rows()
        one = [fitcurve.Obs(o.corners, o.T, o.t, o.unit) for o in obs]
        f = fitcurve.fit(fitcurve.Grid(axes), one, 1)
        worst = max(fitcurve.ape(f.predict(o.corners, o.T), o.t) for o in one)
        self.assertGreater(worst, 0.2)

    def test_a_single_fitted_group_size_keeps_one_latency(self):
        t = next(t for t in aicdata.load(SMALL) if t.family == "collective.all_reduce")
        rows = [r for r in t.rows if r.inputs["group_size"] == 2]
        self.assertFalse(ff.latency_model(t, rows).per_peer)
        m = ff.latency_model(t, t.rows)
        self.assertTrue(m.per_peer)
        self.assertEqual((m.lo, m.hi), (2.0, 8.0))


class Pipeline(unittest.TestCase):
    """write_measured.py on the fixture: splits, intervals, ranges, and the fit beats the floor on held units."""

    @classmethod
    def setUpClass(cls):
        tables = aicdata.load(SMALL)
        cls.tables = tables
        texts, orphans, errors = writer.build(cr.CODE_ROOT, "write_measured.py", write_measured.produce_from(tables))
        cls.errors = [str(e) for e in errors]
        import yaml
        cls.docs = {rel: yaml.safe_load(t) for rel, t in texts.items()}

    def entries(self, set_name):
        return [e for rel, d in self.docs.items() if d["set"] == set_name for e in d["entries"]]

    def test_the_writer_output_passes_every_validator(self):
        self.assertEqual(self.errors, [])
        self.assertTrue(self.entries("measured"))
        self.assertTrue(self.entries("transferred"))

    def test_fitted_entries_cite_only_their_fit_units_with_interval_and_range(self):
        rates = ff.Rates(cr.CODE_ROOT)
        every = {r.unit for t in self.tables for r in t.rows}
        for t in self.tables:
            want = sorted({r.unit for r in t.rows if units.role(r.unit) == "fit"})
            es = [e for e in self.entries("measured") if t.code_hash() in e["scope"]["kernel"]["code_hashes"]]
            self.assertTrue(es, t.path)
            # the rows fitted: fit units' rows the roofline form can explain (fitfamily.fit_table)
            fit_rows = [r for r in t.rows if units.role(r.unit) == "fit"
                        and ff.T_of(t.family, r, t.chip, t.dtype, rates) <= r.seconds]
            for e in es:
                src = e["method"]["measured"]
                cited = []
                for u in src["data_units"]:
                    cited += sorted(x for x in every if x.startswith(u[:-1]) and units.role(x) == "fit") \
                        if u.endswith("*") else [u]
                self.assertEqual(sorted(cited), want)
                iv = src["interval_95"]
                self.assertLessEqual(iv["low"], e["value"])
                self.assertLessEqual(e["value"], iv["high"])
                self.assertLess(iv["low"], iv["high"])
                for name, rng in src["input_range"].items():
                    vals = [r.inputs[name] for r in fit_rows]
                    self.assertEqual((rng["min"], rng["max"]), (min(vals), max(vals)), name)

    def test_fit_beats_the_floor_on_held_units(self):
        rates = ff.Rates(cr.CODE_ROOT)
        for t in self.tables:
            eff = [e for e in self.entries("measured") if t.code_hash() in e["scope"]["kernel"]["code_hashes"]
                   and e["name"].endswith(("compute_efficiency", "link_efficiency"))][0]
            lat = [e for e in self.entries("measured") if t.code_hash() in e["scope"]["kernel"]["code_hashes"]
                   and e["name"].endswith("latency")]
            held = [r for r in t.rows if units.role(r.unit) == "held"]
            self.assertTrue(held, t.path)

            def err(e, latency):
                out = []
                for r in held:
                    x = forms.coefficient(e, r.inputs)
                    lt = forms.coefficient(latency, r.inputs)
                    if ff.is_link(t.family):
                        p = forms.link_time(t.family, r.inputs, rates.link(t.family, t.chip), x, lt)
                    else:
                        p = forms.compute_time(t.family, r.inputs, r.formats, rates.compute(t.family, t.chip, t.dtype),
                                               rates.memory(t.family, t.chip), x, x, latency=lt)
                    out.append(fitcurve.ape(p, r.seconds))
                return fitcurve.median(out)
            fitted = err(eff, lat[0] if lat else 0.0)
            floor = err(1.0, 0.0)
            self.assertLess(fitted, floor, t.path)

    def test_collective_latencies_grow_with_the_group(self):
        lats = [e for e in self.entries("measured") if e["name"].startswith("collective.") and e["name"].endswith(".latency")]
        self.assertTrue(lats)
        for e in lats:
            c = e["curve"]
            self.assertEqual([a["input"] for a in c["axes"]], ["group_size"], e["scope"])
            self.assertLess(c["values"][0], c["values"][-1], e["scope"])

    def test_transfers_leave_kernel_out_and_name_their_source(self):
        measured = {(e["name"], json.dumps(e["scope"], sort_keys=True)) for e in self.entries("measured")}
        for e in self.entries("transferred"):
            self.assertNotIn("kernel", e["scope"])
            src = e["method"]["transferred"]["from"]
            self.assertIn((src["name"], json.dumps(src["scope"], sort_keys=True)), measured)
            self.assertIn("no kernel code hash", e["method"]["transferred"]["rule"])

    def test_check_without_data_compares_nothing(self):
        rc, out = quiet(write_measured.main, ["--check", "--root", cr.CODE_ROOT])
        self.assertEqual(rc, 0)
        self.assertIn("compared nothing", out)


class FitRules(unittest.TestCase):
    """Each new validator rule refuses its bad case and accepts its twin (fixtures/fit-cases)."""

    @classmethod
    def setUpClass(cls):
        cls.template = tempfile.mkdtemp(prefix="blis-fit-template-")
        shutil.copytree(os.path.join(FIXTURES, "tree"), cls.template, dirs_exist_ok=True)
        rc, out = quiet(writer.run, write_floor.__file__, write_floor.produce, True, ["--root", cls.template])
        assert rc == 0, out

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.template)

    def tree(self, text):
        root = tempfile.mkdtemp(prefix="blis-fit-")
        self.addCleanup(shutil.rmtree, root)
        shutil.copytree(self.template, root, dirs_exist_ok=True)
        os.makedirs(os.path.join(root, "registry/sets/extra"), exist_ok=True)
        with open(os.path.join(root, "registry/sets/extra/gemm.yaml"), "w", encoding="utf-8") as f:
            f.write(text)
        return cr.check(cr.Registry(root))[0]

    def test_every_rule(self):
        names = {f.rsplit(".", 2)[0] for f in os.listdir(CASES)}
        self.assertEqual(names, set(RULES))
        for name, (rule, fragment) in RULES.items():
            with self.subTest(rule=name):
                with open(os.path.join(CASES, f"{name}.bad.yaml"), encoding="utf-8") as f:
                    errors = self.tree(f.read())
                hits = [e for e in errors if e.rule == rule and fragment in e.message]
                self.assertTrue(hits, f"{name}: {[str(e) for e in errors]}")
                with open(os.path.join(CASES, f"{name}.good.yaml"), encoding="utf-8") as f:
                    errors = self.tree(f.read())
                self.assertEqual([str(e) for e in errors], [])


if __name__ == "__main__":
    unittest.main()
