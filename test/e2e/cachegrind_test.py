#!/usr/bin/env python3
"""wgtrace-view cache against an independent simulator: Valgrind's
cachegrind.

test/e2e/cachegrind/cache_kernels.cc runs two kernels (a tiled transpose
whose strided stores conflict, a 5-point stencil) built twice: plain,
under cachegrind (D1 32 KiB, 8 ways; LL 256 KiB, 8 ways; 64-byte lines;
LRU, write-allocate), and instrumented, its trace through
`wgtrace-view cache --kernel K` with the same geometry given two ways:
`--l1 32k,8,64 --l2 none --ll 256k,8,64` (cachegrind's two levels), and
`--l1 32k,8,64 --l2 256k,8,64 --ll 8m,16,64` (an L2 that is cachegrind's
LL, under a larger LL). Per kernel, the D1 read and write misses (D1mr,
D1mw) and the LL ones (DLmr, DLmw; wgtrace's LLmr, LLmw, then L2mr, L2mw)
must agree within 1%, and the loads and stores agree (cachegrind's loads
may include, per workgroup, a few reads of the Workgroup's id in the plain
build, which are no memory of the trace). The program evicts both caches
(1 MiB of writes) before each kernel, so that each kernel starts as a
filtered trace does: with nothing of its data cached.

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
# Each cachegrind run (its D1 and LL; I1 32 KiB, 8 ways), and wgtrace-view's levels
# compared with it, with the column of each that is cachegrind's LL. The
# tiny D1 (1 KiB, 2 ways) cannot hold the stencil's three rows: its misses
# hit LL, which then tells apart what the 32 KiB D1 and LL agree on.
RUNS = [("32768,8,64", "262144,8,64",
         [(["--l1", "32k,8,64", "--l2", "none", "--ll", "256k,8,64"], "LL"),
          (["--l1", "32k,8,64", "--l2", "256k,8,64", "--ll", "8m,16,64"], "L2")]),
        ("1024,2,64", "262144,8,64",
         [(["--l1", "1k,2,64", "--l2", "none", "--ll", "256k,8,64"], "LL"),
          (["--l1", "1k,2,64", "--l2", "256k,8,64", "--ll", "8m,16,64"], "L2")])]


def close(wgtrace, cachegrind, what, extra=0):
    """Within 1% of cachegrind's count (or 2 of a small one); cachegrind's
    may be up to ``extra`` more (misses of reads the trace does not have)."""
    slack = max(2, 0.01 * cachegrind)
    ok = -slack <= cachegrind - wgtrace <= slack + extra
    check(ok, "%s: wgtrace %d, cachegrind %d" % (what, wgtrace, cachegrind))
    print("%-40s wgtrace %9d  cachegrind %9d" % (what, wgtrace, cachegrind))


trace = os.path.join(WORK, "cache_kernels.bin")
run = subprocess.run([INSTRUMENTED], env=clean_env({"WGTRACE_FILE": trace}),
                     capture_output=True, text=True)
check(run.returncode == 0, "instrumented run exits %d: %s" % (run.returncode, run.stderr))


def compare(run_index, d1, ll, hierarchies):
    out_file = os.path.join(WORK, "cachegrind.%d.out" % run_index)
    plain = subprocess.run([VALGRIND, "--tool=cachegrind", "--cache-sim=yes",
                            "--D1=" + d1, "--I1=32768,8,64", "--LL=" + ll,
                            "--cachegrind-out-file=" + out_file, PLAIN],
                           env=clean_env(), capture_output=True, text=True)
    check(plain.returncode == 0, "plain run under cachegrind exits %d: %s"
          % (plain.returncode, plain.stderr[-2000:]))
    check(plain.stdout == run.stdout,
          "the instrumented program computes what the plain one does: %r vs %r"
          % (run.stdout, plain.stdout))
    if plain.returncode:
        return
    # cachegrind's per-function counts: "events:" names the columns, "fn="
    # the function of the lines "line count count ..." that follow.
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
        check(len(rows) == 1, "cachegrind has one function %s (%s)"
              % (kernel, sorted(per_function)))
        if len(rows) != 1:
            continue
        grind = dict(zip(events, rows[0]))
        summary = subprocess.run([VIEW, "summary", "--json", "--kernel", kernel, trace],
                                 capture_output=True, text=True)
        check(summary.returncode == 0, "summary --kernel %s exits %d"
              % (kernel, summary.returncode))
        if summary.returncode:
            continue
        counts = json.loads(summary.stdout)["kernels"][kernel]
        workgroups = counts["workgroups"]
        check(0 <= grind["Dr"] - counts["loads"] <= 4 * workgroups,
              "%s loads: wgtrace %d, cachegrind %d (and at most 4 reads of the id "
              "per workgroup, %d)" % (kernel, counts["loads"], grind["Dr"], workgroups))
        print("%-40s wgtrace %9d  cachegrind %9d" % (kernel + " loads (Dr)", counts["loads"],
                                                      grind["Dr"]))
        close(counts["stores"], grind["Dw"], kernel + " stores (Dw)")
        for levels, as_ll in hierarchies:
            cache = subprocess.run([VIEW, "cache", "--json", "--kernel", kernel] + levels
                                   + [trace], capture_output=True, text=True)
            check(cache.returncode == 0, "cache --kernel %s %s exits %d: %s"
                  % (kernel, " ".join(levels), cache.returncode, cache.stderr))
            if cache.returncode:
                continue
            report = json.loads(cache.stdout)
            totals = report["totals"]
            check([level["name"] for level in report["levels"]]
                  == (["D1", "LL"] if as_ll == "LL" else ["D1", "L2", "LL"]),
                  "%s: levels %s" % (kernel, report["levels"]))
            check(totals[as_ll + "mr"] + totals[as_ll + "mw"] > 1000,
                  "%s misses enough to compare: %s" % (kernel, totals))
            what = "%s D1 %s %s" % (kernel, levels[1], "(D1, LL)" if as_ll == "LL"
                                    else "(D1, L2, LL)")
            # The plain build's reads of the workgroup's id (Dr - loads) may
            # miss the 1 KiB D1 (measured: 60 of 768 in transpose).
            close(totals["D1mr"], grind["D1mr"], what + " D1mr",
                  extra=grind["Dr"] - counts["loads"])
            close(totals["D1mw"], grind["D1mw"], what + " D1mw")
            close(totals[as_ll + "mr"], grind["DLmr"], what + " %smr/DLmr" % as_ll)
            close(totals[as_ll + "mw"], grind["DLmw"], what + " %smw/DLmw" % as_ll)


for run_index, (d1, ll, hierarchies) in enumerate(RUNS):
    compare(run_index, d1, ll, hierarchies)

finish()
