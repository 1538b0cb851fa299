#!/usr/bin/python3
"""SIM-6: data comes from the embedded copy unless a path replaces it; a path never overlays.

  check_data_source.py BLIS SRC_ROOT CASES.yaml

CASES.yaml sets up scratch trees (`trees`: a copy of a source directory with some paths dropped, or a directory
holding copies of some files) and lists cases: data flags and environment variables (`@SRC@` is the source
root, `@TMP@` the scratch directory) and, per tree (catalog, registry), the source `blis validate` must report:
embedded or a path, its file count (`files`, or `files_vs_embedded`: the embedded copy's count plus this), and
its overlays in order. A path that overlaid the embedded copy instead of replacing it would report the embedded
count. A case with `result: true` also runs `blis run` on the file's scenario and requires the Result's `data`
to record the same source, path, content hash and overlays (result-records-data-source).
Exit 0 / 1 (findings) / 2 (cannot run).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

TREE = re.compile(r"^(catalog|registry): (embedded|path (\S+)), (\d+) files, content hash ([0-9a-f]+)$")
OVERLAY = re.compile(r"^  overlay (\d+): (\S+), (\d+) files, hash ([0-9a-f]+)$")


def expand(value: str, src: str, tmp: str) -> str:
    return value.replace("@SRC@", src).replace("@TMP@", tmp)


def make_trees(trees: dict, src: str, tmp: str) -> None:
    for name, spec in (trees or {}).items():
        dest = os.path.join(tmp, name)
        if "copy_of" in spec:
            shutil.copytree(os.path.join(src, spec["copy_of"]), dest)
            for rel in spec.get("drop", []):
                path = os.path.join(dest, rel)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        for rel in spec.get("files", []):  # [tree-relative path inside the source tree, e.g. catalog/devices/x.yaml]
            tree, _, inner = rel.partition("/")
            os.makedirs(os.path.dirname(os.path.join(dest, inner)), exist_ok=True)
            shutil.copyfile(os.path.join(src, rel), os.path.join(dest, inner))


def reported(blis: str, args: list[str], env: dict) -> dict:
    proc = subprocess.run([blis, "validate", *args], capture_output=True, text=True, env=env)
    trees, current = {}, None
    for line in proc.stdout.splitlines():
        m = TREE.match(line)
        if m:
            current = m.group(1)
            trees[current] = {"source": "embedded" if m.group(2) == "embedded" else "path", "path": m.group(3),
                              "files": int(m.group(4)), "hash": m.group(5), "overlays": []}
            continue
        m = OVERLAY.match(line)
        if m and current:
            trees[current]["overlays"].append({"path": m.group(2), "files": int(m.group(3)), "hash": m.group(4)})
    if set(trees) != {"catalog", "registry"}:
        raise RuntimeError(f"blis validate {' '.join(args)}: no catalog and registry lines "
                           f"(exit {proc.returncode}): {(proc.stdout + proc.stderr).strip()[-400:]}")
    return trees


def judge(case: dict, got: dict, embedded: dict, src: str, tmp: str) -> list[str]:
    out = []
    for tree in ("catalog", "registry"):
        want = case.get(tree, {"source": "embedded"})
        have = got[tree]
        where = f"case {case['name']!r}: {tree}"
        if have["source"] != want["source"]:
            out.append(f"{where} comes from {have['source']} {have['path'] or ''}, the case expects {want['source']}")
            continue
        if want["source"] == "path" and have["path"] != expand(want["path"], src, tmp):
            out.append(f"{where} is read from {have['path']}, the case expects {expand(want['path'], src, tmp)}")
        files = want.get("files", embedded[tree]["files"] + want.get("files_vs_embedded", 0))
        if have["files"] != files:
            out.append(f"{where} holds {have['files']} files, the case expects {files}"
                       + (" (a path that overlaid the embedded copy)" if have["files"] == embedded[tree]["files"] else ""))
        overlays = [expand(o, src, tmp) for o in want.get("overlays", [])]
        if [o["path"] for o in have["overlays"]] != overlays:
            out.append(f"{where} overlays {[o['path'] for o in have['overlays']]}, the case expects {overlays}")
    return out


def judge_result(blis: str, scenario: str, args: list[str], env: dict, case: dict, got: dict) -> list[str]:
    proc = subprocess.run([blis, "run", "--replications", "1", *args, scenario], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        return [f"case {case['name']!r}: blis run failed: {proc.stderr.strip()[-300:]}"]
    data = json.loads(proc.stdout)["data"]
    out = []
    for tree in ("catalog", "registry"):
        rec, have = data[tree], got[tree]
        want = {"source": have["source"], "path": have["path"], "content_hash": have["hash"],
                "overlays": [(o["path"], o["hash"]) for o in have["overlays"]]}
        recorded = {"source": rec.get("source"), "path": rec.get("path"), "content_hash": rec.get("content_hash"),
                    "overlays": [(o.get("path"), o.get("hash") or o.get("content_hash")) for o in rec.get("overlays", [])]}
        if recorded != want:
            out.append(f"case {case['name']!r}: the Result records {tree} {recorded}, the data loaded was {want}")
    return out


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    blis, src, path = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    with open(path, encoding="utf-8") as f:
        table = yaml.safe_load(f)
    findings, results = [], 0
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("BLIS_")}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            make_trees(table.get("trees"), src, tmp)
            embedded = reported(blis, [], base_env)
            for case in table["cases"]:
                args = [expand(a, src, tmp) for a in case.get("flags", [])]
                env = dict(base_env, **{k: expand(v, src, tmp) for k, v in case.get("env", {}).items()})
                got = reported(blis, args, env)
                findings += judge(case, got, embedded, src, tmp)
                if case.get("result"):
                    results += 1
                    findings += judge_result(blis, expand(table["scenario"], src, tmp), args, env, case, got)
    except (OSError, RuntimeError, KeyError, ValueError) as e:
        print(f"check_data_source: cannot run: {e}", file=sys.stderr)
        return 2
    for f in findings:
        print(f)
    print(f"data source: {len(table['cases'])} cases ({results} also through a run's Result); {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
