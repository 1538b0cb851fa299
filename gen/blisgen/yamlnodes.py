"""YAML loading that keeps file:line:col for every value and refuses duplicate keys.

PyYAML's safe_load forgets positions and silently keeps the last of two equal keys; records need both
(errors must name file:line, and a duplicated key is a defect, not an override).
"""
from __future__ import annotations

import dataclasses
import yaml


class Core12Loader(yaml.SafeLoader):
    """PyYAML reads YAML 1.1 (yes/no are booleans, 1e3 is a string); the C++ readers read YAML 1.2's core
    schema. This loader resolves plain scalars as the C++ side does, so both agree on every document."""


Core12Loader.yaml_implicit_resolvers = {}
for _tag, _regexp, _first in (
        ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
        ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
        ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+)$", list("-+0123456789")),
        ("tag:yaml.org,2002:float",
         r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
         list("-+.0123456789"))):
    Core12Loader.add_implicit_resolver(_tag, __import__("re").compile(_regexp), _first)


def _construct_float12(loader, node):
    text = node.value
    low = text.lower()
    if low.endswith(".inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    if low == ".nan":
        return float("nan")
    v = float(text)
    mantissa = low.split("e")[0]
    if v in (float("inf"), float("-inf")) or (v == 0.0 and any(c in "123456789" for c in mantissa)):
        return text  # out of a double's range: kept as text, so a number field refuses it as the C++ reader does
    return v


def _construct_int12(loader, node):
    return int(node.value)


Core12Loader.add_constructor("tag:yaml.org,2002:float", _construct_float12)
Core12Loader.add_constructor("tag:yaml.org,2002:int", _construct_int12)


class GenError(Exception):
    """A user-facing error about an input file, already formatted as file:line:col: message."""


@dataclasses.dataclass(frozen=True)
class Loc:
    path: str
    line: int  # 1-based
    col: int   # 1-based

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


def loc_of(path: str, node: yaml.Node) -> Loc:
    return Loc(path, node.start_mark.line + 1, node.start_mark.column + 1)


@dataclasses.dataclass
class Value:
    """A plain value (str, int, float, bool, None, list[Value], dict[str, Value]) with its location."""
    v: object
    loc: Loc
    key_locs: dict | None = None  # for mappings: key -> Loc of the key

    def plain(self):
        if isinstance(self.v, list):
            return [x.plain() for x in self.v]
        if isinstance(self.v, dict):
            return {k: x.plain() for k, x in self.v.items()}
        return self.v


def _convert(path: str, node: yaml.Node, errors: list[str]) -> Value:
    loc = loc_of(path, node)
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Value] = {}
        keys: dict[str, Loc] = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                errors.append(f"{loc_of(path, knode)}: mapping keys must be plain strings")
                continue
            key = knode.value
            kloc = loc_of(path, knode)
            if key in out:
                errors.append(f"{kloc}: duplicate key '{key}' (first at line {keys[key].line})")
                continue
            keys[key] = kloc
            out[key] = _convert(path, vnode, errors)
        return Value(out, loc, keys)
    if isinstance(node, yaml.SequenceNode):
        return Value([_convert(path, n, errors) for n in node.value], loc)
    # Scalar: typed as YAML 1.2's core schema types it (str, int, bool, null, float).
    return Value(_CTOR.construct_object(node, deep=True), loc)


_CTOR = Core12Loader("")


def load(path: str, text: str | None = None, display: str | None = None) -> Value:
    """Loads one YAML document from path; raises GenError listing every problem with its location."""
    shown = display or path
    if text is None:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    try:
        nodes = list(yaml.compose_all(text, Loader=Core12Loader))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{shown}:{mark.line + 1}:{mark.column + 1}" if mark else shown
        raise GenError(f"{where}: not valid YAML: {getattr(e, 'problem', e)}") from None
    if len(nodes) != 1 or nodes[0] is None:
        raise GenError(f"{shown}:1:1: expected exactly one YAML document, found {len(nodes)}")
    errors: list[str] = []
    value = _convert(shown, nodes[0], errors)
    if errors:
        raise GenError("\n".join(errors))
    return value
