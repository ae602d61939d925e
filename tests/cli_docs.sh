#!/usr/bin/env bash
# cli_docs.sh — the README and docs/ say what is true: the quick start lists the packages setup.sh
# installs, every relative link and picture points to a file (and heading) that exists, the README
# links every file in docs/, and the README's first rule runs.
set -u
flockbox=$(realpath "$1")  # absolute: the first rule runs from its own folder
source "$(dirname "$0")/check_lib.sh"
export LC_ALL=C

# --- The quick start's package list is setup.sh's ---------------------------------------------------
# setup.sh's packages=(...) and packages+=(...) lines, read by bash itself; the README's is the
# `apt-get install` command of its quick start (with its continuation lines).
awk '/^[a-z_]*packages(\+)?=\(/ { on = 1 } on { print } on && /\)/ { on = 0 }' setup.sh >"$tmp/arrays"
bash -c "source '$tmp/arrays' && printf '%s\n' \"\${packages[@]}\"" | sort >"$tmp/setup"
awk '/apt-get install/ { on = 1 } on { print } on && !/\\$/ { exit }' README.md |
  tr ' \\' '\n\n' | grep -v -e '^$' -e '^-' -e '^sudo$' -e '^apt-get$' -e '^install$' | sort >"$tmp/readme"
check "setup.sh lists packages" test -s "$tmp/setup"
check "the README's quick start lists packages" test -s "$tmp/readme"
if ! diff -u "$tmp/setup" "$tmp/readme" >"$tmp/diff"; then
  echo "FAIL the README's apt-get line and setup.sh's packages differ (- setup.sh, + README):"
  sed 's/^/    /' "$tmp/diff"
  failures=$((failures + 1))
else
  passed=$((passed + 1))
fi

# --- Relative links and pictures -----------------------------------------------------------------------
# For each Markdown file: its headings' anchors (GitHub's: lower case, punctuation dropped, spaces to
# hyphens, -1, -2 ... on repeats), and its link targets outside code blocks and code spans.
anchors() {
  awk '/^```/ { code = !code; next } !code && /^#+ / {
         h = $0; sub(/^#+ +/, "", h); h = tolower(h); gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
         print (seen[h]++ ? h "-" (seen[h] - 1) : h) }' "$1"
}
targets() {
  awk '/^```/ { code = !code; span = 0; next } code { next } /^[ \t]*$/ { span = 0; next }
       { out = ""; n = split($0, part, "`")
         for (i = 1; i <= n; i++) { if (!span) out = out part[i]; if (i < n) span = !span }
         while (match(out, /\]\([^)]*\)/)) { print substr(out, RSTART + 2, RLENGTH - 3); out = substr(out, RSTART + RLENGTH) } }' "$1"
}
links=0
for md in README.md docs/*.md; do
  dir=$(dirname "$md")
  while IFS= read -r target; do
    case $target in http://* | https://* | mailto:*) continue ;; esac
    links=$((links + 1))
    path=${target%%#*}
    anchor=""
    [ "$path" != "$target" ] && anchor=${target#*#}
    file=$md
    [ -n "$path" ] && file=$dir/$path
    if [ ! -e "$file" ]; then
      echo "FAIL $md: ($target): no file $file"
      failures=$((failures + 1))
    elif [ -n "$anchor" ] && ! anchors "$file" | grep -qxF -- "$anchor"; then
      echo "FAIL $md: ($target): no heading #$anchor in $file"
      failures=$((failures + 1))
    else
      passed=$((passed + 1))
    fi
  done < <(targets "$md")
done
check "the README and docs/ have links to check ($links)" test "$links" -gt 50
# The README is the way in: its manual table links every file in docs/.
for md in docs/*.md; do
  check "the README links $md" grep -qF "]($md)" README.md
done

# --- The README's first rule runs --------------------------------------------------------------------
# Each lua block under "## Your first rule" is saved where its first line says (-- mine/x.lua — ...),
# then the scenario among them runs headless from that folder.
mkdir -p "$tmp/first"
awk -v root="$tmp/first" '
  /^## / { on = ($0 ~ /^## Your first rule/) }
  on && /^```lua$/ { grab = 1; file = ""; next }
  grab && /^```$/ { grab = 0; close(root "/" file); next }
  grab && file == "" { file = $2; system("mkdir -p \"$(dirname \"" root "/" file "\")\"") }
  grab { print > (root "/" file) }' README.md
check "the first rule is saved as mine/swirl.lua" test -s "$tmp/first/mine/swirl.lua"
check "its scenario is saved as mine/flock.lua" test -s "$tmp/first/mine/flock.lua"
(cd "$tmp/first" && "$flockbox" --headless --steps 200 mine/flock.lua) >"$tmp/out" 2>"$tmp/err"
check "the first rule's scenario runs (exit 0)" test $? -eq 0
check "the first rule's scenario runs complete" bash -c "grep -q 'My flock: 200 steps' '$tmp/out' && ! grep -q INCOMPLETE '$tmp/out' '$tmp/err'"
(cd "$tmp/first" && "$flockbox" --headless --steps 200 --set boid.swirl.gain=0 mine/flock.lua) >"$tmp/off" 2>&1
check "the swirl changes the flock" bash -c "! diff -q <(grep -o 'hash .*' '$tmp/out') <(grep -o 'hash .*' '$tmp/off') >/dev/null"

finish
