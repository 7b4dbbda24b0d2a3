#!/usr/bin/env python3
"""Every budget the project has promised, measured on one build: one table.

    python3 bench/budgets.py [--build build] [--only GROUP,...] [--json PATH]
    python3 bench/budgets.py --list

Runs the benchmark scripts that judge the budgets (each writes its results
with --json, bench/budget_results.py) at sizes where their ratios hold but
that keep the whole run to a few minutes, and prints one row per budget:
what is promised, where (the document and section that state it), what was
measured, and whether it is met. Ratios where the budget is a ratio: the
machine is shared and noisy, so run it when the machine is quiet and read
the load average it prints. Exit status 0 when every budget measured is
met, 1 when one is not, 2 when a benchmark failed.

--list prints the budgets without measuring anything. --only runs some
groups: overhead, runtime, record, rewriter, viewer, python. --quick runs
each group at its smallest size, one pair: a smoke test of this script,
whose figures say nothing.

Not a ctest: timed checks never go into the tests (the tests run
`budgets.py --list`, so that this catalogue cannot rot unnoticed). Run it
before a stop that touches code these budgets measure, and put its table
into the closing note.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class Budget:
    def __init__(self, key, group, promise, where):
        self.key, self.group, self.promise, self.where = key, group, promise, where


RUNTIME_MD = "docs/RUNTIME.md"
KERNEL_LIMITS = {"simple_mul": 6.0, "matmul": 2.0, "stencil": 7.0, "transpose": 1.1}
BUDGETS = (
    [Budget("overhead.wgtrace.%s" % k, "overhead",
            "%s traced: kernel time <= %.1fx plain" % (k, limit), RUNTIME_MD + " Overhead")
     for k, limit in KERNEL_LIMITS.items()]
    + [Budget("overhead.ideal.%s" % k, "overhead",
              "%s: traced within 1.05x of the ideal thread-local tracer (wgtrace / ideal)"
              % k, RUNTIME_MD + " Against the ideal tracer")
       for k in KERNEL_LIMITS]
    + [Budget("overhead.ideal-2w.%s" % k, "overhead",
              "%s, 2 workers: traced within 1.1x of the ideal tracer (wgtrace / ideal)" % k,
              RUNTIME_MD + " Against the ideal tracer")
       for k in KERNEL_LIMITS]
    + [Budget("overhead.wg-only.matmul", "overhead",
              "matmul, workgroup records only (MEMORY_ACCESSES OFF): <= 1.03x plain",
              "bench/overhead.py")]
    + [Budget("overhead.sites.%s" % k, "overhead",
              "%s: access sites cost <= 1.03x (wgtrace / no-sites)" % k,
              RUNTIME_MD + " Access sites and buffer records")
       for k in KERNEL_LIMITS]
    + [Budget("overhead.below-%s.%s" % (tool, k), "overhead",
              "%s: traced slower than plain by less than %s (wgtrace / %s < 1)"
              % (k, name, tool), "bench/overhead.py")
       for tool, name in (("tsan", "TSan"), ("sancov", "sanitizer-coverage rings"))
       for k in KERNEL_LIMITS]
    + [
        Budget("overhead.scaling.matmul", "overhead",
               "matmul, 2 workers record >= 1.7x the records/s of 1", "bench/overhead.py"),
        Budget("overhead.memory", "overhead",
               "resident memory: traced run within 1.1x of its 64 MiB ring over plain",
               "bench/overhead.py"),
        Budget("record.threads", "record",
               "one record, per-thread ring: 2 threads record >= the records/s of 1",
               "bench/record_bench.cc; " + RUNTIME_MD + " Overhead"),
        Budget("runtime.threads", "runtime",
               "a thread per launch (200 launches): wall time <= 1.3x one long-lived thread",
               RUNTIME_MD + " Budgets of real programs"),
        Budget("runtime.threads-trace", "runtime",
               "a thread per launch: trace at most 1 MiB over the records it holds",
               RUNTIME_MD + " Budgets of real programs"),
        Budget("runtime.filter", "runtime",
               "matmul 256^3 tracing 1 workgroup of 64 (SELECTABLE): <= 1.1x plain",
               RUNTIME_MD + " Budgets of real programs"),
    ]
    + [Budget("runtime.stream.%s" % k, "runtime",
              "%s: stream mode <= 3x ring mode (trace in /dev/shm)" % k,
              RUNTIME_MD + " Stream mode: what bounds it")
       for k in KERNEL_LIMITS]
    + [Budget("runtime.compress.size.%s" % k, "runtime",
              "%s: WGTRACE_COMPRESS=zstd trace <= 1/10 of the plain one (zstd / plain)" % k,
              "docs/FORMAT.md Compressed chunk")
       for k in KERNEL_LIMITS]
    + [
        Budget("rewriter.speed", "rewriter",
               "wgtrace-rewrite <= 1.5x clang -fsyntax-only, every sample and a generated file",
               "docs/REWRITER.md Speed"),
        Budget("viewer.summary", "viewer", "wgtrace-view summary >= 1000 MB/s",
               "docs/VIEWER.md Speed"),
        Budget("viewer.diff", "viewer", "diff of two traces <= 3x summary of one",
               "docs/VIEWER.md Speed"),
        Budget("viewer.html", "viewer", "html of a trace <= 3x its summary",
               "docs/VIEWER.md Speed"),
        Budget("viewer.memory", "viewer",
               "summary, races, diff memory independent of file size (4x file: <= 1.5x)",
               "docs/VIEWER.md Speed"),
        Budget("viewer.dump", "viewer", "dump >= 20 M records/s", "bench/viewer/run.sh"),
    ]
    + [
        Budget("viewer.threads." + tool, "viewer",
               "%s of the eight-ring trace: --threads 2 >= 1.6x faster than --threads 1"
               % tool, "docs/VIEWER.md Threads (--threads)")
        for tool in ("summary", "races", "cache")
    ]
    + [
        Budget("viewer.compressed.summary", "viewer",
               "summary of the eight-ring trace compressed (zstd) at least as fast as "
               "of the plain one, both on all cores",
               "docs/VIEWER.md Threads (--threads)"),
    ]
    + [
        Budget("python.accesses", "python", "Trace.accesses() >= 50 M records/s",
               "docs/PYTHON.md Tests and speed (issues 13, 26)"),
        Budget("python.select.workgroup", "python",
               "accesses(workgroup=...): per returned row >= 1/2 the rate of accesses()",
               "docs/PYTHON.md Accesses (issue 26)"),
        Budget("python.select.processor", "python",
               "accesses(processor=...): per returned row >= 1/2 the rate of accesses()",
               "docs/PYTHON.md Accesses (issue 26)"),
        Budget("python.select.kernel", "python",
               "accesses(kernel=...): per returned row >= 1/2 the rate of accesses()",
               "docs/PYTHON.md Accesses (issue 26)"),
        Budget("python.as_frame", "python",
               "accesses(as_frame=True) >= 1/2 the rate of accesses()",
               "docs/PYTHON.md Accesses (issue 26)"),
    ]
)
GROUPS = ["overhead", "record", "runtime", "rewriter", "viewer", "python"]


def commands(group, build, quick, out):
    """The command that measures a group's budgets into out (JSON)."""
    py = sys.executable
    pairs = "1" if quick else "3"
    if group == "overhead":
        return [[py, os.path.join(HERE, "overhead.py"), "--build", build, "--pairs", pairs,
                 "--json", out] + (["--quick"] if quick else [])]
    if group == "runtime":
        return [[py, os.path.join(HERE, "runtime_budgets.py"), "--build", build, "--pairs",
                 pairs, "--json", out] + (["--quick"] if quick else [])]
    if group == "rewriter":
        return [[py, os.path.join(HERE, "rewriter_speed.py"), "--rewrite",
                 os.path.join(build, "bin", "wgtrace-rewrite"), "--runs", "1" if quick else "3",
                 "--json", out] + (["--only-generated", "--kernels", "30"] if quick else [])]
    if group == "viewer":
        # 512 MiB: the eight-ring trace the threads budget names (issue 23).
        return [["bash", os.path.join(HERE, "viewer", "run.sh"), build,
                 "64" if quick else "512", "1" if quick else "3", out]]
    if group == "python":
        # The 1 GiB trace the budget was promised on (about 40 s); the best
        # of five runs, since the rate depends on a core being free.
        return [[py, os.path.join(HERE, "python", "accesses_bench.py"), "--build", build,
                 "--size-mib", "64" if quick else "1024", "--runs", "1" if quick else "5",
                 "--no-csv", "--json", out]]
    if group == "record":
        return [[os.path.join(build, "bench", "bench_record"),
                 "--benchmark_filter=^threadLocalRing/", "--benchmark_format=json",
                 "--benchmark_repetitions=%s" % ("1" if quick else "3"),
                 "--benchmark_out=" + out, "--benchmark_out_format=json"]]
    raise ValueError(group)


