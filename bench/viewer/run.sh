#!/usr/bin/env bash
# Benchmark of wgtrace-view on a generated trace of at least 1 GiB:
#   - summary throughput (MB/s) and max resident memory, on the big trace
#     and on one a quarter of its size (memory must not follow file size);
#   - dump > /dev/null in records per second;
#   - the same for a naive decoder that fprintf's one line per record.
# Prints one table, then deletes the traces. Not a ctest: it is a
# benchmark, and its numbers depend on the machine.
#
# usage: bench/viewer/run.sh [BUILD_DIR] [SIZE_MIB]
#   BUILD_DIR: a configured build tree (default: build); the targets
#   wgtrace-view, wgtrace-make-big-trace and wgtrace-naive-dump are built.
#   SIZE_MIB: size of the big trace (default 1024).
set -euo pipefail

BUILD=${1:-build}
SIZE=${2:-1024}
ninja -C "$BUILD" wgtrace-view wgtrace-make-big-trace wgtrace-naive-dump \
  >/dev/null
VIEW=$BUILD/bin/wgtrace-view
MAKE=$BUILD/bin/wgtrace-make-big-trace
NAIVE=$BUILD/bin/wgtrace-naive-dump

WORK=$(mktemp -d "${TMPDIR:-/tmp}/wgtrace-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
BIG=$WORK/big.bin
SMALL=$WORK/small.bin
"$MAKE" "$BIG" "$SIZE"
"$MAKE" "$SMALL" $((SIZE / 4))

# Runs a command (stdout to /dev/null) under /usr/bin/time; prints
# "seconds max_rss_kib". The file is read once before, so that every run
# measures decoding from the page cache, not the disk.
measure() {
  local out=$WORK/time.txt
  /usr/bin/time -f '%e %M' -o "$out" "$@" >/dev/null 2>"$WORK/stderr.txt" ||
    { echo "failed: $*" >&2; cat "$WORK/stderr.txt" >&2; exit 1; }
  cat "$out"
}
warm() { cat "$1" >/dev/null; }

bytes() { stat -c %s "$1"; }
records() {
  # Records = lines of the dump that are not metadata.
  "$NAIVE" "$1" | wc -l
}

warm "$BIG"
NREC=$(records "$BIG")
BIG_BYTES=$(bytes "$BIG")
SMALL_BYTES=$(bytes "$SMALL")

read -r S_SUM M_SUM < <(measure "$VIEW" summary "$BIG")
warm "$SMALL"
read -r S_SUM_SMALL M_SUM_SMALL < <(measure "$VIEW" summary "$SMALL")
warm "$BIG"
read -r S_DUMP M_DUMP < <(measure "$VIEW" dump "$BIG")
read -r S_NAIVE M_NAIVE < <(measure "$NAIVE" "$BIG")

awk -v nrec="$NREC" -v big="$BIG_BYTES" -v small="$SMALL_BYTES" \
    -v ssum="$S_SUM" -v msum="$M_SUM" -v ssums="$S_SUM_SMALL" \
    -v msums="$M_SUM_SMALL" -v sdump="$S_DUMP" -v mdump="$M_DUMP" \
    -v snaive="$S_NAIVE" -v mnaive="$M_NAIVE" 'BEGIN {
  mb = 1000 * 1000; mib = 1024 * 1024
  printf "trace: %.0f MiB, %d records\n\n", big / mib, nrec
  printf "%-34s %9s %12s %14s %12s\n", "run", "seconds", "MB/s", \
         "records/s", "max RSS MiB"
  printf "%-34s %9.2f %12.0f %14.0f %12.1f\n", "summary (" int(big / mib) " MiB)", \
         ssum, big / mb / ssum, nrec / ssum, msum / 1024
  printf "%-34s %9.2f %12.0f %14s %12.1f\n", "summary (" int(small / mib) " MiB)", \
         ssums, small / mb / ssums, "", msums / 1024
  printf "%-34s %9.2f %12.0f %14.0f %12.1f\n", "dump > /dev/null", sdump, \
         big / mb / sdump, nrec / sdump, mdump / 1024
  printf "%-34s %9.2f %12.0f %14.0f %12.1f\n", "naive fprintf dump > /dev/null", \
         snaive, big / mb / snaive, nrec / snaive, mnaive / 1024
  printf "\ntargets: summary >= 500 MB/s with memory independent of file size; dump >= 20 M records/s\n"
  printf "dump vs naive: %.1fx\n", snaive / sdump
}'
