"""versions.yaml, the one place a version is written (X23): the C++ it becomes and the toolchain check."""
from __future__ import annotations

import os
import re

from .render import render
from .yamlnodes import GenError, load


def load_versions(root: str) -> dict:
    return load(os.path.join(root, "versions.yaml"), display="versions.yaml").plain()


def emit_cpp(root: str) -> str:
    v = load_versions(root)
    rows = [("blis", v["project"]["blis"])]
    rows += [(f"toolchain.{k}", str(x)) for k, x in v["toolchain"].items()]
    rows += [(f"dependencies.{k}", str(x)) for k, x in v["dependencies"].items()]
    rows += [(f"upstreams.{k}", f"{x['release']} @ {x['commit']}") for k, x in v["upstreams"].items()]
    return render("versions.cpp.j2", rows=rows)


def check_toolchain(root: str, cxx_version: str, meson_version: str, llvm_config_version: str | None) -> list[str]:
    """Compares the toolchain this build runs with against versions.yaml; returns the mismatches."""
    v = load_versions(root)["toolchain"]
    errs = []
    if cxx_version.split(".")[0] != str(v["gxx_major"]):
        errs.append(f"versions.yaml: toolchain.gxx_major is {v['gxx_major']} but the build's C++ compiler is {cxx_version}")
    def parts(s):
        return tuple(int(x) for x in re.findall(r"\d+", s)[:3])
    if parts(meson_version) < parts(str(v["meson_min"])):
        errs.append(f"versions.yaml: toolchain.meson_min is {v['meson_min']} but meson is {meson_version}")
    if llvm_config_version is not None and llvm_config_version.split(".")[0] != str(v["llvm_major"]):
        errs.append(f"versions.yaml: toolchain.llvm_major is {v['llvm_major']} but llvm-config reports {llvm_config_version}")
    return errs
