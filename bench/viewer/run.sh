#!/usr/bin/env bash
# Benchmark of wgtrace-view on generated traces of at least 1 GiB:
#   - summary throughput (MB/s) and max resident memory, on the big trace
#     and on one a quarter of its size (memory must not follow file size);
#   - races and diff: time and memory on the big traces and on the small
#     ones (memory must not follow file size);
#   - diff of two big traces and html of a big trace against summary's
#     time (budget: within 3x);
#   - annotate of a big trace whose accesses name their source lines
#     (--access-sites), with cache's three levels below, against summary's
#     time on the same trace, run in turn (no budget yet: the ratio is
#     reported);
#   - cache with three levels (D1 32k,8,64, L2 1m,16,64, LL 32m,16,64,
#     fixed so that machines compare) against summary's time;
#   - summary, races and cache (three levels) of the eight-ring trace with
#     --threads 1 and --threads 2, in turn: the speedup of two threads
#     (medians); likewise annotate (three levels), diff (of the big trace
#     and the eight-ring one, each file on the threads), html and convert
#     --iree, their speedups reported without a budget;
#   - summary of the eight-ring trace compressed (`compress`, zstd level
#     1) against the plain one, both on all cores, in turn (budget: at
#     least as fast), and the compressed one with --threads 1 (its
#     speedup and max RSS reported without a budget);
#   - dump > /dev/null in records per second;
#   - the same for a naive decoder that fprintf's one line per record.
# summary, races, cache, diff and annotate run with --threads 1 but in the
# threads rows, so that the ratios to summary (diff, html, cache, annotate)
# and the memory rows mean what they meant before --threads.
# Prints one table, then deletes the traces. Not a ctest: it is a
# benchmark, and its numbers depend on the machine.
#
# usage: bench/viewer/run.sh [BUILD_DIR] [SIZE_MIB] [RUNS] [JSON]
#   BUILD_DIR: a configured build tree (default: build); the targets
#   wgtrace-view, wgtrace-make-big-trace and wgtrace-naive-dump are built.
#   SIZE_MIB: size of the big trace (default 1024).
#   RUNS: summary, diff and html of the big traces are run in turn RUNS
#   times (default 1); their rows and ratios use the median times, so that
#   a moment of load on a shared machine does not decide the ratio.
#   JSON: also write the budgets' results to this file, as
#   bench/budget_results.py describes (bench/budgets.py reads it).
set -euo pipefail

BUILD=${1:-build}
SIZE=${2:-1024}
RUNS=${3:-1}
JSON=${4:-}
ninja -C "$BUILD" wgtrace-view wgtrace-make-big-trace wgtrace-naive-dump \
  >/dev/null
VIEW=$BUILD/bin/wgtrace-view
MAKE=$BUILD/bin/wgtrace-make-big-trace
NAIVE=$BUILD/bin/wgtrace-naive-dump

WORK=$(mktemp -d "${TMPDIR:-/tmp}/wgtrace-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
BIG=$WORK/big.bin
BIG2=$WORK/big2.bin
SMALL=$WORK/small.bin
SMALL2=$WORK/small2.bin
"$MAKE" "$BIG" "$SIZE"
# The "after" run of diff: the same kernels on eight workers.
"$MAKE" "$BIG2" "$SIZE" --workers 8
"$MAKE" "$SMALL" $((SIZE / 4))
"$MAKE" "$SMALL2" $((SIZE / 4)) --workers 8
SITES=$WORK/sites.bin
"$MAKE" "$SITES" "$SIZE" --access-sites

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

# The median of RUNS runs of summary, diff, html and cache, taken in turn.
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
warm "$BIG2"
for ((I = 0; I < RUNS; ++I)); do
  measure "$VIEW" summary --threads 1 "$BIG" >>"$WORK/summary.txt"
  measure "$VIEW" diff --threads 1 --l1 32k,8,64 --l2 1m,16,64 \
    --ll 32m,16,64 "$BIG" "$BIG2" >>"$WORK/diff.txt"
  measure "$VIEW" html "$BIG" -o "$WORK/report.html" >>"$WORK/html.txt"
  measure "$VIEW" cache --threads 1 --l1 32k,8,64 --l2 1m,16,64 \
    --ll 32m,16,64 "$BIG" >>"$WORK/cache.txt"
done
# annotate and summary in turn on the trace with source lines.
warm "$SITES"
for ((I = 0; I < RUNS; ++I)); do
  measure "$VIEW" summary --threads 1 "$SITES" >>"$WORK/summary_sites.txt"
  measure "$VIEW" annotate --threads 1 --l1 32k,8,64 --l2 1m,16,64 \
    --ll 32m,16,64 "$SITES" >>"$WORK/annotate.txt"
done
rm -f "$SITES"
S_SUM_SITES=$(cut -d' ' -f1 "$WORK/summary_sites.txt" | median)
S_ANN=$(cut -d' ' -f1 "$WORK/annotate.txt" | median)
M_ANN=$(cut -d' ' -f2 "$WORK/annotate.txt" | median)
S_SUM=$(cut -d' ' -f1 "$WORK/summary.txt" | median)
M_SUM=$(cut -d' ' -f2 "$WORK/summary.txt" | median)
S_DIFF=$(cut -d' ' -f1 "$WORK/diff.txt" | median)
M_DIFF=$(cut -d' ' -f2 "$WORK/diff.txt" | median)
S_HTML=$(cut -d' ' -f1 "$WORK/html.txt" | median)
M_HTML=$(cut -d' ' -f2 "$WORK/html.txt" | median)
S_CACHE=$(cut -d' ' -f1 "$WORK/cache.txt" | median)
M_CACHE=$(cut -d' ' -f2 "$WORK/cache.txt" | median)
# --threads 2 against --threads 1 on the eight rings of BIG2, in turn.
warm "$BIG2"
for ((I = 0; I < RUNS; ++I)); do
  for C in summary races cache annotate diff html convert; do
    ARGS=()
    case $C in
    cache | annotate) ARGS=(--l1 32k,8,64 --l2 1m,16,64 --ll 32m,16,64) ;;
    # Each of the two files on --threads threads.
    diff) ARGS=(--l1 32k,8,64 --l2 1m,16,64 --ll 32m,16,64 "$BIG") ;;
    html) ARGS=(-o "$WORK/threads.html") ;;
    convert) ARGS=(--iree -o "$WORK/threads-iree.bin") ;;
    esac
    for T in 1 2; do
      measure "$VIEW" "$C" ${ARGS[@]+"${ARGS[@]}"} --threads $T "$BIG2" \
        >>"$WORK/$C-threads$T.txt"
    done
  done