def record_results(path):
    """Google Benchmark's JSON as budget results: the medians of the
    per-thread ring's records/s on 2 threads over 1."""
    rates = {}
    with open(path) as f:
        for b in json.load(f)["benchmarks"]:
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            threads = int(b["name"].split("threads:")[1].split("_")[0])
            rates.setdefault(threads, []).append(b["items_per_second"])
    one, two = (sorted(rates[n])[len(rates[n]) // 2] for n in (1, 2))
    return [{"key": "record.threads", "value": two / one, "met": two >= one,
             "measured": "%.2fx (%.2f G/s on 2 threads, %.2f G/s on 1)"
                         % (two / one, two / 1e9, one / 1e9)}]


def cited_files(where):
    """The repository files a budget's "where" names (docs/X.md Section; ...)."""
    return [part.strip().split(" ")[0] for part in where.split(";")]


def load_average():
    return " ".join("%.1f" % x for x in os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="a configured and built build tree (default: build)")
    parser.add_argument("--list", action="store_true", help="print the budgets; measure nothing")
    parser.add_argument("--only", help="comma-separated groups: " + ", ".join(GROUPS))
    parser.add_argument("--quick", action="store_true",
                        help="smallest sizes, one pair: a smoke test, not a measurement")
    parser.add_argument("--json", metavar="PATH", help="also write the table there as JSON")
    parser.add_argument("--verbose", action="store_true",
                        help="show the benchmarks' own output")
    args = parser.parse_args()
    groups = GROUPS if not args.only else args.only.split(",")
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        parser.error("unknown groups %s (known: %s)" % (", ".join(unknown), ", ".join(GROUPS)))
    chosen = [b for b in BUDGETS if b.group in groups]
    if args.list:
        # Each budget names the files that promise it: they must exist.
        missing = sorted({f for b in BUDGETS for f in cited_files(b.where)
                          if not os.path.isfile(os.path.join(ROOT, f))})
        for b in chosen:
            print("%-34s %-9s %s  [%s]" % (b.key, b.group, b.promise, b.where))
        keys = [b.key for b in BUDGETS]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        for f in missing:
            print("budgets.py: a budget cites %s, which does not exist" % f)
        for k in twice:
            print("budgets.py: budget %s is listed twice" % k)
        return 1 if missing or twice else 0

    build = os.path.abspath(args.build)
    results, failed, seconds = {}, [], {}
    print("budgets of %s; load average at the start %s" % (build, load_average()), flush=True)
    with tempfile.TemporaryDirectory(prefix="wgtrace-budgets.") as work:
        for group in groups:
            out = os.path.join(work, group + ".json")
            start = time.monotonic()
            for cmd in commands(group, build, args.quick, out):
                print("%s: %s" % (group, " ".join(cmd)), flush=True)
                proc = subprocess.run(cmd, cwd=ROOT, text=True,
                                      stdout=None if args.verbose else subprocess.PIPE,
                                      stderr=subprocess.STDOUT)
                # Over budget is exit status 1 for the scripts; only a missing
                # result file means the benchmark itself failed.
                if not os.path.exists(out):
                    failed.append(group)
                    if not args.verbose:
                        sys.stdout.write(proc.stdout or "")
                    print("%s: failed (exit status %d), no results" % (group, proc.returncode))
            seconds[group] = time.monotonic() - start
            if os.path.exists(out):
                rows = record_results(out) if group == "record" else json.load(open(out))
                for row in rows:
                    results[row["key"]] = row
            print("%s: %.0f s, load average %s" % (group, seconds[group], load_average()),
                  flush=True)

    table = []
    for b in chosen:
        r = results.get(b.key)
        table.append({"budget": b.key, "promise": b.promise, "where": b.where,
                      "measured": r["measured"] if r else "not measured",
                      "value": r["value"] if r else None,
                      "met": r["met"] if r else None})
    print()
    print("| budget | promised | where | measured | met |")
    print("|---|---|---|---|---|")
    for row in table:
        met = "-" if row["met"] is None else "met" if row["met"] else "NOT met"
        print("| %s | %s | %s | %s | %s |" % (row["budget"], row["promise"], row["where"],
                                              row["measured"], met))
    missed = [r for r in table if r["met"] is False]
    print("\n%d budgets, %d met, %d not met, %d not measured; %s; load average at the end %s" % (
        len(table), sum(1 for r in table if r["met"]), len(missed),
        sum(1 for r in table if r["met"] is None),
        ", ".join("%s %.0f s" % (g, s) for g, s in seconds.items()), load_average()))
    extra = sorted(set(results) - {b.key for b in BUDGETS})
    if extra:
        print("results no budget lists (add them to BUDGETS): " + ", ".join(extra))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"build": build, "quick": args.quick, "seconds": seconds,
                       "budgets": table}, f, indent=1)
    if failed:
        return 2
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
