#!/usr/bin/env bash
# The router benchmark (issue 8): prefix-aware routing (llm-d's default configuration, approximate prefix
# scorer), the precise prefix-cache scorer fed by the engines' KV events, and llm-d's random picker on one
# shared-prefix workload (examples/router/shared-prefix-{default,precise,random}.yaml: the same deployment,
# requests and seed; only router.config differs, and the precise side turns the engines' KV events on). Runs each once (five replications each) and
# prints the prefix-cache hit ratio and TTFT with their 95% intervals over replications, and the CPU time
# each run took. A benchmark, not a test: it asserts nothing.
#
# usage: scripts/bench_router_prefix.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
blis=$build/blis
[ -x "$blis" ] || { echo "bench_router_prefix: $blis is not built (meson compile -C $build blis)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for side in default precise random; do
  start=$(date +%s%N)
  "$blis" run "$root/examples/router/shared-prefix-$side.yaml" > "$out/$side.json" 2> "$out/$side.err" || {
    cat "$out/$side.err" >&2; exit 1; }
  end=$(date +%s%N)
  echo "$side $(( (end - start) / 1000000 ))" >> "$out/times"
done
/usr/bin/python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
times = dict(l.split() for l in open(os.path.join(out, "times")))
metrics = ["prefix_cache.hit_ratio", "ttft.mean", "ttft.p50", "ttft.p90", "e2e.mean", "throughput.output_tokens_per_s"]
def figures(path):
    found = {}
    def walk(x):
        if isinstance(x, dict):
            if x.get("metric") in metrics and (x.get("scope") or {}).get("level") == "cluster":
                found[x["metric"]] = x
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(json.load(open(path)))
    return found
sides = ("default", "precise", "random")
print(f"{'metric':32} {'approximate prefix (llm-d default)':>36} {'precise prefix (KV events)':>36} {'random picker':>36}")
rows = {side: figures(os.path.join(out, f"{side}.json")) for side in sides}
for m in metrics:
    cells = []
    for side in sides:
        f = rows[side].get(m)
        if not f or f.get("value") is None:
            cells.append("withheld")
            continue
        iv = f.get("interval") or {}
        cells.append(f"{f['value']:.4g} [{iv.get('low', float('nan')):.4g}, {iv.get('high', float('nan')):.4g}]")
    print(f"{m:32} {cells[0]:>36} {cells[1]:>36} {cells[2]:>36}")
print(f"{'wall seconds':32} " + " ".join(f"{int(times[s]) / 1000:>36.1f}" for s in sides))
PY