done
rm -f "$WORK/threads.html" "$WORK/threads-iree.bin"
speedup() {
  local one two
  one=$(cut -d' ' -f1 "$WORK/$1-threads1.txt" | median)
  two=$(cut -d' ' -f1 "$WORK/$1-threads2.txt" | median)
  awk -v one="$one" -v two="$two" 'BEGIN { printf "%.2f %.2f %.2f\n", one / two, one, two }'
}
read -r X_SUM S_SUM_T1 S_SUM_T2 < <(speedup summary)
read -r X_RACES S_RACES_T1 S_RACES_T2 < <(speedup races)
read -r X_CACHE S_CACHE_T1 S_CACHE_T2 < <(speedup cache)
read -r X_ANN S_ANN_T1 S_ANN_T2 < <(speedup annotate)
read -r X_DIFF S_DIFF_T1 S_DIFF_T2 < <(speedup diff)
read -r X_HTML S_HTML_T1 S_HTML_T2 < <(speedup html)
read -r X_CONV S_CONV_T1 S_CONV_T2 < <(speedup convert)
# Max RSS (medians) of html and convert --iree on one and two threads.
rss() { cut -d' ' -f2 "$WORK/$1-threads$2.txt" | median | awk '{ printf "%.0f", $1 / 1024 }'; }
# summary of BIG2 compressed against BIG2, each on all cores, in turn; and
# the compressed copy on one thread.
BIG2Z=$WORK/big2-zstd.bin
"$VIEW" compress "$BIG2" "$BIG2Z" 2>/dev/null
warm "$BIG2Z"
for ((I = 0; I < RUNS; ++I)); do
  measure "$VIEW" summary "$BIG2" >>"$WORK/zstd-plain.txt"
  measure "$VIEW" summary "$BIG2Z" >>"$WORK/zstd-threads2.txt"
  measure "$VIEW" summary --threads 1 "$BIG2Z" >>"$WORK/zstd-threads1.txt"
done
S_ZST_PLAIN=$(cut -d' ' -f1 "$WORK/zstd-plain.txt" | median)
read -r X_ZST_T S_ZST_T1 S_ZST_ALL < <(speedup zstd)
X_ZST=$(awk -v p="$S_ZST_PLAIN" -v z="$S_ZST_ALL" 'BEGIN { printf "%.2f", p / z }')
ZST_MIB=$(awk -v b="$(bytes "$BIG2Z")" 'BEGIN { printf "%.1f", b / 1048576 }')
rm -f "$BIG2Z"
read -r S_RACES M_RACES < <(measure "$VIEW" races --threads 1 "$BIG")
warm "$SMALL"
warm "$SMALL2"
read -r S_SUM_SMALL M_SUM_SMALL < <(measure "$VIEW" summary --threads 1 "$SMALL")
read -r S_RACES_SMALL M_RACES_SMALL < <(measure "$VIEW" races --threads 1 "$SMALL")
read -r S_DIFF_SMALL M_DIFF_SMALL < <(measure "$VIEW" diff --threads 1 --l1 32k,8,64 --l2 1m,16,64 --ll 32m,16,64 "$SMALL" "$SMALL2")
warm "$BIG"
read -r S_DUMP M_DUMP < <(measure "$VIEW" dump "$BIG")
read -r S_NAIVE M_NAIVE < <(measure "$NAIVE" "$BIG")

