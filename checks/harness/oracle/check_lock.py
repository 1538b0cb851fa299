#!/usr/bin/python3
"""FID-2 environment-lock: the oracle records only in the Python environment its lock file names.

  check_lock.py LOCK.yaml

Debian's packages stand in for a lock file with hashes (no PyPI here): LOCK.yaml names the interpreter
(implementation and version) and the exact Debian version of every package the oracle runs on (the
interpreter's own package, PyYAML, NumPy, typing-extensions). The check compares this machine's with it and
names each difference. The runners call the same comparison before recording (checks/harness/oracle/record.py)
and refuse to record in an environment the lock does not name; changing the lock is a reviewed commit.
Exit 0 / 1 (differences) / 2 (cannot run).
"""

from __future__ import annotations

import platform
import subprocess
import sys

import yaml

DEFAULT_LOCK = __file__.rsplit("/", 1)[0] + "/environment.lock.yaml"


def installed(package: str) -> str | None:
    proc = subprocess.run(["dpkg-query", "-W", "-f", "${Status}\t${Version}", package],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if proc.returncode != 0:
        return None
    status, _, version = proc.stdout.partition("\t")
    return version if status.endswith(" installed") else None


def differences(lock_path: str | None = None) -> list[str]:
    """Each way this machine differs from the lock (DEFAULT_LOCK when none is named); empty when it is the
    locked environment."""
    lock_path = lock_path or DEFAULT_LOCK
    with open(lock_path, encoding="utf-8") as f:
        lock = yaml.safe_load(f) or {}
    out = []
    want = lock.get("python") or {}
    have = {"implementation": platform.python_implementation(), "version": platform.python_version()}
    for key in ("implementation", "version"):
        if str(want.get(key)) != have[key]:
            out.append(f"python {key}: the lock names {want.get(key)!r}, this interpreter is {have[key]!r}")
    packages = lock.get("debian_packages") or {}
    if not packages:
        out.append(f"{lock_path}: debian_packages: the lock names no package")
    for package, version in sorted(packages.items()):
        got = installed(package)
        if got is None:
            out.append(f"debian package {package}: the lock names {version}, it is not installed")
        elif got != str(version):
            out.append(f"debian package {package}: the lock names {version}, installed is {got}")
    return out


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        subprocess.run(["dpkg-query", "--version"], stdout=subprocess.DEVNULL, check=True)
    except (OSError, subprocess.CalledProcessError):
        print("check_lock: cannot run: dpkg-query is not available (the oracle's environment is Debian's)",
              file=sys.stderr)
        return 2
    found = differences(sys.argv[1])
    for d in found:
        print(d)
    print(f"oracle environment lock: {sys.argv[1]}: {len(found)} differences")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
