#!/usr/bin/env bash
# run.sh — the web page's browser tests (ctest web_page): serves build-web/site on loopback and runs page_test.js in headless Chromium.
#
#   bash tests/web/run.sh FLOCKBOX      (from the source root; FLOCKBOX is the native program)
#
# Exit 77 (skipped) when build-web/site is missing, unless FB_REQUIRE_WEB is set (CI sets it: a
# missing site is then a failure). tools/web/build.sh makes the site.
set -uo pipefail
flockbox=${1:?usage: run.sh FLOCKBOX}
site=build-web/site
if [ ! -f "$site/index.html" ]; then
  if [ -n "${FB_REQUIRE_WEB:-}" ]; then
    echo "FAIL $site/index.html is missing and FB_REQUIRE_WEB is set (tools/web/build.sh makes it)"
    exit 1
  fi
  echo "skipped: no $site (tools/web/build.sh makes it; FB_REQUIRE_WEB=1 makes this a failure)"
  exit 77
fi
for tool in node /usr/bin/chromium /usr/bin/chromedriver; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL $tool is missing (./setup.sh web installs what the page's tests need)"
    exit 1
  fi
done

log=$(mktemp)
node tools/web/serve.js "$site" 0 >"$log" 2>&1 &
server=$!
tester=
stop() {
  [ -n "$tester" ] && kill "$tester" 2>/dev/null  # page_test.js ends its chromedriver on SIGTERM
  kill "$server" 2>/dev/null
  wait 2>/dev/null
  rm -f "$log"
}
trap stop EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# The server prints its address once it listens (bounded: 300 polls of 0.1 s).
url=
for _ in $(seq 300); do
  url=$(sed -n 's/^serving .* at \(http:[^ ]*\)$/\1/p' "$log")
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "FAIL tools/web/serve.js did not say where it serves $site:"
  cat "$log"
  exit 1
fi
node tests/web/page_test.js "$url" "$flockbox" build-web/screenshots &
tester=$!
wait "$tester"
status=$?
tester=
exit "$status"
