#!/usr/bin/env bash
# build.sh — the web page: SDL2 and Lua from Debian's source packages, the engine and window by emscripten, into build-web/site.
#
#   tools/web/build.sh            build (or bring up to date) build-web/site
#
# What it makes, and what it keeps for the next build:
#   build-web/deps/src/<package>-<version>/   Debian's source packages (apt-get source), kept while
#                                             the archive's version is the same
#   build-web/deps/sdl2-<version>/            SDL2 compiled for the page, made once per version
#   build-web/cmake/                          the engine, window and program (emcmake; incremental)
#   build-web/site/                           the static folder: index.html, flockbox.{js,wasm,data},
#                                             the page's scripts and Debian's CodeMirror
# Nothing is downloaded but Debian's source packages. ./setup.sh web installs what this needs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/build-web
jobs=$(nproc)

# Debian's emscripten 3.1.6 runs its JavaScript optimiser with Node, which finds Debian's node-acorn
# only through NODE_PATH.
export NODE_PATH=/usr/share/nodejs:/usr/lib/nodejs${NODE_PATH:+:$NODE_PATH}

say() { echo "web: $*"; }

# source_of PACKAGE: the folder of PACKAGE's Debian source at the archive's version, fetched once.
source_of() {
  local package=$1 version folder
  version=$(apt-cache showsrc "$package" 2>/dev/null | awk '/^Version:/ {print $2; exit}')
  if [ -z "$version" ]; then
    echo "web: apt-cache knows no source package $package: is there a deb-src entry? (./setup.sh web adds one)" >&2
    exit 1
  fi
  folder=$out/deps/src/$package-$version
  if [ ! -f "$folder/.complete" ]; then
    say "fetching Debian's source of $package $version (apt-get source)" >&2
    rm -rf "$folder" "$folder.tmp"
    mkdir -p "$folder.tmp"
    (cd "$folder.tmp" && apt-get source -qq "$package=$version" >/dev/null 2>&1) || {
      echo "web: apt-get source $package=$version failed" >&2
      exit 1
    }
    local tree
    tree=$(find "$folder.tmp" -mindepth 1 -maxdepth 1 -type d | head -1)
    mv "$tree" "$folder"
    rm -rf "$folder.tmp"
    touch "$folder/.complete"
  fi
  echo "$folder"
}

# SDL2 for the page from Debian's source, once per version: no threads (the page has one), static.
build_sdl2() {
  local src=$1 version prefix
  version=$(basename "$src")
  prefix=$out/deps/$version
  if [ ! -f "$prefix/.complete" ]; then
    say "building $version for the page (once per version)" >&2
    rm -rf "$prefix" "$out/deps/$version-build"
    emcmake cmake -S "$src" -B "$out/deps/$version-build" -DCMAKE_BUILD_TYPE=Release \
      -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DSDL_THREADS=OFF \
      -DCMAKE_INSTALL_PREFIX="$prefix" >"$out/deps/$version.log" 2>&1
    cmake --build "$out/deps/$version-build" -j"$jobs" >>"$out/deps/$version.log" 2>&1
    cmake --install "$out/deps/$version-build" >>"$out/deps/$version.log" 2>&1
    rm -rf "$out/deps/$version-build"
    touch "$prefix/.complete"
  fi
  echo "$prefix"
}

mkdir -p "$out/deps/src"
sdl2_src=$(source_of libsdl2)
lua_src=$(source_of lua5.4)
sdl2=$(build_sdl2 "$sdl2_src")

say "building the engine, window and program (emscripten)"
emcmake cmake -S "$root" -B "$out/cmake" -DCMAKE_BUILD_TYPE=Release -DFB_TESTS=OFF \
  -DFB_WEB_LUA_SOURCE="$lua_src/src" -DSDL2_DIR="$sdl2/lib/cmake/SDL2" >/dev/null
cmake --build "$out/cmake" -j"$jobs" --target flockbox

say "assembling build-web/site"
site=$out/site
rm -rf "$site.tmp"
mkdir -p "$site.tmp/codemirror"
cp "$out/cmake/flockbox.js" "$out/cmake/flockbox.wasm" "$out/cmake/flockbox.data" "$site.tmp/"
cp "$root"/web/index.html "$root"/web/*.js "$root"/web/*.css "$site.tmp/"
cm=/usr/share/javascript/codemirror
cp "$cm/lib/codemirror.js" "$cm/lib/codemirror.css" "$cm/mode/lua/lua.js" "$cm/addon/edit/matchbrackets.js" "$site.tmp/codemirror/"
rm -rf "$site"
mv "$site.tmp" "$site"
say "done: $site ($(du -sh "$site" | cut -f1))"
