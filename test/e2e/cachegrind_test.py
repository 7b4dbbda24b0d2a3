#!/usr/bin/env python3
"""wgtrace-view cache against an independent simulator: Valgrind's
cachegrind.

test/e2e/cachegrind/cache_kernels.cc runs two kernels (a tiled transpose
whose strided stores conflict, a 5-point stencil) built twice: plain,
under cachegrind with the same L1 data cache as wgtrace-view's default
(32 KiB, 8 ways, 64-byte lines, LRU, write-allocate), and instrumented,
its trace through `wgtrace-view cache --kernel K`. Per kernel, the D1 read
misses (cachegrind's D1mr) and write misses (D1mw) must agree within 1%,
and the loads and stores agree (cachegrind's loads may include, per
workgroup, a few reads of the Workgroup's id in the plain build, which are
no memory of the trace).

Usage: cachegrind_test.py <instrumented> <plain> <wgtrace-view> <valgrind> <workdir>
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, clean_env, finish  # noqa: E402

INSTRUMENTED, PLAIN, VIEW, VALGRIND, WORK = sys.argv[1:6]
os.makedirs(WORK, exist_ok=True)
KERNELS = ["transpose_tiles", "stencil_rows"]
GEOMETRY = "32768,8,64"


def close(wgtrace, cachegrind, what):
    """Within 1% of cachegrind's count (or 2 of a small one)."""
    ok = abs(wgtrace - cachegrind) <= max(2, 0.01 * cachegrind)
    check(ok, "%s: wgtrace %d, cachegrind %d" % (what, wgtrace, cachegrind))
    print("%-32s wgtrace %9d  cachegrind %9d" % (what, wgtrace, cachegrind))


trace = os.path.join(WORK, "cache_kernels.bin")
run = subprocess.run([INSTRUMENTED], env=clean_env({"WGTRACE_FILE": trace}),
                     capture_output=True, text=True)
check(run.returncode == 0, "instrumented run exits %d: %s" % (run.returncode, run.stderr))
out_file = os.path.join(WORK, "cachegrind.out")
plain = subprocess.run([VALGRIND, "--tool=cachegrind", "--cache-sim=yes",
                        "--D1=" + GEOMETRY, "--I1=" + GEOMETRY, "--LL=8388608,16,64",
                        "--cachegrind-out-file=" + out_file, PLAIN],
                       env=clean_env(), capture_output=True, text=True)
check(plain.returncode == 0, "plain run under cachegrind exits %d: %s"
      % (plain.returncode, plain.stderr[-2000:]))
check(plain.stdout == run.stdout,
      "the instrumented program computes what the plain one does: %r vs %r"
      % (run.stdout, plain.stdout))

# cachegrind's per-function counts: "events:" names the columns, "fn=" the
# function of the lines "line count count ..." that follow.
events, per_function, function = [], {}, None
with open(out_file) as f:
    for line in f:
        line = line.rstrip("\n")
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("fn="):
            function = line[3:]
        elif function and line[:1].isdigit():
            counts = [int(c) for c in line.split()[1:]]
            totals = per_function.setdefault(function, [0] * len(events))
            for i, c in enumerate(counts):
                totals[i] += c

for kernel in KERNELS:
    rows = [counts for name, counts in per_function.items()
            if name == kernel or name.startswith(kernel + "(")]
    check(len(rows) == 1, "cachegrind has one function %s (%s)" % (kernel, sorted(per_function)))
    if len(rows) != 1:
        continue
    grind = dict(zip(events, rows[0]))
    cache = subprocess.run([VIEW, "cache", "--json", "--kernel", kernel, trace],
                           capture_output=True, text=True)
    check(cache.returncode == 0, "cache --kernel %s exits %d: %s"
          % (kernel, cache.returncode, cache.stderr))
    summary = subprocess.run([VIEW, "summary", "--json", "--kernel", kernel, trace],
                             capture_output=True, text=True)
    check(summary.returncode == 0, "summary --kernel %s exits %d" % (kernel, summary.returncode))
    if cache.returncode or summary.returncode:
        continue
    totals = json.loads(cache.stdout)["totals"]
    counts = json.loads(summary.stdout)["kernels"][kernel]
    check(totals["misses"] > 1000, "%s misses enough to compare: %d" % (kernel, totals["misses"]))
    workgroups = counts["workgroups"]
    check(0 <= grind["Dr"] - counts["loads"] <= 4 * workgroups,
          "%s loads: wgtrace %d, cachegrind %d (and at most 4 reads of the id "
          "per workgroup, %d)" % (kernel, counts["loads"], grind["Dr"], workgroups))
    print("%-32s wgtrace %9d  cachegrind %9d" % (kernel + " loads (Dr)", counts["loads"],
                                                  grind["Dr"]))
    close(counts["stores"], grind["Dw"], kernel + " stores (Dw)")
    close(totals["read_misses"], grind["D1mr"], kernel + " read misses (D1mr)")
    close(totals["write_misses"], grind["D1mw"], kernel + " write misses (D1mw)")

finish()
