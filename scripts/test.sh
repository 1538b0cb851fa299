#!/usr/bin/env bash
# Runs the required test tier, then fails the run on any skipped test (X16) and prints the closing count.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
meson test -C build --print-errorlogs --num-processes 2
status=$?
/usr/bin/python3 checks/repo/no_skips.py build/meson-logs || status=1
exit $status
