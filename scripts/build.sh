#!/usr/bin/env bash
# Configures (once) and builds BLIS into ./build. Run scripts/setup.sh first on a new machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -f build/build.ninja ]; then
  meson setup build
fi
meson compile -C build