awk -v nrec="$NREC" -v big="$BIG_BYTES" -v small="$SMALL_BYTES" \
    -v ssum="$S_SUM" -v msum="$M_SUM" -v ssums="$S_SUM_SMALL" \
    -v msums="$M_SUM_SMALL" -v sdump="$S_DUMP" -v mdump="$M_DUMP" \
    -v snaive="$S_NAIVE" -v mnaive="$M_NAIVE" \
    -v sraces="$S_RACES" -v mraces="$M_RACES" -v sracess="$S_RACES_SMALL" \
    -v mracess="$M_RACES_SMALL" -v sdiff="$S_DIFF" -v mdiff="$M_DIFF" \
    -v sdiffs="$S_DIFF_SMALL" -v mdiffs="$M_DIFF_SMALL" -v shtml="$S_HTML" \
    -v mhtml="$M_HTML" -v runs="$RUNS" -v ssumsites="$S_SUM_SITES" \
    -v sann="$S_ANN" -v mann="$M_ANN" -v scache="$S_CACHE" -v mcache="$M_CACHE" 'BEGIN {
  mb = 1000 * 1000; mib = 1024 * 1024
  printf "trace: %.0f MiB, %d records\n\n", big / mib, nrec
  printf "%-34s %9s %12s %14s %12s\n", "run", "seconds", "MB/s", \
         "records/s", "max RSS MiB"
  printf "%-34s %9.2f %12.0f %14.0f %12.1f\n", "summary (" int(big / mib) " MiB)", \
         ssum, big / mb / ssum, nrec / ssum, msum / 1024
  printf "%-34s %9.2f %12.0f %14s %12.1f\n", "summary (" int(small / mib) " MiB)", \
         ssums, small / mb / ssums, "", msums / 1024
  printf "%-34s %9.2f %12.0f %14s %12.1f\n", "races (" int(big / mib) " MiB)", \
         sraces, big / mb / sraces, "", mraces / 1024
  printf "%-34s %9.2f %12.0f %14s %12.1f\n", "races (" int(small / mib) " MiB)", \
         sracess, small / mb / sracess, "", mracess / 1024
  printf "%-34s %9.2f %12.0f %14s %12.1f\n", "diff (2 x " int(big / mib) " MiB)", \
         sdiff, 2 * big / mb / sdiff, "", mdiff / 1024
  printf "%-34s %9.2f %12.0f %14s %12.1f\n", "diff (2 x " int(small / mib) " MiB)", \
         sdiffs, 2 * small / mb / sdiffs, "", mdiffs / 1024
  printf "%-34s %9.2f %12.0f %14s %12.1f\n", "html (" int(big / mib) " MiB)", \
         shtml, big / mb / shtml, "", mhtml / 1024
  printf "%-34s %9.2f %12.0f %14s %12.1f\n", "annotate (" int(big / mib) " MiB, lines)", \
         sann, big / mb / sann, "", mann / 1024
  printf "%-34s %9.2f %12.0f %14s %12.1f\n", "cache D1+L2+LL (" int(big / mib) " MiB)", \
         scache, big / mb / scache, "", mcache / 1024
  printf "%-34s %9.2f %12.0f %14.0f %12.1f\n", "dump > /dev/null", sdump, \
         big / mb / sdump, nrec / sdump, mdump / 1024
  printf "%-34s %9.2f %12.0f %14.0f %12.1f\n", "naive fprintf dump > /dev/null", \
         snaive, big / mb / snaive, nrec / snaive, mnaive / 1024
  printf "\ntargets: summary >= 1000 MB/s; diff of two and html of one big trace within 3x of summary; memory of summary, races and diff independent of file size; dump >= 20 M records/s\n"
  printf "diff / summary: %.2fx   html / summary: %.2fx   cache (3 levels) / summary: %.2fx (medians of %d runs)\n", \
         sdiff / ssum, shtml / ssum, scache / ssum, runs
  printf "annotate / summary (same trace, with source lines): %.2fx (medians of %d runs)\n", \
         sann / ssumsites, runs
  printf "dump vs naive: %.1fx\n", snaive / sdump
}'
printf '8 rings, --threads 2 vs 1 (medians of %d, load %s): summary %.2fx (%.2f s, %.2f s), races %.2fx (%.2f s, %.2f s), cache %.2fx (%.2f s, %.2f s)\n' \
  "$RUNS" "$(cut -d' ' -f1-3 /proc/loadavg)" "$X_SUM" "$S_SUM_T1" "$S_SUM_T2" \
  "$X_RACES" "$S_RACES_T1" "$S_RACES_T2" "$X_CACHE" "$S_CACHE_T1" "$S_CACHE_T2"
