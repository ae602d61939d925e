#!/usr/bin/env bash
# engine_links_no_sdl.sh BINARY... — engine binaries must neither need SDL nor contain SDL calls.
set -u
failures=0
for bin in "$@"; do
  needed=$(readelf -d "$bin" | grep NEEDED)
  if grep -qi sdl <<<"$needed"; then
    echo "FAIL $(basename "$bin") needs SDL: $(grep -i sdl <<<"$needed" | tr -s ' ')"
    failures=$((failures + 1))
  elif nm -u "$bin" | grep -q ' SDL_'; then
    echo "FAIL $(basename "$bin") calls SDL"
    failures=$((failures + 1))
  else
    echo "ok $(basename "$bin"): no SDL"
  fi
done
[ "$failures" -eq 0 ]
