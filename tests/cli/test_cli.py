"""`blis invariants` as a user runs it.  usage: test_cli.py BLIS SRC_ROOT"""
import json
import os
import subprocess
import sys
import unittest

BLIS, ROOT = sys.argv[1], sys.argv[2]


def blis(*args):
    return subprocess.run([BLIS, *args], capture_output=True, text=True)


class InvariantsCommand(unittest.TestCase):
    def test_json_is_byte_identical_to_the_committed_registry(self):
        out = blis("invariants", "--json")
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(f"{ROOT}/docs/invariants.json", encoding="utf-8") as f:
            self.assertEqual(out.stdout, f.read())

    def test_json_lists_every_design_invariant_and_trigger_outcome(self):
        rows = json.loads(blis("invariants", "--json").stdout)["invariants"]
        ids = {r["id"] for r in rows}
        self.assertEqual(len([i for i in ids if not i.startswith("T-")]), 149)
        self.assertEqual(len([i for i in ids if i.startswith("T-")]), 35)
        for r in rows:
            self.assertTrue(r["kind"] and r["status"], r["id"])
            self.assertIn("checks", r)

    def test_status_counts_and_exits_zero(self):
        out = blis("invariants", "status")
        self.assertEqual(out.returncode, 0, out.stdout)
        last = out.stdout.splitlines()[-1].split("\t")
        self.assertEqual(last[0], "all")
        self.assertEqual(last[-1], "184")

    def test_filters(self):
        out = blis("invariants", "--family", "LIF")
        self.assertEqual([l.split("\t")[0] for l in out.stdout.splitlines()], [f"LIF-{i}" for i in range(1, 8)])
        for line in blis("invariants", "--status", "ci").stdout.splitlines():
            self.assertEqual(line.split("\t")[1], "ci")
        one = json.loads(blis("invariants", "--json", "X7").stdout)["invariants"]
        self.assertEqual([r["id"] for r in one], ["X7"])

    def test_unknown_id_and_option_are_refused(self):
        out = blis("invariants", "X99")
        self.assertEqual(out.returncode, 1)
        self.assertIn("no invariant 'X99'", out.stderr)
        out = blis("invariants", "--colour")
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown option '--colour'", out.stderr)


def _hash_of_tree(files: dict) -> str:
    """§3.3's content hash: '<sha256> <path>' lines sorted by path, each ending in a line feed."""
    import hashlib
    lines = "".join(f"{hashlib.sha256(b).hexdigest()} {p}\n" for p, b in sorted(files.items()))
    return hashlib.sha256(lines.encode()).hexdigest()


def _hashes(text: str) -> dict:
    out = {}
    for line in text.splitlines():
        parts = line.strip().split()
        if line.startswith(("catalog:", "registry:")):
            out[line.split(":")[0]] = parts[-1]
        elif line.strip().startswith("overlay"):
            out.setdefault("overlays", []).append(parts[-1])
        elif line.strip().startswith("combined hash"):
            out["combined"] = parts[-1]
    return out


