"""Loads invariants/*.yaml, checks each against schemas/invariant.yaml and the cross-record rules."""
from __future__ import annotations

import dataclasses
import os
import re

from .schema import Schema
from .yamlnodes import GenError, Value, load

STATUS_ORDER = ["ci", "partial", "new", "review", "practice"]
RUNS_SUITE = {"test": None, "data": "data", "upstream": "upstream", "slow": "slow", "release": "release"}


@dataclasses.dataclass
class Check:
    name: str
    runs: str
    target: str
    status: str
    command: list[str] | None
    input: str
    known_bad: str | None
    expect: str | None
    runner: str
    in_build: bool
    lint: dict | None = None  # {scope, allow: [{path, why}], lists: {name: [{value, names, why}]}} where declared


@dataclasses.dataclass
class Record:
    id: str
    family: str
    title: str
    section: str
    statement: str
    applies_to: list[str]
    kind: list[str]
    checks: list[Check]
    review: dict | None
    status: str
    cpp_counterpart: dict | None
    not_applicable: str | None
    gaps: list[str]
    trigger: str | None
    undefined: str | None
    path: str

    @property
    def sort_key(self):
        return id_sort_key(self.id)


# The design's order of families (§1); records sort by family in this order, then by number.
FAMILY_ORDER = ["X", "SUB", "VLM", "SGL", "RTR", "SIM", "CFG", "FID", "DEV", "VAL", "D", "COV", "LIF", "T"]


def id_sort_key(ident: str):
    m = re.fullmatch(r"(T-[A-Z]+|[A-Z]+-?)([0-9]+)", ident)
    if not m:
        return (len(FAMILY_ORDER), ident, 0)
    fam = family_of(ident)
    rank = FAMILY_ORDER.index(fam) if fam in FAMILY_ORDER else len(FAMILY_ORDER)
    return (rank, m.group(1), int(m.group(2)))


def family_of(ident: str) -> str | None:
    if ident.startswith("T-"):
        return "T"
    m = re.fullmatch(r"([A-Z]+)-?[0-9]+", ident)
    return m.group(1) if m else None


class Families:
    def __init__(self, schemas: str):
        raw = load(os.path.join(schemas, "invariant-families.yaml")).plain()
        self.families = raw["families"]
        self.triggers = raw["triggers"]

    def all_ids(self) -> list[str]:
        ids = [f"{f['prefix']}{i}" for f in self.families.values() for i in range(1, f["count"] + 1)]
        ids += [f"T-{t}{i}" for t, n in self.triggers.items() for i in range(1, n + 1)]
        return sorted(ids, key=id_sort_key)

    def explain_outside(self, ident: str) -> str | None:
        """None when ident is one of the design's identifiers; otherwise why it is not."""
        if ident in set(self.all_ids()):
            return None
        fam = family_of(ident)
        if fam == "T":
            letter = re.match(r"T-([A-Z]+)", ident).group(1)
            if letter not in self.triggers:
                return f"no trigger T-{letter} exists (triggers: {', '.join(sorted(self.triggers))})"
            return f"trigger T-{letter} has outcomes 1 to {self.triggers[letter]}"
        if fam in self.families:
            return f"family {fam} is numbered 1 to {self.families[fam]['count']}"
        return f"'{ident}' is in no family ({', '.join(self.families)}, T-)"


def _opt(rec: dict, key: str, default=None):
    v = rec.get(key)
    return default if v is None else v.plain()


def _record_from(value: Value, path: str, root: str, exes: set[str] | None, errors: list[str]) -> Record:
    r = value.v
    checks = []
    for c in r["checks"].v:
        cv = c.v
        cmd = _opt(cv, "command")
        checks.append(Check(
            name=cv["name"].v, runs=cv["runs"].v, target=cv["target"].v, status=cv["status"].v,
            command=cmd, input=_opt(cv, "input", "."), known_bad=_opt(cv, "known_bad"),
            expect=_opt(cv, "expect"), runner=_opt(cv, "runner", "meson"),
            in_build=_command_in_build(cmd, root, exes)
            and (_opt(cv, "runner", "meson") in ("meson", "lint") or os.path.isfile(os.path.join(root, cv["target"].v))),
            lint=_opt(cv, "lint")))
    return Record(
        id=r["id"].v, family=r["family"].v, title=r["title"].v, section=r["section"].v,
        statement=" ".join(r["statement"].v.split()), applies_to=r["applies_to"].plain(),
        kind=r["kind"].plain(), checks=checks, review=_opt(r, "review"), status=r["status"].v,
        cpp_counterpart=_opt(r, "cpp_counterpart"), not_applicable=_opt(r, "not_applicable"),
        gaps=_opt(r, "gaps", []), trigger=_opt(r, "trigger"), undefined=_opt(r, "undefined"), path=path)


def _command_in_build(cmd: list[str] | None, root: str, exes: set[str] | None) -> bool:
    """Whether the program a command starts with exists: a script in the tree or an executable the build makes."""
    if not cmd:
        return False
    first = cmd[0]
    m = re.fullmatch(r"@EXE:([a-z0-9\-]+)@", first)
    if m:
        return exes is None or m.group(1) in exes
    if first == "@PY@" and len(cmd) > 1:
        script = cmd[1].replace("@SRC@/", "")
        return os.path.isfile(os.path.join(root, script))
    return False


