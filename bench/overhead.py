#!/usr/bin/env python3
"""Tracing overhead: instrumented against plain, in one invocation.

For each kernel, builds (already built by CMake) of the same source with the
same compiler and flags are run in rotation, --pairs times:

  plain      the source as written
  wgtrace    rewritten by wgtrace-rewrite, memory accesses traced (ring mode)
  ideal      the same rewritten source recording into the simplest tracer:
             a thread-local 16 MiB ring, masked cursor, two plain stores
             per record (bench/ideal_ring.h); wgtrace / ideal of the same
             round is what wgtrace's promises cost (budget 1.05x; 1.1x
             with 2 workers, local-task)
  stream     the wgtrace binary run with WGTRACE_MODE=stream (lossless,
             written to the file while the kernels run)
  wg-only    built with MEMORY_ACCESSES OFF (workgroup records only)
  no-sites   built with ACCESS_SITES OFF (records without access site bits)
  no-buffers built without the prologue's buffer records
  checked    rewritten without --reserve-records (RESERVE_RECORDS OFF):
             each record checks the ring's end, where wgtrace's default
             build checks once per statement; printed against wgtrace and
             the ideal tracer of the same rounds, on one and on two workers
  nontemporal  built with WGTRACE_TEMPORAL_RECORDS=0: records stored with
             non-temporal stores, where wgtrace's default stores them as
             the ideal tracer does; printed as checked is
  checked-nontemporal  both (wgtrace's default before this release)
  mem-off    the wgtrace binary run with WGTRACE_MEMORY=0 (accesses compiled
             in, not recorded)
  tsan       -fsanitize=thread
  sancov     -fsanitize-coverage=func,trace-loads,trace-stores feeding
             thread-local rings of the same size (bench/sancov_ring.cc)

tsan and sancov need Clang (GCC has no -fsanitize-coverage=trace-loads): a
build by another compiler runs without them and says so. Each run prints
its best kernel time; a pair's ratio is variant / plain of the same round.
Prints the median and min-max ratio per kernel and variant, wgtrace against
the ideal tracer on one and on two workers (beside the second, how much
faster two workers ran the ideal tracer than one in the same rounds), the
budgets, 2-worker scaling and resident memory. Ratios, not times: the
machine is shared and noisy.

Usage: bench/overhead.py [--build build] [--pairs 5] [--quick]
                         [--variants no-sites,no-buffers,...]
                         [--ring-mib N]
       (--ring-mib: wgtrace's rings of N MiB, WGTRACE_BUFFER_SIZE, where
       they are the runtime's default, 16 MiB, as the ideal tracer's are)
       (--build build-gcc: the kernels compiled by g++, from a build
       configured with CMake's default compiler)
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

import bench_args
from budget_results import Results

# name: (size argument, budget for wgtrace's ratio, repetitions per run).
# Each run's time is its best repetition. simple_mul's kernel takes about
# 9 ms traced, and the best of 3 of it moved by 0.5-1.7x between rounds
# where the best of 50 moved by 0.8-1.2x (docs/RUNTIME.md, "simple_mul: the
# site base"); stencil's, 11-22 ms with 2 workers, gave a median of 1.149x
# against the ideal tracer with the best of 3 per run where, in the same
# hour, the best of 15 gave 1.018x and 1.061x.
KERNELS = {
    "simple_mul": (4 << 20, 6.0, 30),
    "matmul": (256, 2.0, 3),
    "stencil": (2048, 7.0, 15),
    "transpose": (2048, 1.1, 3),
}


def kernel_run(kernel, quick):
    """(size argument, repetitions) of each run of a kernel."""
    size, _, reps = KERNELS[kernel]
    if quick:
        size = max(size // 64, 256) if kernel == "simple_mul" else 128
    return size, reps


VARIANTS = ["wgtrace", "ideal", "stream", "wg-only", "mem-off", "no-sites", "no-buffers",
            "checked", "nontemporal", "checked-nontemporal", "tsan", "sancov"]
# Builds of wgtrace printed against wgtrace and the ideal tracer.
ALTERNATIVES = ["checked", "nontemporal", "checked-nontemporal"]


def run(binary, size, env_extra=None, reps=3):
    """(best kernel seconds of reps repetitions, checksum) of one run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WGTRACE_")}
    env.update(env_extra or {})
    env["TSAN_OPTIONS"] = "report_signal_unsafe=0"
    pid = subprocess.Popen([binary, "--size=%d" % size, "--reps=%d" % reps], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out, _ = pid.communicate()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    fields = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    if pid.returncode != 0 or "kernel_seconds" not in fields:
        sys.exit("%s failed (%d)" % (binary, pid.returncode))
    return float(fields["kernel_seconds"]), fields["checksum"]


def peak_rss_kib(binary, size, env_extra):
    """Peak resident set of one run, from wait4's rusage."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WGTRACE_")}
    env.update(env_extra)
    proc = subprocess.Popen([binary, "--size=%d" % size, "--reps=1"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit("%s failed" % binary)
    return usage.ru_maxrss


def build_compiler(build):
    """The C++ compiler of a CMake build directory, e.g. 'GNU 12.2.0'."""
    fields = {}
    cache = os.path.join(build, "CMakeCache.txt")
    compiler_file = None
    if os.path.isfile(cache):
        for line in open(cache):
            if line.startswith("CMAKE_CXX_COMPILER:"):
                fields["path"] = line.split("=", 1)[1].strip()
    files = os.path.join(build, "CMakeFiles")
    for root, _, names in os.walk(files) if os.path.isdir(files) else []:
        if "CMakeCXXCompiler.cmake" in names:
            compiler_file = os.path.join(root, "CMakeCXXCompiler.cmake")
            break
    if compiler_file:
        for line in open(compiler_file):
            for key in ("CMAKE_CXX_COMPILER_ID", "CMAKE_CXX_COMPILER_VERSION"):
                if line.startswith("set(%s " % key):
                    fields[key] = line.split(None, 1)[1].rstrip(")\n").strip('"')
    return "%s %s (%s)" % (fields.get("CMAKE_CXX_COMPILER_ID", "?"),
                           fields.get("CMAKE_CXX_COMPILER_VERSION", "?"), fields.get("path", "?"))


def main():
    def add_arguments(parser):
        parser.add_argument("--variants", help="comma-separated variants to run (default: "
                            "all built); wgtrace and ideal always run")
        parser.add_argument("--ring-mib", type=int, help="wgtrace's rings' size in MiB "
                            "(WGTRACE_BUFFER_SIZE; default: the runtime's)")
    args, bench_dir, pairs = bench_args.parse(add_arguments)
    # Every ring-mode run of a wgtrace build, with the ring size asked for.
    ring = {"WGTRACE_BUFFER_SIZE": "%dm" % args.ring_mib} if args.ring_mib else {}
    trace_dir = tempfile.mkdtemp(prefix="wgtrace-bench-")
    trace = os.path.join(trace_dir, "trace.bin")
    # Stream mode writes while the kernel runs: in memory where the system
    # has a tmpfs, so that the ratio is the runtime's and not the disk's.
    stream_dir = tempfile.mkdtemp(prefix="wgtrace-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    stream_trace = os.path.join(stream_dir, "trace.bin")

    print("kernels compiled by %s" % build_compiler(args.build))
    if args.ring_mib:
        print("wgtrace's rings: %d MiB (the ideal tracer's: 16 MiB)" % args.ring_mib)
    # Variants whose programs this build has (tsan and sancov need Clang).
    wanted = VARIANTS if not args.variants else ["wgtrace", "ideal"] + [
        v for v in args.variants.split(",") if v not in ("wgtrace", "ideal")]
    unknown = [v for v in wanted if v not in VARIANTS]
    if unknown:
        print("unknown variants: %s (known: %s)" % (", ".join(unknown), ", ".join(VARIANTS)))
        return 2
    variants = [v for v in wanted
                if v not in ("tsan", "sancov")
                or os.path.exists(os.path.join(bench_dir, "bench_simple_mul_" + v))]
    for v in wanted:
        if v not in variants:
            print("%s: not built by this compiler (needs Clang), skipped" % v)

    rows, failures, wrong = [], [], []
    results = Results(args.json)
    for kernel, (_, budget, _) in KERNELS.items():
        size, reps = kernel_run(kernel, args.quick)
        exe = lambda v: os.path.join(bench_dir, "bench_%s%s" % (kernel, v))
        ratios = {v: [] for v in variants}
        traced = dict(ring, WGTRACE_FILE=trace)
        for _ in range(pairs):
            plain, expected = run(exe("_plain"), size, reps=reps)
            commands = {
                "wgtrace": (exe(""), traced),
                "ideal": (exe("_ideal"), {"WGTRACE_FILE": trace}),
                "stream": (exe(""), {"WGTRACE_FILE": stream_trace, "WGTRACE_MODE": "stream"}),
                "wg-only": (exe("_wgonly"), traced),
                "mem-off": (exe(""), dict(traced, WGTRACE_MEMORY="0")),
                "no-sites": (exe("_nosites"), traced),
                "no-buffers": (exe("_nobuffers"), traced),
                "checked": (exe("_checked"), traced),
                "nontemporal": (exe("_nontemporal"), traced),
                "checked-nontemporal": (exe("_checked_nontemporal"), traced),
                "tsan": (exe("_tsan"), {}),
                "sancov": (exe("_sancov"), {}),
            }
            for variant, (binary, env) in commands.items():
                if variant not in variants:
                    continue
                seconds, checksum = run(binary, size, env, reps)
                if checksum != expected:
                    wrong.append("%s %s computes %s, plain %s" % (kernel, variant, checksum, expected))
                ratios[variant].append(seconds / plain)
        rows.append((kernel, budget, ratios))

    print("kernel       variant   ratio median  [min - max]   budget")
    for kernel, budget, ratios in rows:
        for variant in variants:
            r = ratios[variant]
            limit = {"wgtrace": budget,
                     "wg-only": 1.03 if kernel == "matmul" else None}.get(variant)
            verdict = ""
            if limit is not None:
                ok = statistics.median(r) <= limit
                results.add("overhead.%s.%s" % (variant, kernel), statistics.median(r), ok,
                            "%.2fx [%.2f - %.2f]" % (statistics.median(r), min(r), max(r)))
                verdict = "%5.2fx %s" % (limit, "ok" if ok else "OVER")
                if not ok:
                    failures.append("%s %s median %.2fx > %.2fx" % (kernel, variant, statistics.median(r), limit))
            print("%-12s %-9s %8.2fx     [%.2f - %.2f]   %s" % (kernel, variant, statistics.median(r), min(r), max(r), verdict))
        # What access sites and buffer records add to tracing, against the
        # same tracing without them in the same rounds (budget 3% for sites),
        # and what wgtrace costs over the ideal tracer (budget 5%).
        for other, what, limit in (("ideal", "over the ideal tracer", 1.05),
                                   ("no-sites", "access sites", 1.03),
                                   ("no-buffers", "buffer records", None)):
            if other not in ratios:
                continue
            extra = [w / o for w, o in zip(ratios["wgtrace"], ratios[other])]
            verdict = ""
            if limit is not None:
                ok = statistics.median(extra) <= limit
                key = "ideal" if other == "ideal" else "sites"
                results.add("overhead.%s.%s" % (key, kernel), statistics.median(extra), ok,
                            "%.3fx [%.3f - %.3f]" % (statistics.median(extra), min(extra),
                                                    max(extra)))
                verdict = "  budget %.2fx %s" % (limit, "ok" if ok else "OVER")
                if not ok:
                    failures.append("%s: %s cost %.3fx > %.2fx" % (
                        kernel, what, statistics.median(extra), limit))
            print("%-12s %s: wgtrace / %s %.3fx [%.3f - %.3f]%s" % (
                kernel, what, other, statistics.median(extra), min(extra),
                max(extra), verdict))
        # The other builds of wgtrace against the same rounds' wgtrace and
        # ideal.
        for alternative in ALTERNATIVES:
            if alternative not in ratios:
                continue
            for other in ("wgtrace", "ideal"):
                extra = [r / o for r, o in zip(ratios[alternative], ratios[other])]
                print("%-12s %s / %s %.3fx [%.3f - %.3f]" % (
                    kernel, alternative, other, statistics.median(extra), min(extra),
                    max(extra)))
        for ours in ("wgtrace",):
            wg = statistics.median(ratios[ours])
            for other in ("tsan", "sancov"):
                if other in ratios:
                    theirs = statistics.median(ratios[other])
                    results.add("overhead.below-%s.%s" % (other, kernel), wg / theirs,
                                wg < theirs, "%.2fx against %.2fx" % (wg, theirs))
                if other in ratios and wg >= statistics.median(ratios[other]):
                    failures.append("%s: %s %.2fx is not below %s %.2fx" % (
                        kernel, ours, wg, other, statistics.median(ratios[other])))

    # wgtrace against the ideal tracer with two workers, each with its own
    # ring: the same kernels, the same rounds.
    if "ideal" in variants:
        for kernel in KERNELS:
            size, reps = kernel_run(kernel, args.quick)
            two_workers = {"WGTRACE_DEVICE": "local-task", "WGTRACE_WORKERS": "2",
                           "WGTRACE_FILE": trace}
            traced_two = dict(two_workers, **ring)
            alternatives = [a for a in ALTERNATIVES if a in variants]
            extra, others, ideal_scale = [], {a: [] for a in alternatives}, []
            for _ in range(pairs):
                ours, _ = run(os.path.join(bench_dir, "bench_%s" % kernel), size, traced_two,
                              reps)
                ideal, _ = run(os.path.join(bench_dir, "bench_%s_ideal" % kernel), size,
                               two_workers, reps)
                ideal_one, _ = run(os.path.join(bench_dir, "bench_%s_ideal" % kernel), size,
                                   dict(two_workers, WGTRACE_WORKERS="1"), reps)
                extra.append(ours / ideal)
                ideal_scale.append(ideal_one / ideal)
                for alternative in alternatives:
                    mine, _ = run(os.path.join(bench_dir, "bench_%s_%s" % (
                        kernel, alternative.replace("-", "_"))), size, traced_two, reps)
                    others[alternative].append((mine / ideal, mine / ours))
            for alternative in alternatives:
                for i, other in enumerate(("ideal", "wgtrace")):
                    r = [x[i] for x in others[alternative]]
                    print("%-12s 2 workers: %s / %s %.3fx [%.3f - %.3f]" % (
                        kernel, alternative, other, statistics.median(r), min(r), max(r)))
            ok = statistics.median(extra) <= 1.1
            results.add("overhead.ideal-2w.%s" % kernel, statistics.median(extra), ok,
                        "%.3fx [%.3f - %.3f] (the ideal tracer on 2 workers: %.2fx as fast"
                        " as on 1)" % (statistics.median(extra), min(extra), max(extra),
                                       statistics.median(ideal_scale)))
            print("%-12s 2 workers: wgtrace / ideal %.3fx [%.3f - %.3f]  budget 1.10x %s" % (
                kernel, statistics.median(extra), min(extra), max(extra),
                "ok" if ok else "OVER"))
            # Whether two workers had two cores' worth of what bounds the
            # kernel: where they run no faster than one (a kernel bound by
            # memory bandwidth, or a shared host's second core taken), the
            # row above measures two threads contending, and moves with
            # what they contend for (docs/RUNTIME.md, "The default record
            # path").
            print("%-12s 2 workers: the ideal tracer ran %.2fx [%.2f - %.2f] as fast as on 1%s" % (
                kernel, statistics.median(ideal_scale), min(ideal_scale), max(ideal_scale),
                "" if statistics.median(ideal_scale) >= 1.3 else
                " (no faster: the two workers contend)"))
            if not ok:
                failures.append("%s: 2 workers, wgtrace / ideal %.3fx > 1.10x" % (
                    kernel, statistics.median(extra)))

    # Two workers against one: records per second of the whole process,
    # next to the same kernel built plain on the same two workers. simple_mul
    # is bound by memory bandwidth, so on a machine whose bandwidth one core
    # already uses up neither build scales; matmul shows what the per-thread
    # rings allow when the machine does.
    for kernel in ("simple_mul", "matmul"):
        size, _ = kernel_run(kernel, args.quick)
        traced_exe = os.path.join(bench_dir, "bench_%s" % kernel)
        plain_exe = os.path.join(bench_dir, "bench_%s_plain" % kernel)
        scale, plain_scale = [], []
        for _ in range(pairs):
            env = lambda workers, traced: dict(
                {"WGTRACE_DEVICE": "local-task", "WGTRACE_WORKERS": workers},
                **({"WGTRACE_FILE": trace} if traced else {}))
            one, _ = run(traced_exe, size, env("1", True))
            two, _ = run(traced_exe, size, env("2", True))
            plain_one, _ = run(plain_exe, size, env("1", False))
            plain_two, _ = run(plain_exe, size, env("2", False))
            scale.append(one / two)
            plain_scale.append(plain_one / plain_two)
        print("%-10s 2 workers record %.2fx the records/s of 1 [%.2f - %.2f]; plain build %.2fx [%.2f - %.2f]%s" % (
            kernel, statistics.median(scale), min(scale), max(scale), statistics.median(plain_scale),
            min(plain_scale), max(plain_scale), " (budget >= 1.7x)" if kernel == "matmul" else ""))
        if kernel == "matmul":
            results.add("overhead.scaling.matmul", statistics.median(scale),
                        statistics.median(scale) >= 1.7, "%.2fx [%.2f - %.2f] (plain build %.2fx)" % (
                            statistics.median(scale), min(scale), max(scale),
                            statistics.median(plain_scale)))
        if kernel == "matmul" and statistics.median(scale) < 1.7:
            failures.append("2-worker scaling on matmul %.2fx < 1.7x (plain build %.2fx)" % (
                statistics.median(scale), statistics.median(plain_scale)))

    # Resident memory: the traced run's extra peak RSS against its buffers.
    buffer_mib = 64
    size, _ = kernel_run("simple_mul", args.quick)
    plain_rss = peak_rss_kib(os.path.join(bench_dir, "bench_simple_mul_plain"), size, {})
    traced_rss = peak_rss_kib(os.path.join(bench_dir, "bench_simple_mul"), size, {"WGTRACE_FILE": trace, "WGTRACE_BUFFER_SIZE": "%dmib" % buffer_mib})
    extra_mib = (traced_rss - plain_rss) / 1024.0
    allowed = (buffer_mib + 4 / 1024.0) * 1.10
    print("resident memory: traced run +%.1f MiB over plain with one %d MiB ring (budget %.1f MiB)" % (
        extra_mib, buffer_mib, allowed))
    results.add("overhead.memory", extra_mib, extra_mib <= allowed,
                "+%.1f MiB with one %d MiB ring" % (extra_mib, buffer_mib))
    if extra_mib > allowed:
        failures.append("resident memory +%.1f MiB > %.1f MiB" % (extra_mib, allowed))

    results.write()
    shutil.rmtree(trace_dir, ignore_errors=True)
    shutil.rmtree(stream_dir, ignore_errors=True)
    for f in failures:
        print("over budget: " + f)
    for w in wrong:
        print("WRONG RESULT: " + w)
    if wrong:
        return 2
    return 1 if failures and not args.quick else 0


if __name__ == "__main__":
    sys.exit(main())
