#!/usr/bin/env bash
# The manual pages render with man -l, without groff warnings, with the
# usual sections, and list every option the tools' --help lists (for
# wgtrace-view, every subcommand's).
# Usage: man_pages_test.sh <dir of the .1 files> <wgtrace-rewrite> <wgtrace-view>
set -uo pipefail
dir=$1 rewrite=$2 view=$3
passed=0 failed=0
check() { if "$@"; then passed=$((passed + 1)); else echo "FAIL: $*"; failed=$((failed + 1)); fi; }
export LC_ALL=C MANWIDTH=80 MANPAGER=cat PAGER=cat

# The options llvm::cl's --help lists: "  --name=<v>  - text" -> --name
options() { "$@" --help | sed -n 's/^  \(-[^ =]*\).* - .*/\1/p'; }

for tool in wgtrace-rewrite wgtrace-view; do
  page="$dir/$tool.1"
  check test -s "$page"
  warnings=$(man --warnings -l "$page" 2>&1 >/dev/null)
  check test -z "$warnings"
  [ -z "$warnings" ] || echo "$warnings"
  text=$(man -l "$page")
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
    check grep -qx "$section" <<<"$text"
  done
  check grep -q "^$(echo "$tool" | tr a-z A-Z)(1)" <<<"$text"
done

rewrite_text=$(man -l "$dir/wgtrace-rewrite.1")
for option in $(options "$rewrite"); do
  check grep -qE -- "^ +$option( |=|$)" <<<"$rewrite_text"
done
view_text=$(man -l "$dir/wgtrace-view.1")
for sub in cache dump export footprint html races summary; do
  check grep -qE "^ +wgtrace-view $sub " <<<"$view_text"
  for option in $(options "$view" "$sub"); do
    check grep -qE -- "^ +$option( |=|$)" <<<"$view_text"
  done
done

echo "$passed passed, $failed failed"
test "$failed" = 0
