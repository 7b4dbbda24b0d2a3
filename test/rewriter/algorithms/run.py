#!/usr/bin/env python3
"""Algorithm oracle test of wgtrace-rewrite.

For each program: build it twice from the same source,
  - instrumented: wgtrace-rewrite, then clang -O0 against the runtime;
  - oracle: clang -O0 -fsanitize-coverage=func,trace-loads,trace-stores over
    the whole translation unit (the kernels and the standard library's
    algorithms they instantiate), with oracle_builtins.h turning
    libstdc++'s memmove/memset/memcmp block operations back into element
    loops and oracle_runtime.cc noting each load and store inside the
    program's buffers;
run both and check that
  1. they print the same buffer contents (instrumenting keeps semantics),
  2. invocation by invocation, the trace holds exactly the oracle's
     sequence of (kind, buffer, offset, length), in the same order;
  3. every record names its access site (an algorithm's element accesses
     too: they name the algorithm call, a site of kind Call whose text is
     the call, `std::sort(x, x + n)`), and each site is the program's text
     at its place.
The trace is read for 3 by test/e2e/reference_decoder.py.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "e2e"))
import reference_decoder  # noqa: E402

ACCESS_SITE_CALL = 3
ALGORITHM_CALL = re.compile(r"^(std::(ranges::)?)?[a-z_]+ ?\(")

WORKGROUP = re.compile(r"^([0-9A-F]{16}) \| WORKGROUP ")
ACCESS = re.compile(r"^([0-9A-F]{16}) \| (LOAD|STORE) +([0-9A-F]+) (\d+)$")


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError("command failed (%d): %s\n%s%s" % (
            result.returncode, " ".join(cmd), result.stdout, result.stderr))
    return result


def read_buffers(path):
    buffers = []
    with open(path) as f:
        for line in f:
            _, name, address, size = line.split()
            buffers.append((name, int(address, 16), int(size)))
    return buffers


def traced_invocations(dump, buffers):
    """Each invocation's accesses inside the program's buffers, and every
    access outside them: the programs keep all their kernels' memory in
    buffers, so any other record (of the kernel's own stack: a temporary,
    a local) is one the trace must not have."""
    invocations = []
    outside = []
    for line in dump.splitlines():
        if WORKGROUP.match(line):
            invocations.append([])
            continue
        m = ACCESS.match(line)
        if not m or not invocations:
            continue
        address, length = int(m.group(3), 16), int(m.group(4))
        kind = "L" if m.group(2) == "LOAD" else "S"
        for name, base, size in buffers:
            if base <= address < base + size:
                invocations[-1].append((kind, name, address - base, length))
                break
        else:
            outside.append((len(invocations) - 1, kind, address, length))
    return invocations, outside


def oracle_invocations(path):
    invocations = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts[0] == "INVOCATION":
                invocations.append([])
            else:
                invocations[-1].append(
                    (parts[0], parts[1], int(parts[2]), int(parts[3])))
    return invocations


def text_at(lines, line, column, length):
    """The program's text from (line, column), on one line as the rewriter
    prints a site's text."""
    if not 1 <= line <= len(lines):
        return None
    rest = "\n".join(lines[line - 1:])[column - 1:]
    return re.sub(r"(\s|\\\n)+", " ", rest)[:length]


def check_sites(program, trace):
    """Check 3: the site of every record of the trace."""
    with open(trace, "rb") as f:
        records, meta = reference_decoder.records(f.read())
    sites = meta["access_sites"]
    if sites is None:
        return ["the metadata has no access site table"]
    problems = []
    sources = {}

    def lines_of(path):
        # The program, or a header of the harness whose helpers the
        # rewriter copied (named by its absolute path).
        if path not in sources:
            try:
                with open(path) as f:
                    sources[path] = f.read().split("\n")
            except OSError:
                sources[path] = []
        return sources[path]

    here = os.path.dirname(os.path.abspath(__file__))
    for number, site in enumerate(sites, 1):
        path, line, column = site["place"]
        text = site["text"]
        shown = text[:-3] if text.endswith("...") else text
        ours = path == program or os.path.dirname(path) == here
        if not ours or text_at(lines_of(path), line, column,
                               len(shown)) != shown:
            problems.append("access site %d '%s' is not the text at %s:%d:%d"
                            % (number, text, path, line, column))
        elif (site["kind"] == ACCESS_SITE_CALL and
              text.startswith("std::") and not ALGORITHM_CALL.match(text)):
            problems.append("access site %d of kind Call is not an algorithm "
                            "call: '%s'" % (number, text))
    accesses = [r for r in records if r["kind"] in ("LOAD", "STORE")]
    unnamed = [r for r in accesses if not 1 <= r["site"] <= len(sites)]
    if unnamed:
        problems.append("%d of %d records name no access site (the first: "
                        "%s of %X, site %d)" % (
                            len(unnamed), len(accesses), unnamed[0]["kind"],
                            unnamed[0]["address"], unnamed[0]["site"]))
    calls = any(site["kind"] == ACCESS_SITE_CALL for site in sites)
    if calls and not any(1 <= r["site"] <= len(sites) and
                         sites[r["site"] - 1]["kind"] == ACCESS_SITE_CALL
                         for r in accesses):
        problems.append("no record names an algorithm call")
    return problems


