#!/usr/bin/env python3
"""Regenerates a committed list from an engine's pinned upstream checkout and compares it byte for byte
(upstream tier).

usage: regenerate.py --gen GENERATOR --root ROOT [--engine vllm|sglang] [--mode surface|tests] [--checkout DIR]
                     [--write] COMMITTED

GENERATOR is run as `GENERATOR MODE --checkout DIR --root ROOT` (vllm-surface-gen, sglang-upstream-tests).
The checkout is DIR, else $BLIS_VLLM_CHECKOUT or $BLIS_SGLANG_CHECKOUT (make one with
`git -C <clone> archive <commit> <dirs> | tar -x -C DIR`). Before generating, every file
engines/<engine>/upstream.yaml lists is checked against its blob hash, so a checkout of another commit is
refused. Exit 0 when the bytes are equal (or, with --write, after writing them), 1 when they differ or the
generator refuses the checkout, 2 when no checkout is given or a file is missing.
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys


def blob_hash(path: str) -> str:
    with open(path, "rb") as f:
        data = f.read()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def pinned_files(root: str, engine: str) -> list[tuple[str, str]]:
    with open(os.path.join(root, "engines", engine, "upstream.yaml"), encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"\{path:\s*([^,\s]+),\s*blob:\s*\"?([0-9a-f]+)\"?\}", text)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--gen", required=True)
    p.add_argument("--root", required=True)
    p.add_argument("--engine", default="vllm", choices=["vllm", "sglang"])
    p.add_argument("--mode", default="surface", choices=["surface", "tests"])
    p.add_argument("--checkout", default=None)
    p.add_argument("--write", action="store_true", help="write the list instead of comparing")
    p.add_argument("committed")
    a = p.parse_args()
    env = f"BLIS_{a.engine.upper()}_CHECKOUT"
    if a.checkout is None:
        a.checkout = os.environ.get(env, "")
    if not a.checkout:
        print(f"regenerate: no checkout: set {env} to a checkout of the pinned commit "
              "(the upstream tier needs one)", file=sys.stderr)
        return 2
    pins = pinned_files(a.root, a.engine)
    if not pins:
        print(f"regenerate: engines/{a.engine}/upstream.yaml lists no files", file=sys.stderr)
        return 2
    wrong = []
    for rel, blob in pins:
        path = os.path.join(a.checkout, rel)
        if not os.path.isfile(path):
            if rel.startswith(("vllm/", "python/")) or a.mode == "tests":
                print(f"regenerate: {path}: missing from the checkout", file=sys.stderr)
                return 2
            continue
        if not blob_hash(path).startswith(blob):
            wrong.append(f"{rel}: blob {blob_hash(path)[:12]}, the pin's is {blob}")
    if wrong:
        for w in wrong:
            print(f"regenerate: {w}")
        print("regenerate: the checkout is not the Upstream record's commit")
        return 1
    proc = subprocess.run([a.gen, a.mode, "--checkout", a.checkout, "--root", a.root],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sys.stderr.write(proc.stderr.decode("utf-8", "replace"))
    if proc.returncode != 0:
        print(f"regenerate: {os.path.basename(a.gen)} {a.mode} refused the checkout (exit {proc.returncode})")
        return 1
    if a.write:
        with open(a.committed, "wb") as f:
            f.write(proc.stdout)
        print(f"regenerate: wrote {a.committed}")
        return 0
    try:
        with open(a.committed, "rb") as f:
            committed = f.read()
    except OSError as e:
        print(f"regenerate: {e}", file=sys.stderr)
        return 2
    if committed != proc.stdout:
        new, old = proc.stdout.decode().splitlines(), committed.decode("utf-8", "replace").splitlines()
        first = next((i for i in range(min(len(new), len(old))) if new[i] != old[i]), min(len(new), len(old)))
        print(f"regenerate: {a.committed} differs from what the generator writes from the pinned checkout "
              f"(first at line {first + 1}); rerun with --write and review the change")
        return 1
    print(f"regenerate: {a.committed} equals the generator's output from the pinned checkout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
