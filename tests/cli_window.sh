#!/usr/bin/env bash
# cli_window.sh — the window under Xvfb: runs and exits cleanly, writes the same telemetry as a
# headless run; headless pictures need no display; --record without ffmpeg is refused clearly.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"
is_png() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }

# Pictures without a display: no X server, no video driver chosen.
env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$flockbox" --headless --quiet --steps 50 \
  --png "$tmp/headless.png" scripts/herd_hills.lua
check "headless --png exits 0 with no display" test $? -eq 0
check "headless --png writes a PNG" is_png "$tmp/headless.png"

# A picture keeps the world's aspect (crowd_corridor's is 120 x 40), in the box --png-size gives.
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", $3 * 256 + $4, $7 * 256 + $8 }'; }
picture() {  # picture EXPECTED SCENARIO [OPTIONS...]
  local expected=$1 scenario=$2
  shift 2
  rm -f "$tmp/sized.png"
  "$flockbox" --headless --quiet --steps 1 --png "$tmp/sized.png" "$@" "scripts/$scenario.lua"
  check "--png $* of $scenario: $expected (got $(png_size "$tmp/sized.png" 2>/dev/null))" \
    test "$(png_size "$tmp/sized.png" 2>/dev/null)" = "$expected"
}
picture 1024x1024 classic_flock
picture 1024x341 crowd_corridor
picture 300x100 crowd_corridor --png-size 300
picture 100x100 classic_flock --png-size 400x100
picture 100x33 crowd_corridor --png-size 100x400
"$flockbox" --headless --steps 1 --png-size 300 scripts/classic_flock.lua 2>"$tmp/err.txt"
check "--png-size without --png: exit 2" test $? -eq 2
"$flockbox" --headless --steps 1 --png "$tmp/x.png" --png-size 3x scripts/classic_flock.lua 2>"$tmp/err.txt"
check "--png-size 3x: exit 2, says what it expects" grep -q "expected WIDTH or WIDTHxHEIGHT" "$tmp/err.txt"

# A bad scenario is refused before any window opens.
env -u DISPLAY "$flockbox" tests/data/no_such_scenario.lua 2>"$tmp/err.txt"
check "missing scenario: exit 2" test $? -eq 2
check "missing scenario: message names it" grep -q "no_such_scenario.lua" "$tmp/err.txt"

# With no display the window says so at once instead of running unseen on SDL's offscreen driver.
bounded 20 env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$flockbox" scripts/classic_flock.lua 2>"$tmp/err.txt"
status=$?
check "no display: ends at once (status $status), not a hang" bash -c "[ $status -ne 0 ] && [ $status -ne 124 ]"
check "no display: says to run --headless" grep -q -- "--headless" "$tmp/err.txt"
# ... and its message is the only one: SDL's probe of Wayland would complain first about
# XDG_RUNTIME_DIR (unset in a bare ssh or container session).
bounded 20 env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER -u XDG_RUNTIME_DIR "$flockbox" scripts/classic_flock.lua \
  2>"$tmp/err.txt"
status=$?
check "no display, no XDG_RUNTIME_DIR: exit 2 (status $status)" test $status -eq 2
check "no display, no XDG_RUNTIME_DIR: our one line alone" \
  bash -c "[ \$(wc -l <'$tmp/err.txt') -eq 1 ] && grep -q '^flockbox: no display' '$tmp/err.txt'"

if ! command -v ffmpeg >/dev/null 2>&1; then
  env -u DISPLAY "$flockbox" --record "$tmp/out.mp4" scripts/classic_flock.lua 2>"$tmp/err.txt"
  check "--record without ffmpeg: exit 2" test $? -eq 2
  check "--record without ffmpeg: says so" grep -q "ffmpeg is not installed" "$tmp/err.txt"
fi

if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "SKIP the window checks: xvfb-run is not installed (apt-get install xvfb xauth)"
  finish
  exit
