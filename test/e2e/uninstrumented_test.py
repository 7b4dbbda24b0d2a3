#!/usr/bin/env python3
"""A program whose build rewrote only the file of its kernels (a Makefile
that rewrites kernels.cc): main.cc, compiled as written, launches a lambda
and the header's template kernel, which run uninstrumented. Every launch is
counted per place (file:line, kernel), reported at exit on stderr, written
into the trace's run record, and shown by every view, whose exit status
says the trace misses part of the run (3). In ring and stream mode.

Usage: uninstrumented_test.py <wgtrace-rewrite> <runtime library>
                              <wgtrace source dir> <c++ compiler>
                              <wgtrace-view> <work dir>
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from checks import check, clean_env, finish  # noqa: E402

REWRITE, RUNTIME, SOURCE_DIR, CXX, VIEW, WORK = sys.argv[1:7]
SOURCES = os.path.join(HERE, "uninstrumented")
os.makedirs(WORK, exist_ok=True)
FLAGS = ["-std=c++17", "-O1", "-DFMT_SHARED",
         "-I" + os.path.join(SOURCE_DIR, "runtime", "include")]


def run(cmd, env=None):
    result = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if result.returncode != 0 and env is None:
        print("$ " + " ".join(cmd) + "\n" + result.stdout + result.stderr)
    return result


# Only kernels.cc is rewritten; main.cc is compiled as written.
rewritten = os.path.join(WORK, "kernels.instrumented.cc")
r = run([REWRITE, os.path.join(SOURCES, "kernels.cc"), "--"] + FLAGS)
check(r.returncode == 0, "rewrite failed: " + r.stderr)
with open(rewritten, "w") as f:
    f.write(r.stdout)
program = os.path.join(WORK, "program")
r = run([CXX] + FLAGS + ["-iquote", SOURCES, rewritten,
                          os.path.join(SOURCES, "main.cc"), "-o", program,
                          RUNTIME, "-lfmt",
                          "-Wl,-rpath," + os.path.dirname(RUNTIME)])
check(r.returncode == 0, "build failed: " + r.stderr)

# Where main.cc launches: the line of each wgtrace::dispatch call, up to
# the line of its grid (Clang names the grid argument's line).
with open(os.path.join(SOURCES, "main.cc")) as f:
    lines = f.read().splitlines()
calls = [i + 1 for i, l in enumerate(lines) if "wgtrace::dispatch(" in l]
grids = [i + 1 for i, l in enumerate(lines) if "wgtrace::Grid{" in l]
check(len(calls) == 2 and len(grids) == 2, "main.cc has two launches")
places = list(zip(calls, grids))

for mode in ("ring", "stream"):
    trace = os.path.join(WORK, "trace-%s.bin" % mode)
    if os.path.exists(trace):
        os.remove(trace)
    r = run([program], clean_env({"WGTRACE_FILE": trace, "WGTRACE_MODE": mode}))
    check(r.returncode == 0, "%s: the program failed: %s" % (mode, r.stderr))

    # At exit, one warning per place: file and line of the call, the
    # kernel, its launches and workgroups.
    warnings = [l for l in r.stderr.splitlines()
                if "launched a kernel that is not instrumented" in l]
    check(len(warnings) == 2, "%s: two warnings: %r" % (mode, r.stderr))
    template = [w for w in warnings if "scale<float>" in w]
    check(len(template) == 1, "%s: the template kernel is named: %r" % (mode, warnings))
    for w in template:
        m = re.search(r"main\.cc:(\d+) launched", w)
        check(m and places[0][0] <= int(m.group(1)) <= places[0][1],
              "%s: the template's launch line: %s" % (mode, w))
        check("2 times (8 workgroups" in w, "%s: 2 launches of 4: %s" % (mode, w))
    lambdas = [w for w in warnings if "lambda" in w]
    check(len(lambdas) == 1, "%s: the lambda is named: %r" % (mode, warnings))
    for w in lambdas:
        m = re.search(r"main\.cc:(\d+) launched", w)
        check(m and places[1][0] <= int(m.group(1)) <= places[1][1],
              "%s: the lambda's launch line: %s" % (mode, w))
        check("1 time (3 workgroups" in w, "%s: 1 launch of 3: %s" % (mode, w))

    # Every view says so, and exits 3: the trace misses part of the run.
    r = run([VIEW, "summary", trace], env=clean_env())
    check(r.returncode == 3, "%s: summary exits 3, not %d" % (mode, r.returncode))
    check(r.stdout.startswith("run: exited with status 0; 4 workgroups ran "
                              "instrumented"),
          "%s: summary's header: %s" % (mode, r.stdout[:200]))
    check("3 launches of kernels that are not instrumented" in r.stdout,
          "%s: summary lists the launches: %s" % (mode, r.stdout))
    check(re.search(r"main\.cc:\d+: .*scale<float>.*: 2 launches, 8 workgroups",
                    r.stdout) is not None, "%s: summary's template row" % mode)
    check(re.search(r"main\.cc:\d+: .*lambda.*: 1 launch, 3 workgroups",
                    r.stdout) is not None, "%s: summary's lambda row" % mode)
    for view in ("races", "footprint", "cache"):
        r = run([VIEW, view, trace], env=clean_env())
        check(r.returncode == 3, "%s: %s exits 3, not %d" % (mode, view, r.returncode))
        check("3 launches of kernels that are not instrumented" in r.stdout,
              "%s: %s lists them" % (mode, view))
        r = run([VIEW, view, "--json", trace], env=clean_env())
        doc = json.loads(r.stdout)
        check(doc["loss"]["uninstrumented_launches"] == 3,
              "%s: %s --json counts them" % (mode, view))
        check(len(doc["loss"]["uninstrumented"]) == 2,
              "%s: %s --json lists the places" % (mode, view))
        check(doc["run"]["records"][0]["end"] == "exit",
              "%s: %s --json has the run" % (mode, view))
    for fmt in ("csv", "chrome"):
        r = run([VIEW, "export", "--format", fmt, trace], env=clean_env())
        check(r.returncode == 3, "%s: export %s exits 3" % (mode, fmt))
        check("3 launches of kernels that are not instrumented" in r.stderr,
              "%s: export %s says so on stderr" % (mode, fmt))
    html = os.path.join(WORK, "report-%s.html" % mode)
    r = run([VIEW, "html", trace, "-o", html], env=clean_env())
    check(r.returncode == 3, "%s: html exits 3" % mode)
    with open(html) as f:
        check("3 launches of kernels that are not instrumented" in f.read(),
              "%s: the html report says so" % mode)
    r = run([VIEW, "dump", trace], env=clean_env())
    check(r.returncode == 0, "%s: dump exits 0" % mode)
    check("3 launches of kernels that are not instrumented" in r.stderr,
          "%s: dump says so on stderr" % mode)

finish()
