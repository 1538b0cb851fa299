#!/usr/bin/env bash
# Installs every Debian package BLIS needs and the pinned tree-sitter grammars.
# Idempotent: when everything is present it only checks and returns (a second or so).
# Versions come from the versions file (versions.yaml); nothing here restates one.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
versions="$here/versions.yaml"

# Reads one `key: value` line of versions.yaml without needing PyYAML (which this script installs).
ver() { sed -n "s/^  $1: *\"\{0,1\}\([^\"]*\)\"\{0,1\} *$/\1/p" "$versions" | head -n1; }
llvm=$(ver llvm_major)
[ -n "$llvm" ] || { echo "setup: versions.yaml names no toolchain.llvm_major" >&2; exit 1; }

pkgs=(g++ cmake meson ninja-build pkg-config git python3 python3-jinja2 python3-yaml
      libyaml-cpp-dev librapidcheck-dev libgit2-dev libtree-sitter-dev
      libgtest-dev libgmock-dev nlohmann-json3-dev libsimdjson-dev libfmt-dev
      "clang-$llvm" "libclang-cpp$llvm-dev" "libclang-$llvm-dev" "llvm-$llvm-dev"
      nodejs npm ca-certificates)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The image may ship node and npm outside dpkg; then they are present and not ours to install.
if command -v npm >/dev/null 2>&1; then
  filtered=(); for p in "${missing[@]}"; do case $p in nodejs|npm) ;; *) filtered+=("$p");; esac; done
  missing=("${filtered[@]}")
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then echo "setup: need root to install packages" >&2; exit 1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# tree-sitter grammars, pinned in versions.yaml to the ABI Debian's libtree-sitter accepts.
gdir="$here/third_party/grammars"
for g in python cpp; do
  v=$(ver "tree_sitter_$g")
  [ -n "$v" ] || { echo "setup: versions.yaml names no tree_sitter_$g" >&2; exit 1; }
  dest="$gdir/tree-sitter-$g"
  if [ -f "$dest/.version" ] && [ "$(cat "$dest/.version")" = "$v" ] && [ -f "$dest/src/parser.c" ]; then continue; fi
  echo "setup: fetching tree-sitter-$g $v"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "tree-sitter-$g@$v" >/dev/null)
  rm -rf "$dest"; mkdir -p "$dest"
  tar -xzf "$tmp"/tree-sitter-"$g"-*.tgz -C "$dest" --strip-components=1 package/src package/LICENSE 2>/dev/null \
    || tar -xzf "$tmp"/tree-sitter-"$g"-*.tgz -C "$dest" --strip-components=1 package/src
  echo "$v" > "$dest/.version"
  rm -rf "$tmp"
done
echo "setup: ok"
