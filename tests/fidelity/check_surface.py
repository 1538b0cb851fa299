#!/usr/bin/env python3
"""VLM-4, SGL-4, X9: every item of an engine port's surface list has exactly one allowed status, with evidence
that exists.

usage: check_surface.py --root ROOT [--engine vllm|sglang] SURFACE_JSON

- The list is valid against schemas/engine/surface-list.yaml (blis-gen's validator: one status per item,
  the three statuses' required fields, the issue pattern, the three out-of-scope reasons).
- Its upstream block is engines/<engine>/upstream.yaml's release and commit; every registered_at and every
  path@commit citation names that commit.
- Items are sorted by category then name, each (category, name) once; maps_to names a listed item.
- Every path a modelled item names exists under ROOT; a framework marked modelled names recorded and
  direct traces (FID-5).
- Each status is the one engines/<engine>/surface/statuses.yaml gives (so a status edited by hand in the
  generated list fails here, without the upstream checkout).
Prints each finding and exits 1; 0 with a count per category and status; 2 on a usage error.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter

import yaml

STATUSES = ("modelled", "refused", "out_of_scope")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--engine", default="vllm", choices=["vllm", "sglang"])
    p.add_argument("surface")
    a = p.parse_args()
    root = os.path.abspath(a.root)
    try:
        with open(a.surface, encoding="utf-8") as f:
            doc = json.load(f)
        with open(os.path.join(root, "engines", a.engine, "upstream.yaml"), encoding="utf-8") as f:
            record = yaml.safe_load(f)
        with open(os.path.join(root, "engines", a.engine, "surface", "statuses.yaml"), encoding="utf-8") as f:
            statuses = yaml.safe_load(f)
    except (OSError, ValueError, yaml.YAMLError) as e:
        print(f"check_surface: {e}", file=sys.stderr)
        return 2
    findings = []
    tag = "VLM-4" if a.engine == "vllm" else "SGL-4"
    v = subprocess.run([sys.executable, os.path.join(root, "gen", "blis_gen.py"), "validate-doc", "--root", root,
                        "--schema", "surface-list", a.surface], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if v.returncode != 0:
        findings += [f"schema: {line}" for line in v.stdout.splitlines() if line.strip() and "valid" not in line]
        findings.append(f"{a.surface}: not a valid surface-list document [{tag}; X9]")
    commit8 = str(record["commit"])[:8]
    up = doc.get("upstream", {})
    if (up.get("name"), str(up.get("release")), up.get("commit")) != (a.engine, str(record["release"]), record["commit"]):
        findings.append(f"upstream: {up} is not engines/{a.engine}/upstream.yaml's release and commit [{tag}; LIF-5]")
    items = doc.get("items", []) if isinstance(doc.get("items"), list) else []
    keys = [(i.get("category", ""), i.get("name", "")) for i in items]
    if keys != sorted(keys):
        findings.append(f"items: not sorted by category, then name [{tag}]")
    for k, n in Counter(keys).items():
        if n > 1:
            findings.append(f"{k[0]} {k[1]}: listed {n} times [X9]")
    names = set(keys)
    defaults = statuses.get("defaults") or {}
    own = {(e["category"], e["name"]): {s: e[s] for s in STATUSES if s in e} for e in statuses.get("items") or []}
    counts = Counter()
    for it in items:
        cat, name = it.get("category", ""), it.get("name", "")
        where = f"{cat} {name}"
        status = it.get("status") or {}
        kinds = [s for s in STATUSES if s in status]
        if len(kinds) != 1:
            findings.append(f"{where}: has {len(kinds)} statuses ({', '.join(kinds) or 'none'}); X9 allows exactly one")
            continue
        kind = kinds[0]
        counts[(cat, kind)] += 1
        for cite in re.findall(r"@([0-9a-f]{8})", it.get("registered_at", "")):
            if cite != commit8:
                findings.append(f"{where}: registered_at cites {cite}, not the Upstream record's commit [{tag}; LIF-5]")
        if kind == "modelled":
            body = status["modelled"] or {}
            paths = list(body.get("scenarios") or []) + list(body.get("recorded_traces") or []) + \
                list(body.get("direct_traces") or [])
            for path in paths:
                if not os.path.exists(os.path.join(root, path)):
                    findings.append(f"{where}: modelled, but its evidence {path} does not exist [X9; {tag}]")
            if it.get("framework") and not (body.get("recorded_traces") and body.get("direct_traces")):
                findings.append(f"{where}: a framework marked modelled needs recorded and direct traces at its "
                                f"interface [FID-5]")
        if kind == "out_of_scope":
            cite = (status["out_of_scope"] or {}).get("citation", "")
            m = re.fullmatch(r"[^@\s]+@([0-9a-f]{8})(:[0-9]+(-[0-9]+)?)?", cite)
            if not (cite.startswith("https://") or (m and m.group(1) == commit8)):
                findings.append(f"{where}: out_of_scope cites '{cite}', neither upstream code at the pinned "
                                f"commit (path@{commit8}:lines) nor an announcement URL [X9]")
        target = it.get("maps_to")
        if target:
            cats = {"kv_cache_spec": "kv_cache_manager"}.get(cat, cat)
            if (cats, target) not in names:
                findings.append(f"{where}: maps_to {target}, which is no {cats} item of the list [VLM-6]")
        want = own.get((cat, name), defaults.get(cat))
        if want != status:
            findings.append(f"{where}: status {json.dumps(status, sort_keys=True)} is not the one "
                            f"engines/{a.engine}/surface/statuses.yaml gives; edit statuses.yaml and regenerate [{tag}]")
    for line in findings:
        print(line)
    if findings:
        print(f"{a.engine}-surface-status: {len(findings)} finding(s) in {len(items)} item(s)")
        return 1
    for cat in sorted({c for c, _ in counts}):
        parts = ", ".join(f"{s} {counts[(cat, s)]}" for s in STATUSES if counts[(cat, s)])
        print(f"  {cat}: {parts}")
    print(f"{a.engine}-surface-status: {len(items)} items, each with one allowed status and its evidence")
    return 0


if __name__ == "__main__":
    sys.exit(main())
