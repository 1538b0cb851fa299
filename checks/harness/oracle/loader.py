"""The oracle's import machinery (X5, FID-1, FID-2, FID-8), shared by the engine runners.

An oracle runner imports a pinned upstream's own decision modules from a checkout given by path and runs
them unmodified; only the environment around them is replaced. This module is the one place where that
happens. It reads an engine's manifest (engines/<engine>/oracle/manifest.yaml):

  version: N                    # bumped whenever anything below changes (FID-1)
  guarded: [vllm, torch, ...]   # top-level packages whose every import must be listed
  real:                         # upstream modules loaded from the checkout, each checked against its blob
    - {module: a.b.c, path: a/b/c.py, blob: <40 hex>}
  shells:                       # packages whose __init__ is not run (an empty package stands in)
    - {module: a.b, kind: environment, reason: ...}
  replacements:                 # modules replaced by a stub from the runner's stubs file
    - {module: torch, kind: gpu, reason: ...}
  harness:                      # what the runner itself stands in for (the model runner, the clock, ...)
    - {site: runner.py Oracle.model_runner, kind: gpu, reason: ...}

An import under a guarded package that the manifest does not list fails ("not in the oracle manifest"),
so a replacement outside a listed site cannot happen silently. A real module whose bytes differ from the
pinned blob is refused, so the checkout's commit is verified for every module the runner loads.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import platform
import sys
import types
from typing import Callable

import yaml

from . import stubkit

KINDS = ("gpu", "clock", "transport", "environment", "platform", "configuration", "service", "transcription")


class ManifestError(Exception):
    pass


def git_blob_hash(data: bytes) -> str:
    """The git object id of a blob holding `data` (what `git rev-parse <commit>:<path>` prints)."""
    h = hashlib.sha1()
    h.update(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def load_manifest(path: str) -> dict:
    """The manifest, with `commit` set from the engine's Upstream record (engines/<engine>/upstream.yaml,
    beside the oracle directory): the one place the pin is written."""
    with open(path, encoding="utf-8") as f:
        manifest = yaml.safe_load(f)
    problems = validate_manifest(manifest)
    if problems:
        raise ManifestError(f"{path}: " + "; ".join(problems))
    with open(os.path.join(os.path.dirname(os.path.abspath(path)), "..", "upstream.yaml"), encoding="utf-8") as f:
        manifest["commit"] = yaml.safe_load(f)["commit"]
    return manifest


def validate_manifest(manifest) -> list[str]:
    """Every problem of a manifest's shape, named by field (empty when it is well formed)."""
    problems = []
    if not isinstance(manifest, dict):
        return ["the manifest is not a mapping"]
    for key in ("version", "guarded", "real", "shells", "replacements"):
        if key not in manifest:
            problems.append(f"field {key!r} is missing")
    if problems:
        return problems
    if not isinstance(manifest["version"], int) or manifest["version"] < 1:
        problems.append(f"version: {manifest['version']!r} is not a positive integer")
    for i, entry in enumerate(manifest.get("harness") or []):
        where = f"harness[{i}]"
        if not isinstance(entry, dict) or not entry.get("site"):
            problems.append(f"{where}: has no 'site'")
            continue
        if entry.get("kind") not in KINDS:
            problems.append(f"{where}: kind {entry.get('kind')!r} of {entry['site']!r} is not one of {', '.join(KINDS)}")
        if not entry.get("reason"):
            problems.append(f"{where}: {entry['site']!r} gives no reason")
    seen = {}
    for section in ("real", "shells", "replacements"):
        for i, entry in enumerate(manifest[section]):
            where = f"{section}[{i}]"
            if not isinstance(entry, dict) or "module" not in entry:
                problems.append(f"{where}: has no 'module'")
                continue
            module = entry["module"]
            if module in seen:
                problems.append(f"{where}: module {module!r} is listed twice (also in {seen[module]})")
            seen[module] = where
            if module.split(".")[0] not in manifest["guarded"]:
                problems.append(f"{where}: module {module!r} is not under a guarded package")
            if section == "real":
                for key in ("path", "blob"):
                    if key not in entry:
                        problems.append(f"{where}: field {key!r} is missing")
            else:
                kind = entry.get("kind")
                if kind not in KINDS:
                    problems.append(f"{where}: kind {kind!r} of {module!r} is not one of {', '.join(KINDS)}")
                if not entry.get("reason"):
                    problems.append(f"{where}: {module!r} gives no reason")
                extract = entry.get("extract")
                if extract is not None:
                    for key in ("path", "blob", "names"):
                        if key not in extract:
                            problems.append(f"{where}: extract of {module!r} has no {key!r}")
                if kind == "transcription" and not entry.get("cites"):
                    problems.append(f"{where}: transcription {module!r} cites no upstream function")
    named = manifest.get("named_like_upstream")
    if named is not None and not isinstance(named, list):
        problems.append("named_like_upstream: is not a list")
        named = []
    named_kinds = ("stand-in", "coincidence", "transcription")
    names_seen = set()
    for i, entry in enumerate(named or []):
        # FID-8: harness definitions named like upstream's (checks/harness/oracle/check_copies.py names)
        where = f"named_like_upstream[{i}]"
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or name.count(":") != 1 or not all(name.split(":")) \
                or not name.split(":")[0].endswith(".py"):
            problems.append(f"{where}: name {name!r} is not '<file>.py:<qualified name>'")
            continue
        if name in names_seen:
            problems.append(f"{where}: {name!r} is declared twice")
        names_seen.add(name)
        if entry.get("kind") not in named_kinds:
            problems.append(f"{where}: kind {entry.get('kind')!r} of {name!r} is not one of {', '.join(named_kinds)}")
        if not entry.get("reason"):
            problems.append(f"{where}: {name!r} gives no reason")
        for key in sorted(set(entry) - {"name", "kind", "reason"}):
            problems.append(f"{where}: {name!r} has an unknown field {key!r}")
    return problems


