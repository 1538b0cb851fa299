#!/usr/bin/env python3
"""Compile-fail twins (SUB-16): every <case>.fail.cpp must not compile, failing with the message its first
line names, and its twin <case>.ok.cpp, the closest program that is right, must compile.

usage: run.py [--src SRC] [DIR ...] [-- CXX [CXX_ARGS ...]]

DIR defaults to this file's directory, SRC to the repository's src/, and the compiler to $CXX or c++.
Each file is compiled with -std=c++20 -fsyntax-only -I<SRC> and the project's warning flags.
A .fail.cpp starts with `// expect: TEXT`; alternatives are separated by ` || ` (g++ words first, then
clang's), and the compiler's output must contain one of them, so a case fails for its own reason.
Exit 0: every twin behaves; 1: findings, one line each; 2: the runner could not judge (no compiler, no
directory).
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS = ["-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-ffp-contract=off"]
EXPECT = "// expect:"
TAG = "[units-compile-fail; SUB-16]"


def compile_one(cxx: list[str], src: str, path: str) -> tuple[bool, str]:
    env = dict(os.environ, LC_ALL="C", LANG="C")  # plain quotes in g++'s messages
    proc = subprocess.run(cxx + FLAGS + ["-I" + src, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env)
    out = proc.stdout.replace("\u2018", "'").replace("\u2019", "'")
    return proc.returncode == 0, out


def first_error(out: str) -> str:
    for line in out.splitlines():
        if "error" in line:
            return line.strip()
    return out.strip().splitlines()[0] if out.strip() else "(no output)"


def expectations(path: str) -> list[str] | None:
    with open(path, encoding="utf-8") as f:
        first = f.readline().strip()
    if not first.startswith(EXPECT):
        return None
    alts = [a.strip() for a in first[len(EXPECT):].split("||")]
    return [a for a in alts if a] or None


def cases(directory: str) -> tuple[list[str], list[str]]:
    """The case files of one directory, and the findings about pairing."""
    names = sorted(n for n in os.listdir(directory) if n.endswith((".fail.cpp", ".ok.cpp")))
    findings = []
    stems = {n.rsplit(".", 2)[0] for n in names}
    for stem in sorted(stems):
        for kind in ("fail", "ok"):
            if f"{stem}.{kind}.cpp" not in names:
                other = "ok" if kind == "fail" else "fail"
                findings.append(f"{os.path.join(directory, stem)}.{other}.cpp: has no twin {stem}.{kind}.cpp {TAG}")
    if not names:
        findings.append(f"{directory}: no .fail.cpp/.ok.cpp cases {TAG}")
    return [os.path.join(directory, n) for n in names], findings


def judge(cxx: list[str], src: str, path: str) -> tuple[str | None, str]:
    """A finding (or None) and a progress line for one case file."""
    compiled, out = compile_one(cxx, src, path)
    if path.endswith(".ok.cpp"):
        if compiled:
            return None, f"ok: {path} compiles"
        return f"{path}: does not compile, but must: {first_error(out)} {TAG}", ""
    expect = expectations(path)
    if expect is None:
        return f"{path}: first line must be '{EXPECT} TEXT' naming the expected compiler message {TAG}", ""
    if compiled:
        return f"{path}: compiles, but must not {TAG}", ""
    if not any(e in out for e in expect):
        wanted = " or ".join(repr(e) for e in expect)
        return f"{path}: fails, but without {wanted}: {first_error(out)} {TAG}", ""
    return None, f"ok: {path} fails as it must"


def main() -> int:
    argv = sys.argv[1:]
    cxx = []
    if "--" in argv:
        i = argv.index("--")
        argv, cxx = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--src", default=os.path.normpath(os.path.join(HERE, "..", "..", "src")))
    p.add_argument("dirs", nargs="*", default=[HERE])
    a = p.parse_args(argv)
    if not cxx:
        cxx = [os.environ.get("CXX") or "c++"]
    if shutil.which(cxx[0]) is None:
        print(f"run.py: compiler {cxx[0]!r} not found", file=sys.stderr)
        return 2
    if not os.path.isdir(a.src):
        print(f"run.py: include directory {a.src!r} not found", file=sys.stderr)
        return 2
    files, findings = [], []
    for d in a.dirs:
        if not os.path.isdir(d):
            print(f"run.py: {d!r} is not a directory", file=sys.stderr)
            return 2
        fs, fd = cases(d)
        files += fs
        findings += fd
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda f: judge(cxx, a.src, f), files))
    for finding, progress in results:
        if finding:
            findings.append(finding)
        else:
            print(progress)
    for f in findings:
        print(f)
    pairs = sum(1 for f in files if f.endswith(".fail.cpp"))
    print(f"units compile-fail: {pairs} pairs, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
