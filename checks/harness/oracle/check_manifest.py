#!/usr/bin/python3
"""The oracle manifest check (X5 manifest-complete, FID-1, FID-8), run without the upstream checkout.

  check_manifest.py ORACLE_DIR

ORACLE_DIR (engines/<engine>/oracle) holds manifest.yaml, stubs.py and versions.yaml. The check fails when
the manifest is malformed (a field missing, a kind outside gpu/clock/transport/environment/platform/
configuration/service/transcription, a replacement without a reason, a transcription citing nothing), when
stubs.py defines a stub the manifest does not list or the manifest lists a replacement with no stub (a
replacement outside a listed site), or when manifest.yaml or stubs.py changed without a new version recorded
in versions.yaml (FID-1). Exit 0 when it holds, 1 with each finding printed, 2 when it cannot run.
"""

from __future__ import annotations

import importlib.util
import os
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..")))

from checks.harness.oracle import loader, manifest_history  # noqa: E402


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    oracle = sys.argv[1]
    findings = []
    with open(os.path.join(oracle, "manifest.yaml"), encoding="utf-8") as f:
        manifest = yaml.safe_load(f)
    findings += loader.validate_manifest(manifest)
    spec = importlib.util.spec_from_file_location("oracle_stubs_under_check", os.path.join(oracle, "stubs.py"))
    stubs = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = stubs
    spec.loader.exec_module(stubs)
    if not findings:
        listed = {e["module"]: e for e in manifest["replacements"]}
        for name in sorted(set(stubs.STUBS) - set(listed)):
            findings.append(f"stubs.py replaces {name}, which manifest.yaml does not list (a replacement outside a "
                            f"listed site)")
        for name, e in sorted(listed.items()):
            if name not in stubs.STUBS and "extract" not in e:
                findings.append(f"manifest.yaml lists replacement {name} with no stub in stubs.py and nothing extracted")
        versions = manifest_history.versions(oracle)
        current = manifest_history.content_hash(oracle)
        v = manifest["version"]
        if v not in versions:
            findings.append(f"versions.yaml has no entry for manifest version {v} (add {v}: {current})")
        elif versions[v] != current:
            findings.append(f"manifest.yaml or stubs.py changed (sha256 {current}) but the manifest version is still "
                            f"{v} (recorded as {versions[v]}): a changed manifest carries a new version (FID-1)")
        elif v != max(versions):
            findings.append(f"manifest version {v} is older than the newest recorded version {max(versions)}")
    for f in findings:
        print(f)
    kinds = {}
    for section in ("shells", "replacements", "harness"):
        for e in manifest.get(section, []) if isinstance(manifest, dict) else []:
            kinds[e.get("kind")] = kinds.get(e.get("kind"), 0) + 1
    print(f"oracle manifest {oracle}: {len(manifest.get('real', []))} real modules, "
          f"replacements by kind {dict(sorted((str(k), n) for k, n in kinds.items()))}, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
