#!/usr/bin/env bash
# cli_rules.sh — flockbox --rules lists every shipped rule with its parameters; docs/rules.md is its output.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"

"$flockbox" --rules >"$tmp/text" 2>"$tmp/err"
check "--rules succeeds" test $? -eq 0
for f in behaviours/*.lua; do
  name=$(basename "$f" .lua)
  check "--rules lists $name" grep -q "^$name — " "$tmp/text"
done
check "every rule loads" bash -c "! grep -q 'does not load' '$tmp/text'"

"$flockbox" --rules-md behaviours >"$tmp/md"
if ! diff -u docs/rules.md "$tmp/md" >"$tmp/diff"; then
  echo "FAIL docs/rules.md is out of date; regenerate it with: flockbox --rules-md behaviours > docs/rules.md"
  head -40 "$tmp/diff" | sed 's/^/    /'
  failures=$((failures + 1))
else
  passed=$((passed + 1))
fi
# Every parameter of a shipped rule says what it is: no empty "meaning" cell.
check "every parameter has a description" bash -c "! grep -E '^\| \`[a-z_]+\` \|.*\| *\|$' '$tmp/md'"

# The manual's example rule is tests/behaviours/hunt.lua, which test_rule_api runs: the first lua
# block under "## A whole rule" in docs/writing-rules.md must be that file, line for line.
awk '/^## A whole rule/ { on = 1 } on && /^```lua$/ { grab = 1; next } grab && /^```$/ { exit } grab' docs/writing-rules.md >"$tmp/example"
check "the manual's example rule is there" test -s "$tmp/example"
check "the manual's example rule is tests/behaviours/hunt.lua" diff -u tests/behaviours/hunt.lua "$tmp/example"

"$flockbox" --rules "$tmp/none" >/dev/null 2>"$tmp/err"
check "a missing folder is exit 2" test $? -eq 2
check "a missing folder is named" grep -q "none: cannot read the folder" "$tmp/err"

finish
