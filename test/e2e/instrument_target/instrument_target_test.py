#!/usr/bin/env python3
"""wgtrace_instrument_target on an outside project:

  - kernels of a project header (a template launched with float from one
    source and with double from another, an inline kernel launched from
    both) are traced wherever they are launched, as one function each in
    the trace's metadata (one per instantiation of the template);
  - which sources define or launch kernels is decided at build time: a
    kernel added to a source that had none is traced by the next build,
    with no configure;
  - a build with nothing changed rewrites and compiles nothing, in a
    project that asks for a CMake older than 3.20 (CMP0116 OLD);
  - a target of another project added with add_subdirectory is
    instrumented from the directory that adds it, its source named by
    absolute path (the original is not compiled beside its rewrite).

Usage: instrument_target_test.py <wgtrace-rewrite> <runtime library>
           <wgtrace-view> <wgtrace source dir> <c++ compiler> <work dir>
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, clean_env, finish  # noqa: E402

REWRITE, RUNTIME, VIEW, SOURCE_DIR, CXX, WORK = sys.argv[1:7]
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(WORK, "src")
BUILD = os.path.join(WORK, "build")


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        print("command failed (%d): %s\n%s%s" % (
            result.returncode, " ".join(cmd), result.stdout, result.stderr))
        sys.exit(1)
    return result.stdout


def build():
    return run(["cmake", "--build", BUILD, "-j", "2"])


def trace(name):
    path = os.path.join(WORK, name + ".trace")
    output = run([os.path.join(BUILD, "app")],
                 env=clean_env({"WGTRACE_FILE": path}))
    return output, run([VIEW, "dump", path])


def workgroups(dump, kernel):
    return len(re.findall(r"\| WORKGROUP dispatch\(\d+ %s " % kernel, dump))


def exports(dump, kernel):
    return len(re.findall(r"^// export\[\d+\]: %s$" % re.escape(kernel), dump,
                          re.M))


def access_lengths(dump, kernel):
    """The kinds and lengths of the accesses of kernel's workgroups."""
    keys = set(l.split()[0] for l in dump.splitlines()
               if re.search(r"WORKGROUP dispatch\(\d+ %s " % kernel, l))
    return sorted(set((l.split()[2], l.split()[-1]) for l in dump.splitlines()
                      if l.split()[:1] and l.split()[0] in keys
                      and ("| LOAD" in l or "| STORE" in l)))


shutil.rmtree(WORK, ignore_errors=True)
shutil.copytree(os.path.join(HERE, "sources"), SRC)
run(["cmake", "-G", "Ninja", "-S", os.path.join(HERE, "project"), "-B", BUILD,
     "-DCMAKE_CXX_COMPILER=" + CXX, "-DWGTRACE_REWRITE=" + REWRITE,
     "-DWGTRACE_RUNTIME=" + RUNTIME, "-DWGTRACE_SOURCE_DIR=" + SOURCE_DIR,
     "-DSOURCES=" + SRC])
build()
EXPECTED = ["2.5"] * 8 + ["105"]
output, dump = trace("first")
check(output.split() == EXPECTED, "first build computes %r: %r"
      % (EXPECTED, output))
check(workgroups(dump, "twice") == 8, "first build traces twice's 8 workgroups")
check("addOne" not in dump, "first build has no addOne")
# The header's kernels: one export each (a template: one per
# instantiation), whichever files launched them.
check(exports(dump, "lib::scaleBy<float>") == 1 and
      exports(dump, "lib::scaleBy<double>") == 1 and
      exports(dump, "lib::bump") == 1,
      "each header kernel (instantiation) is one export: %r"
      % re.findall(r"^// export.*$", dump, re.M))
check(workgroups(dump, "lib::scaleBy<float>") == 8 and
      workgroups(dump, "lib::scaleBy<double>") == 4,
      "scaleBy's workgroups from main.cc (8, float) and doubles.cc (4, double)")
check(access_lengths(dump, "lib::scaleBy<float>") == [("LOAD", "4"),
                                                      ("STORE", "4")] and
      access_lengths(dump, "lib::scaleBy<double>") == [("LOAD", "8"),
                                                       ("STORE", "8")],
      "scaleBy<float> accesses 4 bytes, scaleBy<double> 8: %r %r"
      % (access_lengths(dump, "lib::scaleBy<float>"),
         access_lengths(dump, "lib::scaleBy<double>")))
check(workgroups(dump, "lib::bump") == 8 + 2,
      "bump's workgroups from main.cc (8) and doubles.cc (2)")
check(len(re.findall(r"\| (LOAD|STORE) ", dump)) == 2 * (8 + 12 + 10),
      "one load and one store per workgroup of twice, scaleBy and bump")
# The sources are outside the project's directory: their rewritten copies
# are under a path that mirrors theirs.
rewritten = [os.path.join(d, "other.cc")
             for d, _, files in os.walk(os.path.join(BUILD, "wgtrace", "app"))
             if "other.cc" in files]
check(len(rewritten) == 1, "one rewritten other.cc: %r" % rewritten)
forwarded = open(rewritten[0]).read() if rewritten else ""
# Without kernels, other.cc still defines runOther, which other sources'
# kernels may call: instrumented and registered, with its body as written
# for the calls made while no workgroup records (main's).
check("&::runOther, &::runOther)" in forwarded and
      "if (!WGTRACE_RECORDING()) {" in forwarded,
      "a source without kernels registers the functions other sources may "
      "call, with their bodies as written for calls outside workgroups: %r"
      % forwarded)

# Nothing changed: nothing is rewritten or compiled again (before, under
# the project's CMake 3.14 policies, Ninja found every rewritten source out
# of date on every build).
log = build()
check("instrumenting" not in log and "Building" not in log,
      "a build with nothing changed rewrites and compiles nothing: %s" % log)
path = os.path.join(WORK, "third_party_app.trace")
output = run([os.path.join(BUILD, "third_party", "third_party_app")],
             env=clean_env({"WGTRACE_FILE": path}))
check(output.split() == ["1", "4", "9", "16"],
      "third_party_app computes 1 4 9 16: %r" % output)
check(workgroups(run([VIEW, "dump", path]), "square") == 4,
      "third_party_app traces square's 4 workgroups")

# A kernel appears in other.cc; the build alone (no configure) instruments it.
time.sleep(1)
shutil.copyfile(os.path.join(SRC, "other_with_kernel.cc"),
                os.path.join(SRC, "other.cc"))
log = build()
check("Re-running CMake" not in log and "Configuring done" not in log,
      "the second build does not configure again")
check(re.search(r"instrumenting \S*/other\.cc", log)
      and not re.search(r"instrumenting \S*/main\.cc", log),
      "only the edited source is rewritten again: %s" % log)
output, dump = trace("second")
check(output.split() == EXPECTED, "second build computes the same: %r"
      % output)
check(workgroups(dump, "twice") == 8, "second build still traces twice")
check(workgroups(dump, "addOne") == 8,
      "the kernel added after configuring is traced (8 workgroups)")
for line in dump.splitlines():
    if re.search(r"WORKGROUP dispatch\(\d+ addOne ", line):
        key = line.split()[0]
        accesses = [l.split()[2] for l in dump.splitlines()
                    if l.startswith(key + " | ") and ("LOAD" in l or "STORE" in l)]
        check(accesses == ["LOAD", "STORE"],
              "addOne's workgroup %s loads and stores its element: %r"
              % (key, accesses))
finish()