class DataCommands(unittest.TestCase):
    def test_validate_passes_on_the_committed_data(self):
        out = blis("validate")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("every validator and cross-check passed", out.stdout)
        self.assertIn("catalog: embedded", out.stdout)

    def test_embedded_and_path_give_the_same_content_hashes(self):  # SUB-9
        embedded = _hashes(blis("validate").stdout)
        path = blis("validate", "--catalog", f"{ROOT}/catalog", "--registry", f"{ROOT}/registry")
        self.assertEqual(path.returncode, 0, path.stderr)
        self.assertIn(f"catalog: path {ROOT}/catalog", path.stdout)
        self.assertEqual(_hashes(path.stdout), embedded)
        self.assertEqual(_hashes(blis("validate", "--root", ROOT).stdout), embedded)

    def test_an_overlay_changes_the_combined_hash_as_section_3_3_says(self):
        import hashlib
        import os
        import tempfile
        with open(f"{ROOT}/catalog/hardware/H100-SXM.yaml", "rb") as f:
            chip = f.read() + b"# a private revision of this entry\n"
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(f"{d}/hardware")
            with open(f"{d}/hardware/H100-SXM.yaml", "wb") as f:
                f.write(chip)
            out = blis("validate", "--catalog-overlay", d)
            self.assertEqual(out.returncode, 0, out.stderr)
            h = _hashes(out.stdout)
            base = _hashes(blis("validate").stdout)["catalog"]
            overlay = _hash_of_tree({"hardware/H100-SXM.yaml": chip})
            self.assertEqual(h["catalog"], base)
            self.assertEqual(h["overlays"], [overlay])
            want = hashlib.sha256(f"{base} base\n{overlay} overlay\n".encode()).hexdigest()
            self.assertEqual(h["combined"], want)
            self.assertNotEqual(h["combined"], base)
            # The same overlay holding ledger files is refused (§3.3); without them it loads (above).
            os.makedirs(f"{d}/ledger/published")
            with open(f"{d}/ledger/published/roles.yaml", "w", encoding="utf-8") as f:
                f.write("units: []\n")
            refused = blis("validate", "--catalog-overlay", d)
            self.assertEqual(refused.returncode, 1)
            self.assertIn("ledger", refused.stderr)

    def test_a_refused_path_names_the_file_and_the_cause(self):
        import os
        import shutil
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            shutil.copytree(f"{ROOT}/catalog", f"{d}/catalog")
            with open(f"{d}/catalog/hardware/H100-SXM.yaml", "a", encoding="utf-8") as f:
                f.write("hbm_bytes: 1\n")
            out = blis("validate", "--catalog", f"{d}/catalog")
            self.assertEqual(out.returncode, 1)
            self.assertIn("hardware/H100-SXM.yaml", out.stderr)
            self.assertIn("unknown key 'hbm_bytes'", out.stderr)
            os.remove(f"{d}/catalog/hardware/H100-SXM.yaml")
            shutil.copy(f"{ROOT}/catalog/hardware/H100-SXM.yaml", f"{d}/catalog/hardware/H100-SXM.yaml")
            self.assertEqual(blis("validate", "--catalog", f"{d}/catalog").returncode, 0)

    def test_catalog_resolves_a_chip_and_a_model_by_the_names_users_write(self):
        chip = json.loads(blis("catalog", "resolve", "H100-SXM").stdout)
        self.assertEqual((chip["kind"], chip["file"]), ("chip", "hardware/H100-SXM.yaml"))
        self.assertEqual(chip["entry"]["name"], "H100-SXM")
        model = json.loads(blis("catalog", "resolve", "Qwen/Qwen3-32B").stdout)
        self.assertEqual(model["graph"], "models/Qwen--Qwen3-32B/graph.yaml")
        missing = blis("catalog", "resolve", "H100-SXMX")
        self.assertEqual(missing.returncode, 1)
        self.assertIn("names no entry of the embedded catalog", missing.stderr)
        listing = blis("catalog", "list").stdout
        for name in ("A100-SXM-80GB", "H100-SXM", "H200-SXM", "B200", "B300", "GB200-NVL72", "GB300-NVL72", "L40S"):
            self.assertIn(f"hardware/{name}.yaml", listing)


class SchemaCommand(unittest.TestCase):
    def test_every_example_validates(self):
        import glob
        files = sorted(glob.glob(f"{ROOT}/schemas/examples/*/*"))
        self.assertGreater(len(files), 20)
        out = blis("schema", "validate", *files)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.count(": valid "), len(files))

    def test_every_malformed_document_is_refused_with_a_position_and_never_crashes(self):
        import glob
        files = [f for f in sorted(glob.glob(f"{ROOT}/tests/conformance/malformed/*")) if not f.endswith(".tsv")]
        for kind in ("deployment", "scenario", "chip", "coefficient-set"):
            for f in files:
                out = blis("schema", "validate", "--kind", kind, f)
                self.assertEqual(out.returncode, 1, f"{f} as {kind}: {out.stdout}")  # refused, not a crash
                self.assertRegex(out.stderr, r":[0-9]+:[0-9]+: ", f)

    def test_a_scenario_file_holds_a_deployment_and_a_scenario(self):
        import tempfile
        with open(f"{ROOT}/schemas/examples/deployment/llama8b.yaml", encoding="utf-8") as f:
            dep = f.read()
        with open(f"{ROOT}/schemas/examples/scenario/chat.yaml", encoding="utf-8") as f:
            scen = f.read()
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write(dep + "\n---\n" + scen)
        out = blis("schema", "validate", f.name)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("valid deployment+scenario", out.stdout)

    def test_a_scenario_naming_another_deployment_is_refused(self):
        # The refusal pair (SIM-9): the file's Scenario names a Deployment the file does not hold -- refused as
        # `blis run` refuses it, naming the field and both names; the same file naming its own Deployment is valid.
        import tempfile
        with open(f"{ROOT}/schemas/examples/deployment/llama8b.yaml", encoding="utf-8") as f:
            dep = f.read()
        with open(f"{ROOT}/schemas/examples/scenario/chat.yaml", encoding="utf-8") as f:
            scen = f.read()
        self.assertIn("deployment: llama8b-4x-h100\n", scen)
        for name, code in (("llama8b-4x-h100", 0), ("llama8b-4x-h200", 1)):
            with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
                f.write(dep + "\n---\n" + scen.replace("deployment: llama8b-4x-h100\n", f"deployment: {name}\n"))
            out = blis("schema", "validate", f.name)
            os.unlink(f.name)
            self.assertEqual(out.returncode, code, out.stdout + out.stderr)
            if code:
                self.assertIn("deployment: 'llama8b-4x-h200' is not the file's Deployment, which is named "
                              "'llama8b-4x-h100'", out.stderr)
                self.assertNotIn("valid", out.stdout)

    def test_json_schema_is_printed_for_a_kind(self):
        out = blis("schema", "chip")
        self.assertEqual(out.returncode, 0)
        with open(f"{ROOT}/schemas/json/chip.json", encoding="utf-8") as f:
            self.assertEqual(out.stdout, f.read())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
