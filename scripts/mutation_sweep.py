#!/usr/bin/env python3
"""The mutation sweep (design T7): break each ported function one line at a time and show the tests catch it.

A plan (JSON) names groups of C++ sources and the ninja test targets that cover them, and the mutants the
project accepts as surviving, each with its reason (an equivalent mutant: a break no behaviour can show).
The sweep copies the source tree into a work directory, configures a debug build there, checks the tests
pass on the unbroken sources, then for every line of every function body makes one mutant (the first
operator that applies, in a fixed order), rebuilds the group's targets, runs them, and counts the mutant
caught when a test fails or hangs. The sources of the repository are never written.

Exit status: 0 when every compiled mutant is caught or accepted with a reason, 1 when one survives
unaccepted or an acceptance names a mutant that no longer survives, 2 on bad input or a broken baseline.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

# Operators, tried in this order; the first that applies to a line is that line's mutant.
REL_FLIPS = [(" <= ", " < "), (" >= ", " > "), (" == ", " != "), (" != ", " == "), (" < ", " <= "), (" > ", " >= ")]
LOGIC_FLIPS = [(" && ", " || "), (" || ", " && ")]
ARITH_FLIPS = [(" += ", " -= "), (" -= ", " += "), ("++", "--"), ("--", "++"), (" + ", " - "), (" - ", " + ")]
BOOL_FLIPS = [("true", "false"), ("false", "true")]
CONTROL = re.compile(r"\b(if|while)\s*\(")
# A declaration: deleting it cannot compile (its name is used later), so it is not made a mutant.
DECLARATION = re.compile(r"^(const\s+)?(auto|[A-Za-z_][\w:]*(<[^;=]*>)?)[\s*&]+[A-Za-z_]\w*\s*(=|;|\(|\{)")


def strip_comment(line):
    """The line without a trailing // comment (strings holding // are left alone)."""
    in_str = None
    i = 0
    while i < len(line):
        c = line[i]
        if in_str:
            if c == "\\":
                i += 2
                continue
            if c == in_str:
                in_str = None
        elif c in "\"'":
            in_str = c
        elif line.startswith("//", i):
            return line[:i]
        i += 1
    return line


def code_only(line):
    """The line with string and character literals blanked, so operators inside them are not mutated."""
    out = []
    in_str = None
    i = 0
    while i < len(line):
        c = line[i]
        if in_str:
            if c == "\\":
                out.append("__")
                i += 2
                continue
            out.append(c if c == in_str else "_")
            if c == in_str:
                in_str = None
        else:
            if c in "\"'":
                in_str = c
            out.append(c)
        i += 1
    return "".join(out)


def replace_first(line, masked, old, new, word=False):
    """Replaces the first occurrence of old in the unmasked code; None when there is none."""
    pattern = r"\b" + re.escape(old) + r"\b" if word else re.escape(old)
    m = re.search(pattern, masked)
    if not m:
        return None
    return line[:m.start()] + new + line[m.end():]


def negate_condition(line, masked):
    m = CONTROL.search(masked)
    if not m:
        return None
    start = m.end()  # just after "("
    depth = 1
    for i in range(start, len(masked)):
        if masked[i] == "(":
            depth += 1
        elif masked[i] == ")":
            depth -= 1
            if depth == 0:
                return line[:start] + "!(" + line[start:i] + ")" + line[i:]
    return None  # the condition continues on the next line


def mutate(line, statement_start):
    """(operator name, mutated line) for the first operator that applies, or None."""
    code = strip_comment(line)
    masked = code_only(code)
    rest = line[len(code):]
    m = negate_condition(code, masked)
    if m is not None:
        return "negate-condition", m + rest
    for ops, name in ((REL_FLIPS, "relational"), (LOGIC_FLIPS, "logical")):
        for old, new in ops:
            m = replace_first(code, masked, old, new)
            if m is not None:
                return f"{name} {old.strip()} -> {new.strip()}", m + rest
    for old, new in BOOL_FLIPS:
        m = replace_first(code, masked, old, new, word=True)
        if m is not None:
            return f"boolean {old} -> {new}", m + rest
    for old, new in ARITH_FLIPS:
        if old in ("++", "--") and ("++" not in masked and "--" not in masked):
            continue
        m = replace_first(code, masked, old, new)
        if m is not None:
            return f"arithmetic {old.strip()} -> {new.strip()}", m + rest
    stripped = code.strip()
    if (statement_start and stripped.endswith(";") and not stripped.startswith("return")
            and not DECLARATION.match(stripped)):
        indent = line[:len(line) - len(line.lstrip())]
        return "delete-statement", indent + ";  // mutant: deleted\n"
    return None


