#!/usr/bin/env python3
"""OpenMP worksharing loops traced as dispatches (test/e2e/openmp/loops.cc).

Each mode of the program runs one kind of loop. For every mode:
  - the instrumented build (wgtrace_instrument_target(... OPENMP ON),
    built by CMake with the project's compiler) prints what the plain
    build prints, on 1 and on 4 OpenMP threads;
  - the same source rewritten by `wgtrace-rewrite --openmp` alone and
    built with g++ -fopenmp (libgomp), where g++ is installed, prints it
    too;
  - `wgtrace-view races` on the trace, on 1 thread and on 4: the
    independent loops, the reduction, the atomic histogram, the loops of
    a parallel region, the critical sections (also one whose block calls
    a helper and push_back), a loop run 8 times with its buffers swapped
    (each iteration names its launch) and storage each thread has its own
    (a histogram per thread, threadprivate counters) pass (exit 0); the
    loop-carried dependence and the unsynchronised shared scalar are
    reported (exit 1), with the source lines of both accesses, even on
    one thread.
  - openmp/stacks.cc, whose regions call functions with orphaned loops
    (untraced region code: races exits 3 when it finds no race): arrays
    on each thread's stack handed to the loop race with nothing, on 1
    thread and on 4; a local of the thread that starts the region, which
    the team shares, races in a loop-carried dependence, even when that
    thread runs every iteration.
The trace of `collapse` names the loop's site after its place, has one
launch whose grid is the trip counts (7x13x1: x is the inner loop) and a
workgroup per iteration. The loops of a project header's functions
(openmp/stencils.h, mode `header`), traced in the copies the rewriter
makes, have a workgroup per iteration and per iteration the loads and
stores their bodies name.

Usage: openmp_test.py <instrumented> <plain> <wgtrace-view>
                      <wgtrace-rewrite> <include dir> <runtime library> <workdir>
                      <stacks instrumented> <stacks plain>
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from checks import check, clean_env, finish  # noqa: E402

(INSTRUMENTED, PLAIN, VIEW, REWRITE, INCLUDE, RUNTIME_LIB, WORK,
 STACKS, STACKS_PLAIN) = sys.argv[1:10]
os.makedirs(WORK, exist_ok=True)
SOURCE = os.path.join(HERE, "openmp", "loops.cc")

PASSING = ["vectors", "collapse", "reduction", "histogram", "region",
           "critical", "critical_same", "critical_nested", "critical_calls",
           "jacobi", "bounds", "grid", "header", "per_thread"]
RACING = {"carried": ("loops.cc:116", "loops.cc:116"),
          "shared": ("loops.cc:125", "loops.cc:125"),
          # Two critical sections of different names: each side named.
          "critical_names": ("critical(odd) ", "critical(even) ",
                             "loops.cc:164", "loops.cc:167")}


def run(program, mode, threads, trace=None):
    env = {"OMP_NUM_THREADS": str(threads), "WGTRACE_QUIET": "1"}
    if trace:
        env["WGTRACE_FILE"] = trace
    result = subprocess.run([program, mode], env=clean_env(env),
                            capture_output=True, text=True)
    check(result.returncode == 0,
          "%s %s on %d threads failed: %s" % (program, mode, threads,
                                             result.stderr))
    return result.stdout


def races(trace):
    return subprocess.run([VIEW, "races", trace], capture_output=True,
                          text=True)


def gcc_build():
    """loops.cc rewritten by wgtrace-rewrite alone, built with g++."""
    gxx = shutil.which("g++")
    if not gxx:
        print("note: g++ is not installed: the GCC build is not checked")
        return None
    rewritten = os.path.join(WORK, "loops.gcc.cc")
    result = subprocess.run(
        [REWRITE, "--openmp", SOURCE, "--", "-std=c++17", "-fopenmp"],
        capture_output=True, text=True)
    check(result.returncode == 0, "wgtrace-rewrite failed: " + result.stderr)
    with open(rewritten, "w") as f:
        f.write(result.stdout)
    program = os.path.join(WORK, "loops.gcc")
    lib_dir = os.path.dirname(os.path.abspath(RUNTIME_LIB))
    build = subprocess.run(
        [gxx, "-std=c++17", "-O2", "-fopenmp", "-Wall", "-Wextra", "-Werror",
         "-I" + INCLUDE, "-iquote", os.path.dirname(SOURCE), rewritten,
         "-o", program, RUNTIME_LIB,
         "-Wl,-rpath," + lib_dir, "-lfmt", "-pthread"],
        capture_output=True, text=True)
    check(build.returncode == 0, "g++ failed: " + build.stderr)
    return program if build.returncode == 0 else None


gcc = gcc_build()
for mode in PASSING + list(RACING):
    for threads in (1, 4):
        expected = run(PLAIN, mode, threads)
        # A racing loop computes what its schedule makes it compute: only
        # one thread is deterministic.
        deterministic = mode not in RACING or threads == 1
        builds = [("clang", INSTRUMENTED)] + ([("gcc", gcc)] if gcc else [])
        for name, program in builds:
            trace = os.path.join(WORK, "%s-%s-%d.bin" % (name, mode, threads))
            got = run(program, mode, threads, trace)
            if deterministic:
                check(got == expected, "%s %s on %d threads printed %r, the "
                      "plain build %r" % (name, mode, threads, got, expected))
            r = races(trace)
            if mode in RACING:
                check(r.returncode == 1, "%s %s on %d threads: races exited "
                      "%d, not 1:\n%s" % (name, mode, threads, r.returncode,
                                          r.stdout + r.stderr))
                for line in RACING[mode]:
                    check(line in r.stdout, "%s %s: races does not name %s:\n%s"
                          % (name, mode, line, r.stdout))
                check("omp for at " in r.stdout, "%s %s: races does not name "
                      "the loop:\n%s" % (name, mode, r.stdout))
            else:
                check(r.returncode == 0, "%s %s on %d threads: races exited "
                      "%d, not 0:\n%s" % (name, mode, threads, r.returncode,
                                          r.stdout + r.stderr))

# Storage on a thread's stack (stacks.cc): each thread's own arrays race
# with nothing; the starting thread's local that the team shares does.
for mode, found in (("thread_stack", None), ("shared_stack", "stacks.cc:59")):
    for threads in (1, 4):
        trace = os.path.join(WORK, "stacks-%s-%d.bin" % (mode, threads))
        got = run(STACKS, mode, threads, trace)
        if found is None or threads == 1:
            expected = run(STACKS_PLAIN, mode, threads)
            check(got == expected, "%s on %d threads printed %r, the plain "
                  "build %r" % (mode, threads, got, expected))
        r = races(trace)
        if found is None:
            check(r.returncode == 3 and
                  "\n0 racing workgroup pairs" in r.stdout,
                  "%s on %d threads: races exited %d, not 3 with no race:\n%s"
                  % (mode, threads, r.returncode, r.stdout + r.stderr))
        else:
            check(r.returncode == 1 and found in r.stdout,
                  "%s on %d threads: races exited %d, not 1 naming %s:\n%s"
                  % (mode, threads, r.returncode, found, r.stdout + r.stderr))

# Stream mode with buffers smaller than an iteration's critical section:
# each buffer change copies the WORKGROUP record, and the copy enters the
# section again, so the helper's records after it are inside it still.
trace = os.path.join(WORK, "clang-critical_calls-stream.bin")
env = {"OMP_NUM_THREADS": "4", "WGTRACE_QUIET": "1", "WGTRACE_FILE": trace,
       "WGTRACE_MODE": "stream", "WGTRACE_BUFFER_SIZE": "4k"}
result = subprocess.run([INSTRUMENTED, "critical_calls"], env=clean_env(env),
                        capture_output=True, text=True)
check(result.returncode == 0, "critical_calls in stream mode failed: " +
      result.stderr)
dump = subprocess.run([VIEW, "dump", trace], capture_output=True, text=True)
check(dump.returncode == 0, "dump failed: " + dump.stderr)
enters = dump.stdout.count("enters critical section 'total'")
leaves = dump.stdout.count("leaves critical section 'total'")
check(leaves == 100 and enters > leaves, "critical_calls in stream mode: %d "
      "enters and %d leaves of the section, not 100 leaves and a copy's "
      "enter more" % (enters, leaves))
r = races(trace)
check(r.returncode == 0, "critical_calls in stream mode: races exited %d:\n%s"
      % (r.returncode, r.stdout + r.stderr))

# The collapsed loop's one launch: a workgroup per iteration, the grid its
# trip counts (x the inner loop), the OpenMP thread numbers as processors.
trace = os.path.join(WORK, "clang-collapse-4.bin")
summary = subprocess.run([VIEW, "summary", "--json", trace],
                         capture_output=True, text=True)
check(summary.returncode == 0, "summary failed: " + summary.stderr)
dump = subprocess.run([VIEW, "dump", trace], capture_output=True, text=True)
check(dump.returncode == 0, "dump failed: " + dump.stderr)
workgroups = [l for l in dump.stdout.splitlines() if "| WORKGROUP" in l]
check(len(workgroups) == 13 * 7, "collapse: %d workgroups, not 91"
      % len(workgroups))
check(all("7x13x1)" in l for l in workgroups),
      "collapse: a workgroup's grid is not 7x13x1: %s" % workgroups[:2])
ids = {l.split(")")[1].split()[0] for l in workgroups}
check(len(ids) == 91 and "6,12,0" in ids and "0,0,0" in ids,
      "collapse: the workgroup ids are not the 91 iterations")
pids = {int(l.split("pid:")[1]) for l in workgroups}
check(pids <= {0, 1, 2, 3}, "collapse: processors %s" % sorted(pids))
check("omp for at " in dump.stdout and "loops.cc:52 in collapse" in dump.stdout,
      "collapse: the site is not named after the loop's place")
# schedule(static) on 4 threads gives thread t iterations [250t, 250t+250)
# of the 1000: each iteration's processor is the OpenMP thread number of
# the thread that ran it (asked once per execution of the loop, when the
# thread notes its bounds, not per iteration).
for name in ["clang"] + (["gcc"] if gcc else []):
    trace = os.path.join(WORK, "%s-vectors-4.bin" % name)
    dump = subprocess.run([VIEW, "dump", trace], capture_output=True, text=True)
    check(dump.returncode == 0, "dump failed: " + dump.stderr)
    owners = {}
    for l in dump.stdout.splitlines():
        if "| WORKGROUP" in l:
            owners[int(l.split(")")[1].split(",")[0])] = int(l.split("pid:")[1])
    check(len(owners) == 1000, "%s vectors: %d iterations, not 1000"
          % (name, len(owners)))
    wrong = [(i, p) for i, p in sorted(owners.items()) if p != i // 250]
    check(not wrong, "%s vectors on 4 threads: iterations run by another "
          "processor than their static owner (iteration, processor): %s"
          % (name, wrong[:5]))


def check_counts(mode, expected):
    """The kernels of mode's traces whose names end with a key of expected
    count what it says (workgroups, loads, stores and their bytes), with
    clang and GCC, on 1 thread and on 4."""
    for name in ["clang"] + (["gcc"] if gcc else []):
        for threads in (1, 4):
            trace = os.path.join(WORK, "%s-%s-%d.bin" % (name, mode, threads))
            summary = subprocess.run([VIEW, "summary", "--by", "kernel",
                                      "--json", trace],
                                     capture_output=True, text=True)
            check(summary.returncode == 0, "summary failed: " + summary.stderr)
            kernels = json.loads(summary.stdout or "{}").get("kernels", {})
            for suffix, want in expected.items():
                got = [k for n, k in kernels.items() if n.endswith(suffix)]
                check(len(got) == 1, "%s %s: no one kernel named *%s: %s"
                      % (name, mode, suffix, sorted(kernels)))
                if len(got) != 1:
                    continue
                have = {f: got[0].get(f) for f in want}
                check(have == want, "%s %s on %d threads, %s: %s, not %s"
                      % (name, mode, threads, suffix, have, want))


def counts(workgroups, loads, load_bytes, stores, store_bytes):
    """Totals from per-iteration figures."""
    return {"workgroups": workgroups, "loads": workgroups * loads,
            "load_bytes": workgroups * load_bytes,
            "stores": workgroups * stores,
            "store_bytes": workgroups * store_bytes}


# Grids read through a class template's operator()(i, j), as CloverLeaf's
# OpenMP model reads its fields: per iteration exactly the cells the body
# names and the shared scalar (doubles), none of the grid's own fields
# (its size, its storage pointer), the loop variables or the reduction's
# copy.
check_counts("grid", {" grid_relax": counts(7 * 7, 5, 40, 1, 8),
                      " grid_min": counts(9 * 9, 1, 8, 0, 0)})
# Loops of a project header's functions (stencils.h), traced in the copies
# the rewriter makes in loops.cc: named after the header's place, a
# workgroup per iteration (star1 runs twice over the 8x8 interior of a
# 10x10 grid, total three times over 100 cells), and per iteration what the
# body names. star1: 4 loads of `in`, the update of `out` (a load and a
# store), and the parameters the team shares: `in` 4 times, `out` once,
# `n` 5 times (5 doubles, 5 pointers, 5 ints: 100 bytes); total: the
# cell and the shared `in` pointer; scale_by, reached through drive and
# step (twice over 100 cells): the update of the cell and the shared `v`
# and `factor`; Field<double>::scale, a class template's member, the same
# per iteration (the object's `cells` for `v`); Smooth's operator(),
# called through smoothWith (98 interior cells): the shared `in` twice and
# `out` once, two cells of `in`, the store of out's.
check_counts("header",
             {"/stencils.h:9 in star1": counts(2 * 8 * 8, 15, 100, 1, 8),
              "/stencils.h:20 in total": counts(3 * 10 * 10, 2, 16, 0, 0),
              "/stencils.h:36 in scale_by": counts(2 * 10 * 10, 3, 24, 1, 8),
              "/stencils.h:58 in Field::scale": counts(10 * 10, 3, 24, 1, 8),
              "/stencils.h:68 in Smooth::operator()":
                  counts(10 * 10 - 2, 5, 40, 1, 8)})
finish()
