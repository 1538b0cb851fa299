#!/usr/bin/env bash
# Prints what the lint pass costs (a benchmark: figures, never a pass/fail limit).
#   bash scripts/bench_lints.sh
# Times blis-lint over the project (every lint, one parse per unit in scope), then clang's bare parse of
# the same units (clang++ -fsyntax-only), so the lints' own share shows beside the parsing they need.
set -euo pipefail
cd "$(dirname "$0")/.."
lint=build/checks/lints/blis-lint
db=build/compile_commands.json
[ -x "$lint" ] && [ -f "$db" ] || { echo "build first: bash scripts/build.sh" >&2; exit 2; }
llvm=$(/usr/bin/python3 gen/blis_gen.py version --root . toolchain.llvm_major)
start=$(date +%s%N)
"$lint" --root . "$db" | tail -1
end=$(date +%s%N)
lint_ms=$(( (end - start) / 1000000 ))
# The units the pass judged: the ones it names are in scope; parse those alone for the baseline.
units=$(/usr/bin/python3 - "$db" <<'PY'
import json, os, sys
root = os.getcwd()
for e in json.load(open(sys.argv[1])):
    f = os.path.normpath(os.path.join(e["directory"], e["file"]))
    rel = os.path.relpath(f, root)
    if rel.endswith((".cpp", ".cc")) and rel.startswith(("src/", "engines/", "router/")):
        print(f)
PY
)
n=$(echo "$units" | grep -c . || true)
start=$(date +%s%N)
for u in $units; do
  args=$(/usr/bin/python3 - "$db" "$u" <<'PY'
import json, os, shlex, sys
for e in json.load(open(sys.argv[1])):
    if os.path.normpath(os.path.join(e["directory"], e["file"])) == sys.argv[2]:
        a = e.get("arguments") or shlex.split(e["command"])
        out, skip = [], False
        for x in a[1:]:
            if skip: skip = False; continue
            if x in ("-o", "-MF", "-MQ"): skip = True; continue
            if x in ("-c", "-MD"): continue
            out.append(x)
        print(e["directory"]); print(shlex.join(out)); break
PY
)
  dir=$(echo "$args" | head -1); cmd=$(echo "$args" | tail -1)
  (cd "$dir" && eval "clang++-$llvm -fsyntax-only -Wno-everything $cmd")
done
end=$(date +%s%N)
parse_ms=$(( (end - start) / 1000000 ))
printf 'lint pass:        %6d ms (every lint, units in scope and files)\n' "$lint_ms"
printf 'bare clang parse: %6d ms (%d units under src/, engines/, router/)\n' "$parse_ms" "$n"