printf '8 rings, --threads 2 vs 1, no budget: annotate %.2fx (%.2f s, %.2f s), diff %.2fx (%.2f s, %.2f s), html %.2fx (%.2f s, %.2f s; max RSS %s / %s MiB), convert --iree %.2fx (%.2f s, %.2f s; max RSS %s / %s MiB)\n' \
  "$X_ANN" "$S_ANN_T1" "$S_ANN_T2" "$X_DIFF" "$S_DIFF_T1" "$S_DIFF_T2" \
  "$X_HTML" "$S_HTML_T1" "$S_HTML_T2" "$(rss html 1)" "$(rss html 2)" \
  "$X_CONV" "$S_CONV_T1" "$S_CONV_T2" "$(rss convert 1)" "$(rss convert 2)"
printf '8 rings compressed (%s MiB), summary on all %d cores (medians of %d): plain %.2f s, compressed %.2f s (plain / compressed %.2fx); compressed --threads 1 %.2f s (%.2fx; max RSS %s / %s MiB)\n' \
  "$ZST_MIB" "$(nproc)" "$RUNS" "$S_ZST_PLAIN" "$S_ZST_ALL" "$X_ZST" \
  "$S_ZST_T1" "$X_ZST_T" "$(rss zstd 1)" "$(rss zstd 2)"

# The budgets as data. Memory "independent of file size": a trace four
# times larger may take at most 1.5x the small one's peak memory.
if [ -n "$JSON" ]; then
  awk -v nrec="$NREC" -v big="$BIG_BYTES" -v ssum="$S_SUM" -v sdiff="$S_DIFF" \
      -v shtml="$S_HTML" -v sdump="$S_DUMP" -v msum="$M_SUM" -v msums="$M_SUM_SMALL" \
      -v mraces="$M_RACES" -v mracess="$M_RACES_SMALL" -v mdiff="$M_DIFF" \
      -v mdiffs="$M_DIFF_SMALL" -v runs="$RUNS" -v xsum="$X_SUM" -v xraces="$X_RACES" \
      -v xcache="$X_CACHE" -v xzst="$X_ZST" -v szst="$S_ZST_ALL" \
      -v szstplain="$S_ZST_PLAIN" -v cores="$(nproc)" 'function row(key, value, met, text, last) {
    printf "{\"key\": \"%s\", \"value\": %.4f, \"met\": %s, \"measured\": \"%s\"}%s\n", \
           key, value, met ? "true" : "false", text, last ? "" : ","
  }
  BEGIN {
    mbs = big / 1e6 / ssum; diff = sdiff / ssum; html = shtml / ssum; dump = nrec / sdump / 1e6
    m = msum / msums; r = mraces / mracess; d = mdiff / mdiffs
    worst = m > r ? m : r; worst = worst > d ? worst : d
    print "["
    row("viewer.summary", mbs, mbs >= 1000, sprintf("%.0f MB/s (median of %d)", mbs, runs))
    row("viewer.diff", diff, diff <= 3, sprintf("%.2fx summary (medians of %d)", diff, runs))
    row("viewer.html", html, html <= 3, sprintf("%.2fx summary (medians of %d)", html, runs))
    row("viewer.memory", worst, worst <= 1.5,
        sprintf("4x the file: summary %.2fx, races %.2fx, diff %.2fx the memory", m, r, d))
    row("viewer.dump", dump, dump >= 20, sprintf("%.1f M records/s", dump))
    # Two threads against one on the eight-ring trace (issue 23): a second
    # core is what they are measured on.
    row("viewer.threads.summary", xsum, cores >= 2 && xsum >= 1.6,
        sprintf("%.2fx (medians of %d, %d cores)", xsum, runs, cores))
    row("viewer.threads.races", xraces, cores >= 2 && xraces >= 1.6,
        sprintf("%.2fx (medians of %d, %d cores)", xraces, runs, cores))
    row("viewer.threads.cache", xcache, cores >= 2 && xcache >= 1.6,
        sprintf("%.2fx (medians of %d, %d cores)", xcache, runs, cores))
    # The compressed copy of the eight-ring trace against the plain one,
    # both on all cores (issue 23): at least as fast.
    row("viewer.compressed.summary", xzst, xzst >= 1,
        sprintf("plain / compressed %.2fx (%.2f s / %.2f s, medians of %d, %d cores)",
                xzst, szstplain, szst, runs, cores), 1)
    print "]"
  }' >"$JSON"
fi
