#!/usr/bin/env bash
# setup.sh — install what is missing (Debian 12), build, then run the default demo or every test.
#   ./setup.sh demo   install what the program needs, build it alone (Release), open scripts/classic_flock.lua
#   ./setup.sh test   install, build (Release, ASan+UBSan, libFuzzer, the web page), run the whole test suite under ctest
#   ./setup.sh web    install, build the web page into build-web/site and serve it on 127.0.0.1
#                     (--build-only: stop after the build)
set -euo pipefail
cd "$(dirname "$0")"

# What the program needs to build and run: the demo installs only these.
demo_packages=(cmake make gcc pkg-config liblua5.4-dev libsdl2-dev libstb-dev fonts-dejavu-core)

# Everything the tests need too.
packages=(cmake make gcc pkg-config liblua5.4-dev lua5.4 libsdl2-dev libstb-dev
          libcmocka-dev fonts-dejavu-core xvfb xauth
          parallel gnuplot-nox)  # sweeps: GNU parallel (tested in CI), gnuplot for their plots

# luacheck: the lint test over the shipped Lua (tests/cli_lint.sh), and flockbox --lint.
packages+=(lua-check)

# A real single-node Slurm for the Slurm script's test (tests/cli_slurm.sh): its daemons and
# clients, and munge, the authentication Slurm's messages carry.
packages+=(slurm-wlm munge)

# The web page (tools/web/build.sh): Debian's emscripten, CodeMirror for the page's editor, and
# dpkg-dev for apt-get source (SDL2 and Lua are compiled for the page from Debian's source packages).
# Its tests drive Debian's Chromium headless through chromedriver (tests/web).
web_packages=(cmake make emscripten libjs-codemirror libstb-dev fonts-dejavu-core dpkg-dev chromium chromium-driver)
packages+=(emscripten libjs-codemirror dpkg-dev chromium chromium-driver)

# The fuzz build (tests/fuzz): clang, and libFuzzer with the sanitizers (only recommended by clang).
packages+=(clang libclang-rt-dev)

install_missing() {  # install_missing PACKAGE...
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# apt-get source needs a deb-src entry, which Debian's images leave out: add one for each deb entry
# (same archive, suites and components), once, in a file of our own.
ensure_deb_src() {
  apt-cache showsrc libsdl2 2>/dev/null | grep -q '^Version:' && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "setup: adding deb-src entries (apt-get source needs them) in /etc/apt/sources.list.d/flockbox-deb-src.*"
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
      $sudo tee /etc/apt/sources.list.d/flockbox-deb-src.sources >/dev/null
  else
    grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | sed 's/^deb /deb-src /' |
      $sudo tee /etc/apt/sources.list.d/flockbox-deb-src.list >/dev/null
  fi
  $sudo apt-get update -qq
}

build() {  # build DIR [cmake options...]
  local dir=$1; shift
  cmake -S . -B "$dir" "$@" >/dev/null
  cmake --build "$dir" -j"$(nproc)"
}

# The libFuzzer targets only (tests/fuzz), with clang: the other two builds cover everything else.
build_fuzz() {
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFB_FUZZ=ON -DFB_TESTS=OFF >/dev/null
  cmake --build build-fuzz -j"$(nproc)" --target fuzz
}

case "${1:-demo}" in
  demo)
    echo "setup: checking the Debian packages the program needs"
    install_missing "${demo_packages[@]}"
    echo "setup: building build/flockbox (Release; the tests are built by ./setup.sh test)"
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFB_TESTS=OFF >/dev/null
    cmake --build build -j"$(nproc)" --target flockbox
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      exec build/flockbox scripts/classic_flock.lua
    fi
    echo "setup: no display; running headless and saving the last frame to classic_flock.png"
    exec build/flockbox --headless --steps 600 --png classic_flock.png scripts/classic_flock.lua
    ;;
  web)
    install_missing "${web_packages[@]}"
    ensure_deb_src
    tools/web/build.sh
    [ "${2:-}" = "--build-only" ] && exit 0
    echo "setup: open the URL below in a browser (Ctrl+C stops the server)"
    exec node tools/web/serve.js build-web/site 8080
    ;;
  test)
    install_missing "${packages[@]}"
    ensure_deb_src
    # The web page builds beside the native builds: much of its time is configuring SDL2 (once per
    # version), one short emcc run after another, which leaves a core free for them.
    echo "setup: building build-web/site (the web page) in the background, log in build-web/build.log"
    mkdir -p build-web
    tools/web/build.sh >build-web/build.log 2>&1 &
    web_build=$!
    echo "setup: building build/ (Release), build-asan/ (ASan+UBSan) and build-fuzz/ (libFuzzer)"
    build build -DCMAKE_BUILD_TYPE=Release -DFB_TESTS=ON  # ON: a demo build may have left it off
    build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFB_SANITIZE=ON -DFB_TESTS=ON
    build_fuzz
    if ! wait "$web_build"; then
      tail -n 40 build-web/build.log
      echo "setup: the web page's build failed (build-web/build.log)" >&2
      exit 1
    fi
    tail -n 1 build-web/build.log
    echo "setup: tests (Release; the web page's in headless Chromium)"
    export FB_REQUIRE_WEB=1  # a missing page fails its tests here, instead of skipping them
    ctest --test-dir build --output-on-failure -j2
    echo "setup: tests (AddressSanitizer + UndefinedBehaviorSanitizer)"
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -j2
    echo "setup: fuzzing (each libFuzzer target for 20 s on its seed corpus)"
    ctest --test-dir build-fuzz --output-on-failure -L fuzz
    ;;
  *)
    echo "usage: ./setup.sh [demo|test|web [--build-only]]" >&2
    exit 2
    ;;
esac