def function_body_lines(text):
    """Line numbers (1-based) inside function bodies: brace depth beyond namespaces, not brace-only lines."""
    lines = text.splitlines(keepends=True)
    stack = []  # 'ns' or 'code' per open brace
    result = []
    in_block_comment = False
    prev_end = ";"
    for n, raw in enumerate(lines, 1):
        line = raw
        if in_block_comment:
            if "*/" in line:
                in_block_comment = False
            continue
        if line.lstrip().startswith("/*"):
            in_block_comment = "*/" not in line
            continue
        code = code_only(strip_comment(line)).rstrip()
        s = code.strip()
        inside = any(k == "code" for k in stack)
        if inside and s and s not in ("{", "}", "};", "} else {") and not s.startswith("#"):
            result.append((n, prev_end in (";", "{", "}", ":")))
        for c in code:
            if c == "{":
                stack.append("ns" if re.match(r"\s*namespace\b", code) and not inside else "code")
            elif c == "}" and stack:
                stack.pop()
        if s:
            prev_end = s[-1]
    return result


def enumerate_mutants(root, sources):
    mutants = []
    for rel in sources:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = f.read()
        lines = text.splitlines(keepends=True)
        for n, statement_start in function_body_lines(text):
            got = mutate(lines[n - 1], statement_start)
            if got:
                mutants.append({"file": rel, "line": n, "operator": got[0], "text": lines[n - 1].strip(),
                                "mutated": got[1]})
    return mutants