def _cross_check(rec: Record, value: Value, families: Families, root: str, errors: list[str]) -> None:
    r = value.v
    at = lambda key: r[key].loc if key in r else value.loc  # noqa: E731
    base = os.path.splitext(os.path.basename(rec.path))[0]
    if base != rec.id:
        errors.append(f"{at('id')}: id '{rec.id}' does not match the file name '{base}.yaml'")
    fam = family_of(rec.id)
    if fam != rec.family:
        errors.append(f"{at('family')}: family '{rec.family}' does not match the id '{rec.id}' (family {fam})")
    why = families.explain_outside(rec.id)
    if why:
        errors.append(f"{at('id')}: '{rec.id}' is outside the design's families: {why}")
    if rec.family == "T":
        if not rec.trigger and not rec.undefined:
            errors.append(f"{value.loc}: a trigger outcome needs 'trigger' (or 'undefined' with a reason)")
    else:
        for key in ("trigger", "undefined"):
            if key in r:
                errors.append(f"{r[key].loc}: '{key}' is only for trigger outcomes (T-...)")
    names = set()
    for c, cval in zip(rec.checks, r["checks"].v):
        cl = cval.v
        cat = lambda key: cl[key].loc if key in cl else cval.loc  # noqa: E731
        if c.name in names:
            errors.append(f"{cat('name')}: duplicate check name '{c.name}' in {rec.id}")
        names.add(c.name)
        if (c.runs == "practice") != (c.status == "practice"):
            errors.append(f"{cat('status')}: check '{c.name}': runs: practice goes with status: practice and only with it")
        if c.status == "ci":
            if not c.command:
                errors.append(f"{cval.loc}: ci check '{c.name}' of {rec.id} has no command, so nothing can run it")
            elif not c.in_build:
                errors.append(f"{cat('command')}: ci check '{c.name}' of {rec.id}: its program "
                              f"'{c.command[0] if c.command[0] != '@PY@' else c.command[1]}'" + (f" or its script '{c.target}'" if c.runner == 'script' else '') + ' does not exist in the build')
            if not c.known_bad:
                errors.append(f"{cval.loc}: ci check '{c.name}' of {rec.id} has no known_bad input (X18)")
            elif not os.path.exists(os.path.join(root, c.known_bad)):
                errors.append(f"{cat('known_bad')}: known_bad '{c.known_bad}' of check '{c.name}' does not exist")
            if c.command and "@INPUT@" not in c.command:
                errors.append(f"{cat('command')}: ci check '{c.name}': the command must take @INPUT@ so the "
                              f"harness can run it on its known-bad input")
    statuses = {c.status for c in rec.checks}
    s = rec.status
    sl = at("status")
    if s == "ci" and ("ci" not in statuses or "new" in statuses):
        errors.append(f"{sl}: status ci needs every automated check at ci (found: {sorted(statuses) or 'no checks'})")
    if s == "partial" and not ({"ci", "new"} <= statuses):
        errors.append(f"{sl}: status partial needs at least one ci and one new check")
    if s in ("new", "review") and "ci" in statuses:
        errors.append(f"{sl}: status {s} but a check is at ci: the record's status must be honest (ci or partial)")
    if s == "review" and rec.review is None:
        errors.append(f"{sl}: status review needs a review question")
    if s == "practice" and (not rec.checks or statuses != {"practice"} or "practice" not in rec.kind):
        errors.append(f"{sl}: status practice needs kind practice and only practice checks")
    if "practice" in statuses and "practice" not in rec.kind:
        errors.append(f"{at('kind')}: a practice check needs 'practice' in kind")
    if "automated" in rec.kind and not (statuses - {"practice"}) and not rec.not_applicable:
        errors.append(f"{at('kind')}: kind automated but no automated check is named")


def list_record_files(root: str) -> list[str]:
    d = os.path.join(root, "invariants")
    return sorted((os.path.join("invariants", f) for f in os.listdir(d) if f.endswith(".yaml")),
                  key=lambda p: id_sort_key(os.path.basename(p)[:-5]))


def load_registry(root: str, exes: set[str] | None = None, only: list[str] | None = None,
                  require_complete: bool = True, schemas: str | None = None) -> list[Record]:
    schemas = schemas or os.path.join(root, "schemas")
    schema = Schema(os.path.join(schemas, "invariant.yaml"))
    families = Families(schemas)
    errors: list[str] = []
    records: list[Record] = []
    seen: dict[str, str] = {}
    for rel in list_record_files(root):
        if only and os.path.basename(rel)[:-5] not in only:
            continue
        try:
            value = load(os.path.join(root, rel), display=rel)
        except GenError as e:
            errors.append(str(e))
            continue
        errs = schema.validate(value)
        if errs:
            errors.extend(errs)
            continue
        rec = _record_from(value, rel, root, exes, errors)
        if rec.id in seen:
            errors.append(f"{value.v['id'].loc}: duplicate id '{rec.id}' (also in {seen[rec.id]})")
            continue
        seen[rec.id] = rel
        _cross_check(rec, value, families, root, errors)
        records.append(rec)
    if require_complete and not only:
        for ident in families.all_ids():
            if ident not in seen:
                errors.append(f"invariants/{ident}.yaml: missing: the design defines {ident} and every "
                              f"identifier needs a record")
    if not only and not errors:
        from . import lints  # the lint declarations span records: checked once all are read
        errors.extend(lints.specs(records, root)[1])
    if errors:
        raise GenError("\n".join(errors))
    return sorted(records, key=lambda r: r.sort_key)
