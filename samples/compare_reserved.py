#!/usr/bin/env python3
"""The builds of the record path trace the same: the samples and the bench
kernels as built by default (reserved statements: one room check per
statement, wgtrace-rewrite --reserve-records) against the same sources
built with a room check per record (RESERVE_RECORDS OFF): `wgtrace-view
summary` of each run is the same but for the trace's file name. The
samples are run a third time with every reservation checked
(WGTRACE_CHECK_RESERVATIONS=1: an undercount aborts); the bench kernels
with non-temporal stores (TEMPORAL_RECORDS OFF), alone and with a check
per record.

Usage: compare_reserved.py --samples DIR --view WGTRACE_VIEW --out DIR
                           [--bench DIR]
"""
import argparse
import os
import re
import subprocess
import sys

from run_samples import RUNS

BENCH_KERNELS = {"simple_mul": 1 << 16, "matmul": 128, "stencil": 256, "transpose": 256}


def summary(view, program, arguments, trace, expected, env):
    run = subprocess.run([program] + arguments, env=dict(env, WGTRACE_FILE=trace),
                         capture_output=True, text=True)
    if run.returncode != expected:
        return None, "%s exited %d, expected %d: %s" % (
            os.path.basename(program), run.returncode, expected, run.stderr.strip()[-400:])
    result = subprocess.run([view, "summary", trace], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        return None, "wgtrace-view summary %s failed: %s" % (trace, result.stderr.strip())
    # Which worker of the local-task device ran a workgroup (the table's pid
    # column), and so the order of the table's rows, changes from run to run.
    lines, rows = [], []
    for line in result.stdout.replace(trace, "TRACE").splitlines():
        row = re.match(r"(\s+\d+,\d+,\d+\s+)\d+(.*)", line)
        if row:
            rows.append(row.group(1) + "-" + row.group(2))
            continue
        lines += sorted(rows) + [line]
        rows = []
    return "\n".join(lines + sorted(rows)) + "\n", None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", required=True)
    parser.add_argument("--bench")
    parser.add_argument("--view", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("WGTRACE_")}
    pairs = [(name, os.path.join(args.samples, program), extra, expected, ("_reserved", "_checked"))
             for name, program, extra, expected in RUNS]
    if args.bench:
        pairs += [("bench_" + kernel, os.path.join(args.bench, "bench_" + kernel),
                   ["--size=%d" % size, "--reps=1"], 0,
                   ("_checked", "_nontemporal", "_checked_nontemporal"))
                  for kernel, size in BENCH_KERNELS.items()]
    failed = 0
    for name, program, extra, expected, builds in pairs:
        texts = []
        suffixes = ("",) + builds
        for suffix in suffixes:
            trace = os.path.join(args.out, name + suffix + ".bin")
            text, error = summary(args.view, program + suffix, extra, trace, expected, env)
            if error:
                print("%-18s FAILED: %s" % (name + suffix, error))
            texts.append(text)
        if None in texts:
            failed += 1
            continue
        if any(text != texts[0] for text in texts):
            for suffix, text in zip(suffixes, texts):
                with open(os.path.join(args.out, name + suffix + ".summary.txt"), "w") as f:
                    f.write(text)
            print("%-18s DIFFERENT summaries: see %s" % (name, args.out))
            failed += 1
            continue
        print("%-18s same summary in %d builds (%d lines)" % (
            name, len(texts), len(texts[0].splitlines())))
    print("compare_reserved: %d of %d programs traced the same in every build" % (
        len(pairs) - failed, len(pairs)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
