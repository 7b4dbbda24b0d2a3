#!/usr/bin/env bash
# End to end: traces written by the real runtime (the runtime tests' driver
# program) read by wgtrace-view. One workgroup is one workgroup whatever
# splits its records, and the loss the runtime reports at exit is the loss
# every view reports.
# Usage: runtime_traces_test.sh WGTRACE_VIEW TRACE_MODES_DRIVER
set -uo pipefail
view=$1
driver=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # description, command...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}

# Stream mode with 4 KiB buffers: 16 workgroups of 200 accesses each span
# several buffers; summary, cache and the CSV table count 16 workgroups.
WGTRACE_FILE=$work/stream.bin WGTRACE_MODE=stream WGTRACE_BUFFER_SIZE=4kib \
  "$driver" records 16 100 || exit 1
check "stream: summary counts 16 workgroups" \
  grep -q "dispatch site 0: fill (16 workgroups)" <("$view" summary "$work/stream.bin")
check "stream: cache lists 16 workgroups" \
  test "$("$view" cache --json "$work/stream.bin" | grep -c '"pid"')" = 16
check "stream: csv has 16 workgroup rows" \
  test "$("$view" export --format csv "$work/stream.bin" | cut -d, -f3 | grep -c '^workgroup$')" = 16
check "stream: chrome has 16 workgroup events" \
  test "$("$view" export "$work/stream.bin" | grep -o '"ph":"X"' | wc -l)" = 16

# A wrapped ring: the runtime's own line at exit and the viewer agree.
WGTRACE_FILE=$work/wrap.bin WGTRACE_BUFFER_SIZE=4kib \
  "$driver" records 16 100 2>"$work/wrap.err" || exit 1
said=$(grep -o '[0-9]* of [0-9]* bytes overwritten ([0-9]* records, [0-9]* workgroups)' "$work/wrap.err")
bytes=$(echo "$said" | awk '{print $1 " of " $3}')
records=$(echo "$said" | sed 's/.*(\([0-9]*\) records.*/\1/')
check "wrap: the runtime reported a loss" test -n "$said"
for cmd in summary races footprint cache; do
  check "wrap: $cmd reports $bytes bytes, $records records" \
    grep -q "$bytes bytes, $records records" <("$view" $cmd "$work/wrap.bin")
done
check "wrap: html reports the loss" \
  grep -q "\"records_lost\":$records" <("$view" html "$work/wrap.bin")

# Nested kernels: outer calls inner directly; the outer workgroup resumes
# after each return under a continuation copy and is still one workgroup.
WGTRACE_FILE=$work/nested.bin WGTRACE_MODE=stream WGTRACE_BUFFER_SIZE=4kib \
  "$driver" nested 4 64 || exit 1
summary=$("$view" summary "$work/nested.bin")
check "nested: 4 outer workgroups" grep -q "dispatch site 2: outer (4 workgroups)" <<<"$summary"
check "nested: 16 inner workgroups" grep -q "dispatch site 6: inner (16 workgroups)" <<<"$summary"

echo "$failures failed"
test "$failures" = 0
