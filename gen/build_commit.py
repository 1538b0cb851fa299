#!/usr/bin/env python3
"""Prints the commit a build is made from and whether the tree differs from it: '<40 hex> <0|1>'.

usage: build_commit.py SRC_ROOT

Meson's vcs_tag runs it at every build, so the Result's build record (X8) names the commit built. Outside a
git checkout it prints forty zeros and 1 (an unknown tree counts as modified).
"""
import subprocess
import sys


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True, check=True).stdout


def main() -> int:
    root = sys.argv[1]
    try:
        commit = git(root, "rev-parse", "HEAD").strip()
        modified = git(root, "status", "--porcelain", "--untracked-files=no").strip() != ""
    except (OSError, subprocess.CalledProcessError):
        print("0" * 40 + " 1")
        return 0
    print(f"{commit} {1 if modified else 0}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
