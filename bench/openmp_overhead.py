#!/usr/bin/env python3
"""OpenMP loops traced as dispatches against the same work traced as
dispatches: the four bench kernels (bench/kernels/*.cc, launched with
wgtrace::dispatch) and their OpenMP versions (bench/kernels/openmp/*.cc,
one iteration of a `parallel for` per workgroup, the same body, traced by
wgtrace-rewrite --openmp), on one thread (OMP_NUM_THREADS=1, local-sync)
and on two (OMP_NUM_THREADS=2, local-task with 2 workers).

    python3 bench/openmp_overhead.py [--build build] [--pairs 5] [--quick]

Prints, per kernel and thread count, the median over the pairs of

    omp traced / dispatch traced   what tracing a loop as written costs
                                   beyond tracing the same work launched
                                   as a dispatch (1.0: the same)
    omp traced / omp plain         and what it costs against the loop
                                   untraced
    dispatch traced / plain        the dispatch's own overhead, for scale

Every pair runs the four builds back to back (same load); the checksums of
the four must agree. Not a ctest (timed).
"""
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_args  # noqa: E402

KERNELS = {"simple_mul": 4 << 20, "matmul": 256, "stencil": 2048, "transpose": 2048}
QUICK = {"simple_mul": 1 << 16, "matmul": 64, "stencil": 256, "transpose": 256}


def run(binary, size, env_extra, reps):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WGTRACE_")}
    env.update(env_extra)
    out = subprocess.run([binary, "--size=%d" % size, "--reps=%d" % reps], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    fields = dict(line.split(": ", 1) for line in out.stdout.splitlines() if ": " in line)
    if out.returncode != 0 or "kernel_seconds" not in fields:
        sys.exit("%s failed (%d)" % (binary, out.returncode))
    return float(fields["kernel_seconds"]), fields["checksum"]


def main():
    args, bench_dir, pairs = bench_args.parse()
    sizes = QUICK if args.quick else KERNELS
    trace = os.path.join(bench_dir, "openmp_overhead.bin")
    print("kernel      threads  omp/dispatch (traced)  omp traced/plain  dispatch traced/plain")
    for kernel, size in sizes.items():
        builds = {name: os.path.join(bench_dir, "bench_%s%s" % (kernel, suffix))
                  for name, suffix in (("plain", "_plain"), ("dispatch", ""),
                                       ("omp_plain", "_omp_plain"), ("omp", "_omp"))}
        missing = [b for b in builds.values() if not os.path.exists(b)]
        if missing:
            sys.exit("not built: %s (OpenMP not found?)" % ", ".join(missing))
        for threads in (1, 2):
            env = {"OMP_NUM_THREADS": str(threads), "WGTRACE_QUIET": "1",
                   "WGTRACE_FILE": trace, "WGTRACE_BUFFER_SIZE": "256mib"}
            if threads > 1:
                env.update({"WGTRACE_DEVICE": "local-task", "WGTRACE_WORKERS": str(threads)})
            times = {name: [] for name in builds}
            for _ in range(pairs):
                sums = set()
                for name, binary in builds.items():
                    seconds, checksum = run(binary, size, env, 3)
                    times[name].append(seconds)
                    sums.add(checksum)
                if len(sums) != 1:
                    sys.exit("%s: the builds disagree: %s" % (kernel, sorted(sums)))
            med = {name: statistics.median(v) for name, v in times.items()}
            print("%-11s %7d  %21.2fx  %16.2fx  %21.2fx" % (
                kernel, threads, med["omp"] / med["dispatch"],
                med["omp"] / med["omp_plain"], med["dispatch"] / med["plain"]))
    if os.path.exists(trace):
        os.remove(trace)


if __name__ == "__main__":
    main()
