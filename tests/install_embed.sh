# install_embed.sh BUILD_DIR — installs flockbox into a scratch prefix and builds and runs examples/embed against it alone.
# Run from the source root (ctest's working folder). The examples are copied out and run from the
# scratch folder, so no file of this source tree can stand in for one the install forgot.
set -u
build=$1
src=$(pwd)
. "$src/tests/check_lib.sh"
prefix=$tmp/prefix
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig

if ! cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"
  echo "FAIL cmake --install"
  exit 1
fi

# Only the public API is installed, and it compiles on its own (C99, every warning an error).
check public_headers_only [ "$(ls "$prefix/include/flockbox")" = "$(printf 'flockbox.h\nflockbox_view.h')" ]
printf '#include <flockbox/flockbox_view.h>\n#include <flockbox/flockbox.h>\nint main(void) { return 0; }\n' >"$tmp/h.c"
check headers_compile cc -std=c99 -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$prefix/include" "$tmp/h.c"
check pc_engine pkg-config --exists flockbox
check pc_view pkg-config --exists flockbox-view
check pc_no_source_tree bash -c "! grep -rq '$src' '$prefix/lib/pkgconfig' '$prefix/lib/cmake'"
check shipped_rules [ -f "$prefix/share/flockbox/behaviours/lib/steering.lua" ]

cp -r "$src/examples/embed" "$tmp/embed"
cd "$tmp"
check make_examples make -s -C "$tmp/embed" >"$tmp/make.log" 2>&1 || cat "$tmp/make.log"

# The flock: 60 agents, every one inside the 100 x 100 world with a finite position, and the
# program's own rule (swirl, radius 25) holding them round the centre (spread over the whole world
# they would be about 38 from it on average).
sane_flock() {
  "$tmp/embed/embed_flock" >"$tmp/flock.out" 2>"$tmp/flock.err" || { cat "$tmp/flock.out" "$tmp/flock.err"; return 1; }
  cat "$tmp/flock.out"
  awk '
    /^after 20.0 s: 60 agents of boid, mean distance from \(50, 50\) / { head = 1; mean = $NF }
    /^agent / { split($0, f, /[(), ]+/); rows++  # agent ID at (X, Y) moving (VX, VY)
                for (k = 4; k <= 8; k++) if (k != 6 && f[k] != f[k] + 0) bad = 1
                if (f[4] < 0 || f[4] > 100 || f[5] < 0 || f[5] > 100) bad = 1 }
    END { exit !(head && rows == 5 && !bad && mean > 15 && mean < 35) }' "$tmp/flock.out"
}
check embed_flock sane_flock
check flock_needs_no_sdl bash -c "! ldd '$tmp/embed/embed_flock' | grep -qi sdl"

# The installed data folder is the one used: without the steering library the sim is refused.
mv "$prefix/share/flockbox/behaviours/lib/steering.lua" "$tmp/steering.lua"
check broken_install_fails bash -c "! '$tmp/embed/embed_flock' >/dev/null 2>'$tmp/broken.err' && grep -q steering '$tmp/broken.err'"
mv "$tmp/steering.lua" "$prefix/share/flockbox/behaviours/lib/steering.lua"

window() {
  SDL_VIDEODRIVER=dummy "$tmp/embed/embed_window" --frames 30 >"$tmp/window.out" 2>&1 || { cat "$tmp/window.out"; return 1; }
  cat "$tmp/window.out"
  grep -Eq '^embed_window: 30 frames of .*/share/flockbox/scripts/classic_flock.lua, 300 agents, [1-9][0-9]* pixels' \
    "$tmp/window.out"
}
check embed_window window

# The same examples through the CMake package (find_package(flockbox)).
check cmake_package bash -c "cmake -S '$tmp/embed' -B '$tmp/cmake' -DCMAKE_PREFIX_PATH='$prefix' >'$tmp/cmake.log' 2>&1 &&
  cmake --build '$tmp/cmake' >>'$tmp/cmake.log' 2>&1 && '$tmp/cmake/embed_flock' >/dev/null || { cat '$tmp/cmake.log'; false; }"
finish
