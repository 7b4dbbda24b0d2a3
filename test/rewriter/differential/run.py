#!/usr/bin/env python3
"""Differential test of wgtrace-rewrite.

For each program: rewrite it, build it plain and instrumented (both must
build; the instrumented one with -Wall -Wextra -Werror, with clang and, if
given, g++), run both, and check that
  1. they print the same buffer contents, bit for bit (instrumenting keeps
     semantics), and
  2. the instrumented run's trace holds, for every workgroup, exactly the
     accesses the program says it must make: same count, kinds, lengths and
     byte offsets into the program's buffers.
"""

import argparse
import collections
import os
import re
import subprocess
import sys

# The kernel's name may hold spaces ("lambda at file.cc:12").
WORKGROUP = re.compile(
    r"^([0-9A-F]{16}) \| WORKGROUP dispatch\(.*\) (\d+),(\d+),(\d+) ")
ACCESS = re.compile(r"^([0-9A-F]{16}) \| (LOAD|STORE) +([0-9A-F]+) (\d+)$")


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError("command failed (%d): %s\n%s%s" % (
            result.returncode, " ".join(cmd), result.stdout, result.stderr))
    return result.stdout


def read_meta(path):
    buffers, expected = [], collections.defaultdict(collections.Counter)
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts[0] == "BUF":
                buffers.append((parts[1], int(parts[2], 16), int(parts[3])))
            elif parts[0] == "EXP":
                wg = tuple(int(v) for v in parts[1].split(","))
                expected[wg][(parts[2], parts[3], int(parts[4]),
                              int(parts[5]))] += 1
    return buffers, expected


def recorded_accesses(dump, buffers):
    groups = {}
    recorded = collections.defaultdict(collections.Counter)
    for line in dump.splitlines():
        m = WORKGROUP.match(line)
        if m:
            groups[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
            continue
        m = ACCESS.match(line)
        if not m:
            continue
        address, length = int(m.group(3), 16), int(m.group(4))
        where = ("?", address)
        for name, base, size in buffers:
            if base <= address < base + size:
                where = (name, address - base)
                break
        kind = "L" if m.group(2) == "LOAD" else "S"
        recorded[groups.get(m.group(1), ("?",))][
            (kind, where[0], where[1], length)] += 1
    return recorded


def compare(expected, recorded):
    problems = []
    for wg in sorted(set(expected) | set(recorded), key=str):
        missing = expected[wg] - recorded[wg]
        extra = recorded[wg] - expected[wg]
        for access, n in sorted(missing.items(), key=str):
            problems.append("workgroup %s: missing %dx %s" % (wg, n, access))
        for access, n in sorted(extra.items(), key=str):
            problems.append("workgroup %s: unexpected %dx %s" % (wg, n, access))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rewrite", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--gxx")
    parser.add_argument("--include", required=True)
    parser.add_argument("--runtime-lib", required=True)
    parser.add_argument("--view", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()

    os.makedirs(args.work, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    flags = ["-std=c++20", "-I", args.include, "-I", here]
    lib_dir = os.path.dirname(os.path.abspath(args.runtime_lib))
    link = [args.runtime_lib, "-Wl,-rpath," + lib_dir, "-lfmt", "-pthread"]
    failures = 0
    for program in args.programs:
        name = os.path.splitext(os.path.basename(program))[0]
        out = os.path.join(args.work, name)
        try:
            instrumented = out + ".instrumented.cc"
            with open(instrumented, "w") as f:
                f.write(run([args.rewrite, program, "--"] + flags))
            strict = ["-Wall", "-Wextra", "-Werror", "-O0"]
            run([args.cxx] + flags + ["-O0", program, "-o", out + ".plain"]
                + link)
            run([args.cxx] + flags + strict + [instrumented, "-o", out]
                + link)
            if args.gxx:
                run([args.gxx] + flags + strict + ["-fsyntax-only",
                                                   instrumented])
            env = dict(os.environ, WGTRACE_DEVICE="local-sync")
            env.pop("WGTRACE_FILE", None)
            plain = run([out + ".plain"], env=env)
            env.update(WGTRACE_FILE=out + ".trace",
                       DIFF_META=out + ".meta")
            traced = run([out], env=env)
            problems = []
            if plain != traced:
                problems.append("the instrumented program computes "
                                "different results")
            buffers, expected = read_meta(out + ".meta")
            dump = run([args.view, "dump", out + ".trace"])
            problems += compare(expected,
                                recorded_accesses(dump, buffers))
        except RuntimeError as e:
            problems = [str(e)]
        if problems:
            failures += 1
            print("FAIL %s" % name)
            for p in problems[:40]:
                print("  " + p)
            if len(problems) > 40:
                print("  ... %d more" % (len(problems) - 40))
        else:
            total = sum(sum(c.values()) for c in expected.values())
            print("ok   %s (%d accesses in %d workgroups)" % (
                name, total, len(expected)))
    print("%d of %d programs passed" % (len(args.programs) - failures,
                                        len(args.programs)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
