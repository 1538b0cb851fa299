"""Building blocks for oracle stubs (checks/harness/oracle/loader.py).

A stub module stands in for something the oracle does not run (the GPU, torch, a transport, a platform, a
configuration object). Its names are either values the runner supplies or `Absent` placeholders: a class
that can be named, subclassed and used in annotations and isinstance checks, but fails loudly when called.
So a feature the stub replaces cannot be exercised by accident: the trace would otherwise record a decision
made by the stub, not by upstream.
"""

from __future__ import annotations

import sys
import types


class AbsentUse(RuntimeError):
    pass


class _AbsentMeta(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AbsentUse(f"oracle stub {cls.__module__}.{cls.__qualname__}.{name} was used: the replaced "
                        f"feature is outside what the oracle drives")

    def __getitem__(cls, item):
        return cls


def absent(module: types.ModuleType, *names: str) -> None:
    """Defines each name in `module` as a placeholder class that refuses to be called."""
    for name in names:
        def _init(self, *args, __name=name, **kwargs):
            raise AbsentUse(f"oracle stub {module.__name__}.{__name} was called: the replaced feature is "
                            f"outside what the oracle drives")
        cls = _AbsentMeta(name, (), {"__init__": _init, "__module__": module.__name__})
        setattr(module, name, cls)


def define(module: types.ModuleType, **values) -> None:
    for name, value in values.items():
        setattr(module, name, value)


def extract(module: types.ModuleType, source: bytes, path: str, names: list[str]) -> None:
    """Runs only the named top-level definitions (classes, functions, assignments) of an upstream file in
    `module`, so a module too entangled to import whole still contributes upstream's own code rather than a
    copy. The caller has verified `source` against the pinned blob (loader.OracleFinder)."""
    import ast

    tree = ast.parse(source, filename=path)
    wanted = set(names)
    body = []
    for node in tree.body:
        # The file's standard-library imports come along (typing names the definitions use).
        if isinstance(node, ast.Import) and all(a.name.split(".")[0] in sys.stdlib_module_names for a in node.names):
            body.append(node)
        elif (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
              and node.module.split(".")[0] in sys.stdlib_module_names):
            body.append(node)
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in wanted:
            body.append(node)
            wanted.discard(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            ids = {t.id for t in targets if isinstance(t, ast.Name)}
            if ids & wanted:
                body.append(node)
                wanted -= ids
    if wanted:
        raise ImportError(f"oracle: {path} defines no top-level {', '.join(sorted(wanted))}")
    code = compile(ast.Module(body=body, type_ignores=[]), path, "exec")
    exec(code, module.__dict__)
