#!/usr/bin/env python3
"""Speed of wgtrace-rewrite against parsing alone.

Rewriting a translation unit must cost at most 1.5x `clang -fsyntax-only` on
the same file with the same flags: parsing is the floor, since the tool
parses the file exactly as the compiler's front end does, and everything
else it does (matchers, the access walk, copying header helpers, metadata)
should stay small next to that.

For every sample in samples/ and for a large generated kernel file (many
kernels, tens of thousands of accesses, dispatch sites, helpers in a
header), the script runs the two commands N times each, in pairs whose
order alternates (so that a slow moment of a shared machine hits both
sides alike), and prints per file the median time of each and the ratio
rewrite / syntax-only: median, and min-max over the pairs.

    python3 bench/rewriter_speed.py [--runs 7] [--rewrite build/bin/wgtrace-rewrite]

The tool adds `-w` to the compile command (warnings are the compiler's
job when it builds the rewritten file); the syntax-only run gets `-w` too,
so both sides do the same front-end work. Exit status 1 if a median ratio
is over the budget.
"""

import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

from budget_results import Results

BUDGET = 1.5
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

HEADER = """\
// Helpers in a project header: the rewriter copies them into the kernel file.
#pragma once
namespace gen {
inline float sum3(const float *p) { return p[0] + p[1] + p[2]; }
template <class T> void axpy(T *y, const T *x, T a, int n) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
} // namespace gen
"""

KERNEL = """\
struct Cell{k} {{
  float v[4];
  int n;
}};

WGTRACE_DISPATCH void kernel{k}(const wgtrace::Workgroup &wg, const float *a,
                               const float *b, float *c, Cell{k} *cells,
                               int n) {{
  int base = static_cast<int>(wg.id[0]) * 64;
  float acc = 0;
  for (int i = 0; i < 64 && base + i < n; ++i) {{
    c[base + i] = a[base + i] * b[base + i] + {k}.0f;
    acc += a[base + i] - b[(base + i * 3) % n];
    cells[i % 8].v[i % 4] += c[base + i];
    cells[i % 8].n++;
  }}
  float *out = c + base;
  for (int j = 0; j < 4; ++j)
    out[j] = out[j] * 0.5f + cells[j].v[j] + gen::sum3(a + j);
  gen::axpy(c, a, acc, 4);
  if (cells[0].n > {k})
    c[0] = acc;
}}
"""

MAIN_HEAD = """\
int main() {
  std::vector<float> a(4096, 1.0f), b(4096, 2.0f), c(4096);
"""

MAIN_SITE = """\
  {{
    std::vector<Cell{k}> cells(8);
    wgtrace::dispatch(kernel{k}, wgtrace::Grid{{4, 1, 1}}, a.data(), b.data(),
                      c.data(), cells.data(), 4096);
  }}
"""


def generate(directory, kernels):
    """Writes the large kernel file (and its helper header); returns it."""
    with open(os.path.join(directory, "gen_helpers.h"), "w") as f:
        f.write(HEADER)
    path = os.path.join(directory, "generated_kernels.cc")
    with open(path, "w") as f:
        f.write("// %d generated kernels for bench/rewriter_speed.py.\n"
                % kernels)
        f.write("#include <wgtrace/wgtrace.h>\n\n#include \"gen_helpers.h\""
                "\n\n#include <vector>\n\n")
        for k in range(kernels):
            f.write(KERNEL.format(k=k))
            f.write("\n")
        f.write(MAIN_HEAD)
        for k in range(kernels):
            f.write(MAIN_SITE.format(k=k))
        f.write("  return c[0] > 0 ? 0 : 1;\n}\n")
    return path


def timed(cmd):
    start = time.perf_counter()
    result = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError("failed (%d): %s\n%s" % (
            result.returncode, " ".join(cmd), result.stderr))
    return elapsed


def measure(source, flags, args):
    rewrite = [args.rewrite, source, "--"] + flags
    syntax = [args.clang, "-fsyntax-only", "-w"] + flags + [source]
    # One unmeasured run of each warms the file cache.
    timed(rewrite)
    timed(syntax)
    pairs = []
    for run in range(args.runs):
        if run % 2 == 0:
            r, s = timed(rewrite), timed(syntax)
        else:
            s, r = timed(syntax), timed(rewrite)
        pairs.append((r, s))
    ratios = [r / s for r, s in pairs]
    return (statistics.median(r for r, _ in pairs),
            statistics.median(s for _, s in pairs),
            statistics.median(ratios), min(ratios), max(ratios))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rewrite",
                        default=os.path.join(ROOT, "build", "bin",
                                             "wgtrace-rewrite"))
    parser.add_argument("--clang", default="clang++-19")
    parser.add_argument("--runs", type=int, default=7,
                        help="paired runs per file (default 7)")
    parser.add_argument("--kernels", type=int, default=300,
                        help="kernels in the generated file (default 300)")
    parser.add_argument("--std", default="c++20")
    parser.add_argument("--only-generated", action="store_true",
                        help="measure the generated file alone, not the samples")
    parser.add_argument("--json", metavar="PATH",
                        help="also write the budget's result there (bench/budget_results.py): "
                        "the largest median ratio")
    args = parser.parse_args()

    include = os.path.join(ROOT, "runtime", "include")
    flags = ["-std=" + args.std, "-O2", "-DNDEBUG", "-I", include]
    sources = [] if args.only_generated else sorted(
        glob.glob(os.path.join(ROOT, "samples", "*", "*.cc")))

    print("wgtrace-rewrite vs %s -fsyntax-only, flags: %s, %d paired runs"
          % (args.clang, " ".join(flags), args.runs))
    print("%-40s %10s %10s %8s %15s" % ("file", "syntax s", "rewrite s",
                                        "ratio", "min-max"))
    over = 0
    worst = None
    with tempfile.TemporaryDirectory(prefix="wgtrace-speed-") as work:
        generated = generate(work, args.kernels)
        with open(generated) as f:
            lines = sum(1 for _ in f)
        for source in sources + [generated]:
            name = os.path.relpath(source, ROOT)
            if source == generated:
                name = "generated (%d kernels, %d lines)" % (args.kernels,
                                                             lines)
            extra = ["-I", work] if source == generated else []
            rewrite_s, syntax_s, ratio, low, high = measure(
                source, flags + extra, args)
            if worst is None or ratio > worst[0]:
                worst = (ratio, low, high, name)
            mark = "" if ratio <= BUDGET else "  OVER BUDGET"
            over += ratio > BUDGET
            print("%-40s %10.3f %10.3f %8.2f %7.2f-%-7.2f%s" % (
                name, syntax_s, rewrite_s, ratio, low, high, mark))
    print("budget: median ratio <= %.1f; %s" % (
        BUDGET, "all within" if not over else "%d over" % over))
    results = Results(args.json)
    results.add("rewriter.speed", worst[0], not over, "%.2fx [%.2f - %.2f] (%s%s)" % (
        worst[0], worst[1], worst[2], worst[3],
        "" if len(sources) == 0 else ", the largest of %d files" % (len(sources) + 1)))
    results.write()
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
