#!/usr/bin/env bash
# Prints how long loading and checking the data takes (a benchmark: figures, never a pass/fail limit).
#   bash scripts/bench_data.sh [RUNS]
# Loads the embedded catalog and registry with every validator and cross-check (blis validate), then the
# same from the working tree (--root .), then checks every schema example (blis schema validate).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"
blis=build/blis
[ -x "$blis" ] || { echo "build first: bash scripts/build.sh" >&2; exit 2; }
time_runs() {  # label, command...
  local label="$1"; shift
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$runs"); do "$@" >/dev/null; done
  end=$(date +%s%N)
  printf '%-36s %8.1f ms per run (%s runs)\n' "$label" "$(echo "($end - $start) / 1000000 / $runs" | bc -l)" "$runs"
}
files=$(find catalog registry -name '*.yaml' -path '*/hardware/*' -o -name '*.yaml' -path '*/sets/*' -o \
  -name '*.yaml' -path '*/models/*' | wc -l)
echo "data files: $files; coefficients: $($blis validate | tail -1 | cut -d' ' -f1)"
time_runs "blis validate (embedded)" "$blis" validate
time_runs "blis validate --root . (path)" "$blis" validate --root .
time_runs "blis schema validate (all examples)" "$blis" schema validate schemas/examples/*/*