def run(cmd, cwd, timeout=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def copy_tree(src, dst):
    """Copies the source tree, leaving out git's store and every build directory (one holding meson-private),
    wherever it is and whatever its name, so a work directory inside a build directory is never copied."""
    def ignore(directory, names):
        return [n for n in names if n in (".git", "__pycache__")
                or os.path.isdir(os.path.join(directory, n, "meson-private"))]
    def copy_changed(a, b):
        # A file whose bytes differ is written anew (a fresh mtime, so ninja rebuilds what depends on it; a
        # copy keeping the source's mtime could leave a stale mutant's object in place); the same bytes are
        # left alone, so a reused work directory rebuilds only what changed.
        if os.path.isfile(b) and not os.path.islink(b):
            with open(a, "rb") as fa, open(b, "rb") as fb:
                if fa.read() == fb.read():
                    return b
        shutil.copyfile(a, b)
        shutil.copymode(a, b)
        return b
    shutil.copytree(src, dst, ignore=ignore, symlinks=True, dirs_exist_ok=True, copy_function=copy_changed)


def build_and_test(build, targets, test_timeout):
    rc, out = run(["ninja", "-C", build] + targets, build)
    if rc != 0:
        return "not-compiled", out[-2000:]
    for t in targets:
        rc, out = run([os.path.join(build, t)], build, timeout=test_timeout)
        if rc == "timeout":
            return "caught", f"{t} hung (timed out after {test_timeout} s)"
        if rc != 0:
            return "caught", f"{t} failed"
    return "survived", ""


def key(m):
    return (m["file"], m["text"], m["operator"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plan", required=True, help="the sweep's plan (JSON)")
    ap.add_argument("--root", required=True, help="the source tree (copied, never written)")
    ap.add_argument("--workdir", required=True, help="where the copy and its build live (reused if present)")
    ap.add_argument("--report", help="write the results as Markdown to this file")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--only", help="sweep only the sources whose path contains this")
    ap.add_argument("--lines", help="sweep only the mutants at these places: a file of `path:line` lines (e.g. the "
                    "survivors of an earlier sweep, to check the tests added since catch them)")
    ap.add_argument("--test-timeout", type=int, default=60)
    args = ap.parse_args()

    with open(args.plan, encoding="utf-8") as f:
        plan = json.load(f)
    accepted = {(a["file"], a["text"], a["operator"]): a["reason"] for a in plan.get("accepted", [])}
    for a in plan.get("accepted", []):
        if not a.get("reason", "").strip():
            print(f"mutation sweep: accepted mutant {a['file']}: {a['text']!r} has no reason", file=sys.stderr)
            return 2

    groups = []
    for g in plan["groups"]:
        srcs = [s for s in g["sources"] if not args.only or args.only in s]
        if srcs:
            groups.append((srcs, g["tests"]))
    for srcs, _ in groups:
        for s in srcs:
            if not os.path.isfile(os.path.join(args.root, s)):
                print(f"mutation sweep: plan source {s} does not exist under {args.root}", file=sys.stderr)
                return 2

    all_mutants = [(m, tests) for srcs, tests in groups for m in enumerate_mutants(args.root, srcs)]
    if args.lines:
        with open(args.lines, encoding="utf-8") as f:
            wanted = {l.strip() for l in f if l.strip()}
        all_mutants = [(m, t) for m, t in all_mutants if f"{m['file']}:{m['line']}" in wanted]
    if args.list:
        for m, _ in all_mutants:
            print(f"{m['file']}:{m['line']}: {m['operator']}: {m['text']}")
        print(f"{len(all_mutants)} mutants")
        return 0

    src = os.path.join(args.workdir, "src")
    build = os.path.join(args.workdir, "build")
    copy_tree(args.root, src)
    if not os.path.isfile(os.path.join(build, "build.ninja")):
        rc, out = run(["meson", "setup", build, "--buildtype=debug"], src)
        if rc != 0:
            print(out, file=sys.stderr)
            return 2
    every_target = sorted({t for _, tests in groups for t in tests})
    verdict, detail = build_and_test(build, every_target, args.test_timeout)
    if verdict != "survived":
        print(f"mutation sweep: the unbroken sources do not build and pass: {detail}", file=sys.stderr)
        return 2

    started = time.monotonic()
    results = []
    for i, (m, tests) in enumerate(all_mutants, 1):
        path = os.path.join(src, m["file"])
        with open(path, encoding="utf-8") as f:
            original = f.read()
        lines = original.splitlines(keepends=True)
        lines[m["line"] - 1] = m["mutated"]
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(lines))
        try:
            verdict, detail = build_and_test(build, tests, args.test_timeout)
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
        results.append(dict(m, verdict=verdict, detail=detail if verdict == "caught" else ""))
        print(f"[{i}/{len(all_mutants)}] {verdict:12} {m['file']}:{m['line']} {m['operator']}", flush=True)
    elapsed = time.monotonic() - started

    survivors = [r for r in results if r["verdict"] == "survived"]
    unaccepted = [r for r in survivors if key(r) not in accepted]
    surviving_keys = {key(r) for r in survivors}
    swept_keys = {key(r) for r in results}
    stale = [k for k in accepted if k not in surviving_keys and (not args.only or args.only in k[0])
             and (not args.lines or k in swept_keys)]

    lines = summary(results, accepted, elapsed)
    for k in stale:
        lines.append(f"- stale acceptance (the mutant is gone or now caught): {k[0]}: `{k[1]}` ({k[2]})")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(text)
    return 1 if unaccepted or stale else 0


def summary(results, accepted, elapsed):
    out = ["# Mutation sweep (design T7)", "",
           "Each line of each ported function body broken once (first applicable operator: negated condition, "
           "flipped relational or logical operator, flipped boolean, flipped arithmetic, deleted statement); "
           "a mutant that does not compile is not counted.", "",
           "| source | mutants | compiled | caught | accepted | survived | catch rate |", "|---|---|---|---|---|---|---|"]
    files = sorted({r["file"] for r in results})
    for f in files + ["all"]:
        rs = results if f == "all" else [r for r in results if r["file"] == f]
        compiled = [r for r in rs if r["verdict"] != "not-compiled"]
        caught = [r for r in rs if r["verdict"] == "caught"]
        acc = [r for r in rs if r["verdict"] == "survived" and key(r) in accepted]
        surv = [r for r in rs if r["verdict"] == "survived" and key(r) not in accepted]
        rate = f"{100.0 * len(caught) / len(compiled):.1f}%" if compiled else "-"
        out.append(f"| {f} | {len(rs)} | {len(compiled)} | {len(caught)} | {len(acc)} | {len(surv)} | {rate} |")
    out += ["", f"Swept in {elapsed:.0f} s.", ""]
    acc = [r for r in results if r["verdict"] == "survived" and key(r) in accepted]
    surv = [r for r in results if r["verdict"] == "survived" and key(r) not in accepted]
    if acc:
        out += ["## Accepted survivors (equivalent mutants)", ""]
        out += [f"- {r['file']}:{r['line']} {r['operator']}: `{r['text']}`: {accepted[key(r)]}" for r in acc]
        out.append("")
    out += ["## Survivors not accepted", ""]
    out += [f"- {r['file']}:{r['line']} {r['operator']}: `{r['text']}`" for r in surv] or ["none"]
    return out


if __name__ == "__main__":
    sys.exit(main())
