"""FID-2 environment-lock (checks/harness/oracle/check_lock.py and the runners' refusal in record.py): a lock
naming this machine passes, the closest lock that does not is refused naming the difference (SIM-9)."""
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, ROOT)
from checks.harness.oracle import check_lock, record  # noqa: E402

PACKAGES = ["python3-yaml"]
SCRATCH = tempfile.TemporaryDirectory()


def tearDownModule():
    SCRATCH.cleanup()


def this_machine(**changes):
    import platform
    lock = {"implementation": platform.python_implementation(), "version": platform.python_version()}
    packages = {p: check_lock.installed(p) for p in PACKAGES}
    packages.update(changes.pop("packages", {}))
    lock.update(changes)
    lines = [f"python: {{implementation: {lock['implementation']}, version: '{lock['version']}'}}",
             "debian_packages:"] + [f"  {p}: '{v}'" for p, v in packages.items()]
    path = os.path.join(SCRATCH.name, f"{len(os.listdir(SCRATCH.name))}.lock.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


class EnvironmentLock(unittest.TestCase):
    def setUp(self):
        if check_lock.installed("python3-yaml") is None:
            self.skipTest("not a Debian machine with python3-yaml (the oracle's environment)")

    def test_a_lock_naming_this_machine_passes(self):
        self.assertEqual(check_lock.differences(this_machine()), [])

    def test_another_package_version_is_named(self):
        found = check_lock.differences(this_machine(packages={"python3-yaml": "0.1-1"}))
        self.assertEqual(len(found), 1)
        self.assertIn("debian package python3-yaml: the lock names 0.1-1, installed is", found[0])

    def test_a_package_not_installed_is_named(self):
        found = check_lock.differences(this_machine(packages={"python3-no-such-package": "1.0-1"}))
        self.assertEqual(found, ["debian package python3-no-such-package: the lock names 1.0-1, it is not installed"])

    def test_another_python_is_named(self):
        found = check_lock.differences(this_machine(version="3.12.0"))
        self.assertEqual(len(found), 1)
        self.assertIn("python version: the lock names '3.12.0'", found[0])

    def test_the_runners_refuse_to_record_outside_the_lock_and_record_inside_it(self):
        def run(lock):
            made = []
            with tempfile.TemporaryDirectory() as out, mock.patch.object(check_lock, "DEFAULT_LOCK", lock), \
                    mock.patch.dict(os.environ, {"PYTHONHASHSEED": "0"}), redirect_stderr(io.StringIO()) as err:
                def make_oracle(checkout):
                    made.append(checkout)
                    raise RuntimeError("the oracle is built only in the locked environment")
                try:
                    rc = record.main(make_oracle=make_oracle, engine="vllm", trace_format=2, doc="",
                                     here=os.path.join(ROOT, "engines", "vllm", "oracle"), checkout_help="",
                                     argv=["--checkout", "/nowhere", "--out-dir", out, "--designed"])
                except RuntimeError:
                    rc = None
            return rc, made, err.getvalue()

        rc, made, err = run(this_machine(packages={"python3-yaml": "0.1-1"}))
        self.assertEqual((rc, made), (2, []))
        self.assertIn("refusing to record outside the locked environment", err)
        rc, made, _ = run(this_machine())
        self.assertEqual(made, ["/nowhere"])


if __name__ == "__main__":
    unittest.main()
