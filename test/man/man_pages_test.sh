#!/usr/bin/env bash
# The manual pages render with man -l, without groff warnings, with the
# usual sections, and list every option the tools' --help lists (for
# wgtrace-view, every subcommand's); wgtrace(7), the README and DESIGN.md
# list exactly the WGTRACE_* variables the runtime reads.
# Usage: man_pages_test.sh <dir of the .1 files> <wgtrace-rewrite> <wgtrace-view> <source dir>
set -uo pipefail
dir=$1 rewrite=$2 view=$3 src=$4
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
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS ENVIRONMENT "EXIT STATUS" EXAMPLES "SEE ALSO"; do
    check grep -qx "$section" <<<"$text"
  done
  check grep -q "^$(echo "$tool" | tr a-z A-Z)(1)" <<<"$text"
done

rewrite_text=$(man -l "$dir/wgtrace-rewrite.1")
for option in $(options "$rewrite"); do
  check grep -qE -- "^ +$option( |=|$)" <<<"$rewrite_text"
done
view_text=$(man -l "$dir/wgtrace-view.1")
for sub in annotate cache dump export footprint html races summary; do
  check grep -qE "^ +wgtrace-view $sub " <<<"$view_text"
  for option in $(options "$view" "$sub"); do
    check grep -qE -- "^ +$option( |=|$)" <<<"$view_text"
  done
done

# wgtrace(7): renders, and its ENVIRONMENT section, the README's table and
# DESIGN.md's name every variable the runtime reads, and no other.
overview="$src/man/wgtrace.7"
warnings=$(man --warnings -l "$overview" 2>&1 >/dev/null)
check test -z "$warnings"
[ -z "$warnings" ] || echo "$warnings"
overview_text=$(man -l "$overview")
for section in NAME DESCRIPTION ENVIRONMENT CMAKE "EXIT STATUS" "SEE ALSO"; do
  check grep -qx "$section" <<<"$overview_text"
done
read_by_runtime=$(grep -rhoE '(getenv|readSwitch)\("WGTRACE_[A-Z_]+"' "$src/runtime" |
  grep -oE 'WGTRACE_[A-Z_]+' | sort -u)
check test -n "$read_by_runtime"
environment=$(sed -n '/^ENVIRONMENT$/,/^[A-Z][A-Z ]*$/p' <<<"$overview_text" |
  grep -oE '^ +WGTRACE_[A-Z_]+' | tr -d ' ' | sort -u)
readme=$(grep -oE '^\| `WGTRACE_[A-Z_]+`' "$src/README.md" | grep -oE 'WGTRACE_[A-Z_]+' | sort -u)
design=$(grep -oE '^\| `WGTRACE_[A-Z_]+`' "$src/docs/DESIGN.md" | grep -oE 'WGTRACE_[A-Z_]+' | sort -u)
for listed in environment readme design; do
  if [ "${!listed}" != "$read_by_runtime" ]; then
    echo "FAIL: $listed lists" ${!listed} "; the runtime reads" $read_by_runtime
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done

echo "$passed passed, $failed failed"
test "$failed" = 0