def compare(oracle, traced):
    problems = []
    if len(oracle) != len(traced):
        problems.append("%d invocations in the oracle, %d in the trace" %
                        (len(oracle), len(traced)))
    for i, (want, got) in enumerate(zip(oracle, traced)):
        if want == got:
            continue
        first = next((j for j in range(min(len(want), len(got)))
                      if want[j] != got[j]), min(len(want), len(got)))
        problems.append(
            "invocation %d: %d accesses in the oracle, %d in the trace; "
            "first difference at #%d: oracle %s, trace %s" % (
                i, len(want), len(got), first,
                want[first] if first < len(want) else "(end)",
                got[first] if first < len(got) else "(end)"))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rewrite", required=True)
    parser.add_argument("--clang", required=True)
    parser.add_argument("--gxx")
    parser.add_argument("--include", required=True)
    parser.add_argument("--runtime-lib", required=True)
    parser.add_argument("--view", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()

    os.makedirs(args.work, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    flags = ["-std=c++20", "-O0", "-I", args.include, "-I", here]
    lib_dir = os.path.dirname(os.path.abspath(args.runtime_lib))
    link = [args.runtime_lib, "-Wl,-rpath," + lib_dir, "-lfmt", "-pthread"]
    oracle_flags = [
        "-DWGTRACE_ORACLE",
        "-fsanitize-coverage=func,trace-loads,trace-stores",
        "-include", os.path.join(here, "oracle_builtins.h"),
        "-D__builtin_memmove(D,S,N)="
        "::wgtrace_oracle::memmove(D,S,N,__builtin_FUNCTION())",
        "-D__builtin_memcpy(D,S,N)="
        "::wgtrace_oracle::memmove(D,S,N,__builtin_FUNCTION())",
        "-D__builtin_memset(D,V,N)="
        "::wgtrace_oracle::memset(D,V,N,__builtin_FUNCTION())",
        "-D__builtin_memcmp(A,B,N)="
        "::wgtrace_oracle::memcmp(A,B,N,__builtin_FUNCTION())",
    ]
    runtime = os.path.join(args.work, "oracle_runtime.o")
    try:
        run([args.clang, "-O0", "-c", os.path.join(here, "oracle_runtime.cc"),
             "-o", runtime])
    except RuntimeError as e:
        print("FAIL oracle_runtime.cc\n  %s" % e)
        return 1

    def check(program):
        """Builds, runs and checks one program: (name, problems, report)."""
        name = os.path.splitext(os.path.basename(program))[0]
        out = os.path.join(args.work, name)
        oracle = []
        try:
            instrumented = out + ".instrumented.cc"
            rewrite = run([args.rewrite, program, "--"] + flags)
            with open(instrumented, "w") as f:
                f.write(rewrite.stdout)
            strict = ["-Wall", "-Wextra", "-Werror"]
            run([args.clang] + flags + strict + [instrumented, "-o", out]
                + link)
            if args.gxx:
                run([args.gxx] + flags + strict + ["-fsyntax-only",
                                                   instrumented])
            run([args.clang] + flags + oracle_flags +
                [program, runtime, "-o", out + ".oracle"] + link)
            env = {k: v for k, v in os.environ.items()
                   if not k.startswith("WGTRACE_")}
            oracle_env = dict(env, ORACLE_META=out + ".oracle.meta",
                              ORACLE_TRACE=out + ".oracle.trace")
            plain = run([out + ".oracle"], env=oracle_env).stdout
            traced_env = dict(env, ORACLE_META=out + ".meta",
                              WGTRACE_FILE=out + ".trace")
            traced = run([out], env=traced_env).stdout
            problems = []
            if plain != traced:
                problems.append("the instrumented program computes "
                                "different results")
            oracle = oracle_invocations(out + ".oracle.trace")
            dump = run([args.view, "dump", out + ".trace"]).stdout
            recorded, outside = traced_invocations(
                dump, read_buffers(out + ".meta"))
            problems += compare(oracle, recorded)
            if outside:
                invocation, kind, address, length = outside[0]
                problems.append(
                    "%d records outside the program's buffers (the first, "
                    "in invocation %d: %s of %d bytes at %X)" % (
                        len(outside), invocation, kind, length, address))
            problems += check_sites(program, out + ".trace")
        except RuntimeError as e:
            problems = [str(e)]
        return name, problems, "%d accesses in %d invocations" % (
            sum(len(i) for i in oracle), len(oracle))

    failures = 0
    # The programs are independent: built and run side by side, reported
    # in the order given.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        results = list(pool.map(check, args.programs))
    for name, problems, report in results:
        if problems:
            failures += 1
            print("FAIL %s" % name)
            for p in problems[:20]:
                print("  " + p)
        else:
            print("ok   %s (%s, in the oracle's order)" % (name, report))
    print("%d of %d programs passed" % (len(args.programs) - failures,
                                        len(args.programs)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
