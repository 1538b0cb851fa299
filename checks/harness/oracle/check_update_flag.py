#!/usr/bin/python3
"""FID-3 runner-refuses-overwrite: an oracle runner must not overwrite a recorded trace without --update.

  check_update_flag.py RUNNER.py

Runs RUNNER.py --checkout <a path that does not exist> --out-dir <scratch> --designed on a scratch directory
that already holds a trace of every designed scenario's name, and requires the runner to refuse before it
even reads the checkout: a non-zero exit, a message naming --update, and every existing trace unchanged.
Exit 0 when the runner refuses, 1 with the finding when it does not, 2 when the check cannot run.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    runner = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(runner))
    try:
        import scenarios  # the runner's own scenario list, beside it
    except ImportError as e:
        print(f"check_update_flag: no scenarios.py beside {runner}: {e}", file=sys.stderr)
        return 2
    names = [s["name"] for s in scenarios.designed()]
    with tempfile.TemporaryDirectory() as out:
        before = {}
        for n in names:
            path = os.path.join(out, n + ".trace.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write('{"recorded": "before"}\n')
            before[path] = hashlib.sha256(open(path, "rb").read()).hexdigest()
        proc = subprocess.run([sys.executable, runner, "--checkout", os.path.join(out, "no-checkout-here"),
                               "--out-dir", out, "--designed"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=120)
        changed = [p for p, h in before.items()
                   if not os.path.exists(p) or hashlib.sha256(open(p, "rb").read()).hexdigest() != h]
        findings = []
        if proc.returncode == 0:
            findings.append(f"{runner} exited 0 on an out-dir holding recorded traces, without --update")
        if "--update" not in proc.stdout:
            findings.append(f"{runner} did not name --update in its refusal: {proc.stdout.strip()[-300:]!r}")
        if changed:
            findings.append(f"{runner} overwrote {len(changed)} recorded trace(s) without --update, e.g. "
                            f"{os.path.basename(changed[0])} (FID-3)")
    for f in findings:
        print(f)
    print(f"oracle runner update flag: {runner}: {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
