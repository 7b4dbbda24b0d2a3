#!/usr/bin/env python3
"""Throughput of the Python module on a generated trace.

    python3 bench/python/accesses_bench.py [--build build] [--size-mib 1024]
        [--runs 5] [--no-csv] [--json PATH]

Generates a trace with wgtrace-make-big-trace (a tiled matmul's records on
four rings, as bench/viewer/run.sh does) and measures, in one process:

- wgtrace.open(): the pass that indexes workgroups, values and prints;
- Trace.accesses(): every load and store decoded into a fresh numpy
  structured array, in records per second (the target: at least 50 M/s),
  with the process's user and system CPU time, best and median of --runs;
- Trace.accesses() of one workgroup, of one processor's workgroups (one
  ring of four) and of one kernel, read through open()'s index: each
  returned row must cost about what a row of the whole array costs (the
  budget: at least half its rate);
- Trace.accesses(as_frame=True) (the budget: at least half the rate of
  the array);
- the same records through `wgtrace-view export --format csv` and
  pandas.read_csv, on a trace a sixteenth the size: the route the module
  replaces (--no-csv leaves it out).

--json writes the budgets' results for bench/budgets.py.

Not a ctest: the numbers depend on the machine and its load (printed).
Runs itself again with the interpreter the module was built for (the
build's Python_EXECUTABLE) when started with another one.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time


def build_python(build):
    with open(os.path.join(build, "CMakeCache.txt")) as cache:
        for line in cache:
            if line.startswith("Python_EXECUTABLE:"):
                return line.split("=", 1)[1].strip()
    sys.exit("accesses_bench: %s was configured without the Python module" % build)


def measure(function):
    """(result, wall seconds, user seconds, system seconds)."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    result = function()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    return result, wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="a configured build tree")
    parser.add_argument("--size-mib", type=int, default=1024, help="size of the trace")
    parser.add_argument("--runs", type=int, default=5, help="runs of accesses()")
    parser.add_argument("--json", metavar="PATH",
                        help="also write the budgets' results there (bench/budget_results.py)")
    parser.add_argument("--no-csv", action="store_true",
                        help="leave out the export + read_csv comparison")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    python = build_python(build)
    if os.path.realpath(sys.executable) != os.path.realpath(python):
        os.execv(python, [python] + sys.argv)
    subprocess.run(["cmake", "--build", build, "--target", "_wgtrace", "wgtrace_python_package",
                    "wgtrace-make-big-trace", "wgtrace-view"], check=True,
                   stdout=subprocess.DEVNULL)
    sys.path.insert(0, os.path.join(build, "python"))
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from budget_results import Results
    import pandas as pd
    import wgtrace

    make = os.path.join(build, "bin", "wgtrace-make-big-trace")
    view = os.path.join(build, "bin", "wgtrace-view")
    with tempfile.TemporaryDirectory(prefix="wgtrace-pybench.") as scratch:
        big = os.path.join(scratch, "big.bin")
        small = os.path.join(scratch, "small.bin")
        subprocess.run([make, big, str(args.size_mib)], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([make, small, str(max(1, args.size_mib // 16))], check=True,
                       stdout=subprocess.DEVNULL)
        with open(big, "rb") as f:  # from the page cache from now on
            while f.read(1 << 24):
                pass
        size = os.path.getsize(big)
        print("trace: %.0f MiB; load average %s" % (
            size / 2**20, " ".join("%.1f" % x for x in os.getloadavg())))

        t, wall, user, system = measure(lambda: wgtrace.open(big))
        records = int(t.rings["records"].sum())
        count = t.access_count
        print("%d records, %d loads and stores, %d workgroups, %d rings\n" % (
            records, count, len(t.workgroups), len(t.rings)))
        header = "%-44s %8s %8s %8s %14s" % ("run", "wall s", "user s", "sys s", "records/s")
        print(header)

        def row(name, n, wall, user, system):
            print("%-44s %8.3f %8.3f %8.3f %14s" % (name, wall, user, system,
                                                    "%.1f M" % (n / wall / 1e6)))

        row("wgtrace.open (index pass)", records, wall, user, system)

        runs = []
        for _ in range(args.runs):
            rows, wall, user, system = measure(t.accesses)
            assert len(rows) == count
            del rows
            runs.append((wall, user, system))
        best = min(runs)
        median = sorted(runs)[len(runs) // 2]
        row("accesses(), best of %d" % args.runs, count, *best)
        row("accesses(), median", count, *median)
        rate = count / best[0] / 1e6

        first = t.workgroups.iloc[len(t.workgroups) // 2]
        workgroup = (int(first["wg_x"]), int(first["wg_y"]), int(first["wg_z"]))
        results = Results(args.json)
        results.add("python.accesses", rate, rate >= 50,
                    "%.1f M records/s (best of %d)" % (rate, args.runs))
        # A selection is read through the index: each returned row costs
        # about what a row of the whole array costs (budget: at least half
        # its rate, for noise).
        selections = [
            ("workgroup", "workgroup=%s" % ",".join(map(str, workgroup)),
             lambda: t.accesses(workgroup=workgroup)),
            ("processor", "processor=%d" % int(first["processor"]),
             lambda: t.accesses(processor=int(first["processor"]))),
            ("kernel", "kernel=%s" % first["kernel"], lambda: t.accesses(kernel=first["kernel"])),
        ]
        for key, name, select in selections:
            # The best of --runs, as for accesses(): a query of milliseconds
            # is at the mercy of any moment of load.
            best = None
            for _ in range(args.runs):
                rows, wall, user, system = measure(select)
                if best is None or wall < best[0]:
                    best = (wall, user, system)
                if _ + 1 < args.runs:
                    del rows
            wall, user, system = best
            row("accesses(%s), best: %d rows" % (name, len(rows)), len(rows), wall, user, system)
            selected = len(rows) / wall / 1e6
            results.add("python.select.%s" % key, selected / rate, selected >= rate / 2,
                        "%.1f M rows/s, %.2fx of accesses()" % (selected, selected / rate))
            del rows
        frame, wall, user, system = measure(lambda: t.accesses(as_frame=True))
        row("accesses(as_frame=True)", count, wall, user, system)
        del frame
        framed = count / wall / 1e6
        results.add("python.as_frame", framed / rate, framed >= rate / 2,
                    "%.1f M records/s, %.2fx of accesses()" % (framed, framed / rate))
        results.write()
        if args.no_csv:
            print("\naccesses() best: %.1f M records/s (target >= 50 M/s): %s" % (
                rate, "met" if rate >= 50 else "NOT met"))
            return 0

        small_trace = wgtrace.open(small)
        small_count = small_trace.access_count
        rows, wall, user, system = measure(small_trace.accesses)
        row("accesses(), trace of %d MiB" % (os.path.getsize(small) // 2**20), small_count,
            wall, user, system)
        module_rate = small_count / wall
        csv = os.path.join(scratch, "small.csv")

        def through_csv():
            with open(csv, "w") as out:
                subprocess.run([view, "export", small, "--format", "csv"], stdout=out,
                               check=True)
            table = pd.read_csv(csv, usecols=["kind", "address", "length", "wg_x", "wg_y",
                                              "wg_z", "pid"])
            return table[table["kind"].isin(["load", "store"])]

        table, wall, user, system = measure(through_csv)
        assert len(table) == small_count
        # The export runs in a child process: its CPU time is not in ours.
        row("export --format csv + pandas.read_csv", small_count, wall, user, system)
        print("\naccesses() best: %.1f M records/s (target >= 50 M/s): %s" % (
            rate, "met" if rate >= 50 else "NOT met"))
        print("the module against export + read_csv: %.0fx faster" % (
            module_rate / (small_count / wall)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