fi
# Under AddressSanitizer, X11, D-Bus and Mesa keep allocations to exit that LeakSanitizer reports as
# ours; leaks in flockbox's own window code are checked by test_viewer on SDL's dummy driver.
xvfb() { ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" xvfb-run -a -s "-screen 0 1280x800x24" "$@"; }

# The window runs a few hundred frames and exits cleanly.
xvfb "$flockbox" --frames 300 --png "$tmp/window.png" scripts/classic_flock.lua >"$tmp/out.txt" 2>&1
status=$?
check "window: 300 frames, exit 0" test $status -eq 0
[ $status -eq 0 ] || cat "$tmp/out.txt"
check "window: --png writes a PNG" is_png "$tmp/window.png"

# Every panel open at a small window: it runs, and --shot saves the whole window at its size.
xvfb "$flockbox" --frames 60 --size 900x600 --show plots,params,help,trails --inspect 81 --shot "$tmp/panels.png" \
  scripts/predator_prey.lua >"$tmp/out.txt" 2>&1
check "window with every panel: exit 0" test $? -eq 0
check "--shot writes a PNG" is_png "$tmp/panels.png"
check "--shot is the window's size (900x600)" test "$(od -An -tu1 -j16 -N8 "$tmp/panels.png" | tr -s ' ' | sed 's/^ //')" = "0 0 3 132 0 0 2 88"
# The timeline at the smallest window with every dock, under a 1 MB budget; and rewind off.
xvfb "$flockbox" --frames 120 --size 800x600 --show plots,params --rewind-mb 1 --shot "$tmp/timeline.png" \
  scripts/classic_flock.lua >"$tmp/out.txt" 2>&1
check "timeline at 800x600, --rewind-mb 1: exit 0" test $? -eq 0
check "--shot is the window's size (800x600)" test "$(od -An -tu1 -j16 -N8 "$tmp/timeline.png" | tr -s ' ' | sed 's/^ //')" = "0 0 3 32 0 0 2 88"
xvfb "$flockbox" --frames 60 --rewind-mb 0 --show -timeline scripts/classic_flock.lua >"$tmp/out.txt" 2>&1
check "--rewind-mb 0 and the timeline closed: exit 0" test $? -eq 0
"$flockbox" --frames 10 --show plots,nonsense scripts/classic_flock.lua 2>"$tmp/err.txt"
check "--show with an unknown name: exit 2" test $? -eq 2
check "--show: the message names it" grep -q "nonsense" "$tmp/err.txt"

# The window never writes the world: the same seed gives the same CSV with and without it. At real
# time (dt 0.05, 60 frames/s) 100 steps take 300 frames; --steps stops the window's run there.
for scenario in scripts/classic_flock.lua tests/data/view_test.lua; do
  base=$(basename "$scenario" .lua)
  xvfb "$flockbox" --frames 420 --steps 100 --every 10 --seed 5 --csv "$tmp/$base-window.csv" "$scenario" \
    >/dev/null 2>&1
  check "$base: window run exit 0" test $? -eq 0
  "$flockbox" --headless --quiet --steps 100 --every 10 --seed 5 --csv "$tmp/$base-headless.csv" "$scenario"
  check "$base: window and headless CSV identical" cmp -s "$tmp/$base-window.csv" "$tmp/$base-headless.csv"
  check "$base: 11 rows + header" test "$(wc -l <"$tmp/$base-window.csv")" -eq 12
done

# --record pipes raw RGBA frames to ffmpeg. A stand-in ffmpeg that keeps its arguments and stores
# its input shows what the real one would get: 5 frames of 1280x800x4 bytes.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/ffmpeg" <<'EOF_FAKE'
#!/bin/sh
for last; do :; done
echo "$@" >"$last.args"
cat >"$last"
EOF_FAKE
chmod +x "$tmp/bin/ffmpeg"
PATH="$tmp/bin:$PATH" xvfb "$flockbox" --frames 5 --record "$tmp/fake.mp4" scripts/classic_flock.lua >/dev/null 2>&1
check "--record (stand-in ffmpeg): exit 0" test $? -eq 0
check "--record: raw rgba frames at 60 per second" grep -q -- "-f rawvideo -pix_fmt rgba -s 1280x800 -r 60 -i -" \
  "$tmp/fake.mp4.args"
check "--record: every frame piped" test "$(stat -c %s "$tmp/fake.mp4")" -eq $((5 * 1280 * 800 * 4))

if command -v ffmpeg >/dev/null 2>&1; then
  xvfb "$flockbox" --frames 30 --record "$tmp/out.mp4" scripts/classic_flock.lua >/dev/null 2>&1
  check "--record: exit 0" test $? -eq 0
  check "--record: writes a video" test -s "$tmp/out.mp4"
fi

finish