def manifest_hash(manifest: dict) -> str:
    return hashlib.sha256(json.dumps(manifest, sort_keys=True).encode()).hexdigest()


def environment_hash(manifest: dict, stubs_path: str) -> dict:
    """The harness environment a trace was recorded in (FID-2): Python's version, the manifest and the
    stubs file. Debian's packages stand in for a lock file; the oracle imports none outside the manifest."""
    with open(stubs_path, "rb") as f:
        stubs = f.read()
    env = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "manifest_sha256": manifest_hash(manifest),
        "stubs_sha256": hashlib.sha256(stubs).hexdigest(),
    }
    env["sha256"] = hashlib.sha256(json.dumps(env, sort_keys=True).encode()).hexdigest()
    return env


class _ModuleLoader(importlib.abc.Loader):
    def __init__(self, build: Callable[[types.ModuleType], None], is_package: bool):
        self._build = build
        self._is_package = is_package

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if self._is_package:
            module.__path__ = []
        self._build(module)


class OracleFinder(importlib.abc.MetaPathFinder):
    """Resolves every import under a guarded package from the manifest, and refuses the rest."""

    def __init__(self, manifest: dict, checkout: str, stubs: dict[str, Callable[[types.ModuleType], None]]):
        self.manifest = manifest
        self.checkout = os.path.abspath(checkout)
        self.guarded = set(manifest["guarded"])
        self.real = {e["module"]: e for e in manifest["real"]}
        self.shells = {e["module"]: e for e in manifest["shells"]}
        self.replacements = {e["module"]: e for e in manifest["replacements"]}
        self.stubs = stubs
        self.loaded_real: list[str] = []
        missing = sorted(m for m, e in self.replacements.items() if m not in stubs and "extract" not in e)
        if missing:
            raise ManifestError("replacements listed without a stub: " + ", ".join(missing))
        unlisted = sorted(set(stubs) - set(self.replacements))
        if unlisted:
            raise ManifestError("stubs not listed in the manifest: " + ", ".join(unlisted))

    def _read_verified(self, fullname: str, path: str, pinned: str) -> bytes:
        file = os.path.join(self.checkout, path)
        try:
            with open(file, "rb") as f:
                data = f.read()
        except OSError as e:
            raise ImportError(f"oracle: {fullname}: cannot read {file}: {e}") from e
        blob = git_blob_hash(data)
        if blob != pinned:
            raise ImportError(
                f"oracle: {path} in {self.checkout} has blob {blob}, not the pinned {pinned} "
                f"(commit {self.manifest['commit']}): refusing a checkout that is not the pin")
        return data

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] not in self.guarded:
            return None
        if fullname in self.real:
            entry = self.real[fullname]
            file = os.path.join(self.checkout, entry["path"])
            self._read_verified(fullname, entry["path"], entry["blob"])
            self.loaded_real.append(fullname)
            is_package = entry["path"].endswith("__init__.py")
            return importlib.util.spec_from_file_location(
                fullname, file,
                submodule_search_locations=[os.path.dirname(file)] if is_package else None)
        if fullname in self.shells:
            return importlib.machinery.ModuleSpec(fullname, _ModuleLoader(lambda m: None, True), is_package=True)
        if fullname in self.replacements:
            entry = self.replacements[fullname]
            stub = self.stubs.get(fullname)
            extract = entry.get("extract")

            def build(module, stub=stub, extract=extract):
                if stub is not None:
                    stub(module)
                if extract is not None:
                    data = self._read_verified(fullname, extract["path"], extract["blob"])
                    stubkit.extract(module, data, os.path.join(self.checkout, extract["path"]), extract["names"])

            # A replaced module may have listed submodules, so it is a package.
            return importlib.machinery.ModuleSpec(fullname, _ModuleLoader(build, True), is_package=True)
        raise ImportError(f"oracle: {fullname} is not in the oracle manifest (neither real, shell nor replaced)")


def install(manifest: dict, checkout: str, stubs: dict) -> OracleFinder:
    for name in list(sys.modules):
        if name.split(".")[0] in set(manifest["guarded"]):
            raise ManifestError(f"{name} was imported before the oracle finder was installed")
    finder = OracleFinder(manifest, checkout, stubs)
    sys.meta_path.insert(0, finder)
    return finder
