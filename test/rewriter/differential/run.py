#!/usr/bin/env python3
"""Differential test of wgtrace-rewrite.

For each program: rewrite it, build it plain and instrumented (both must
build; the instrumented one with -Wall -Wextra -Werror, with clang and, if
given, g++), run both, and check that
  1. they print the same buffer contents, bit for bit (instrumenting keeps
     semantics), and
  2. the instrumented run's trace holds, for every workgroup, exactly the
     accesses the program says it must make: same count, kinds, lengths and
     byte offsets into the program's buffers;
  3. every memory record names its access site, and the site is right: its
     kind agrees with the record's (an atomic site's records carry the
     atomic mark, the others' do not), the program's text at its place is
     its text (or a macro invoked there, whose written-out tokens hold the
     access), and where the program names the expression of an access
     (harness.h), it is that one;
  4. every WORKGROUP record is followed by its kernel's buffer records
     (BufferBase, and BufferExtent where the parameter has one, ordinals in
     parameter order), inside the buffer the program says it passes there
     (diff::argument);
  5. the metadata lists as untraced exactly the lines marked
     `// @untraced...`.
The trace is read here by test/e2e/reference_decoder.py, which shares no
code with the runtime or wgtrace-view.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "e2e"))
import reference_decoder  # noqa: E402

# The kernel's name may hold spaces ("lambda at file.cc:12").
WORKGROUP = re.compile(
    r"^([0-9A-F]{16}) \| WORKGROUP dispatch\(.*\) (\d+),(\d+),(\d+) ")
ACCESS = re.compile(r"^([0-9A-F]{16}) \| (LOAD|STORE) +([0-9A-F]+) (\d+)$")
# wgtrace-view dump's line for an atomic mark: the next 1 or 2 accesses.
ATOMIC_MARK = re.compile(r"^[0-9A-F]{16} \| VALUE (\d+) = atomic ")
MARKER = re.compile(r"//\s*@(\w+)")
BUFFER_BASE, BUFFER_EXTENT = 0x40, 0x41


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError("command failed (%d): %s\n%s%s" % (
            result.returncode, " ".join(cmd), result.stdout, result.stderr))
    return result.stdout


def read_meta(path):
    buffers, expected = [], collections.defaultdict(collections.Counter)
    arguments = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts[0] == "BUF":
                buffers.append((parts[1], int(parts[2], 16), int(parts[3])))
            elif parts[0] == "ARG":
                arguments[(parts[1], parts[2])].append(
                    (int(parts[3], 16), int(parts[4])))
            elif parts[0] == "EXP":
                wg = tuple(int(v) for v in parts[1].split(","))
                key = (parts[2], parts[3], int(parts[4]), int(parts[5]))
                if parts[6] != "-":
                    key += (parts[6],)
                expected[wg][key] += 1
    return buffers, expected, arguments


class Source:
    """The text and `// @name` markers of the files access sites name."""

    def __init__(self):
        self.files = {}

    def get(self, path):
        if path not in self.files:
            try:
                with open(path) as f:
                    text = f.read()
            except OSError:
                text = None
            lines = text.split("\n") if text is not None else []
            marks = {}
            for number, line in enumerate(lines, 1):
                m = MARKER.search(line)
                if m:
                    marks[number] = m.group(1)
            self.files[path] = (text, lines, marks)
        return self.files[path]

    def text_at(self, path, line, column, length):
        """The program's text from (line, column), on one line as the
        rewriter prints a site's text."""
        _, lines, _ = self.get(path)
        if not 1 <= line <= len(lines):
            return None
        rest = "\n".join(lines[line - 1:])[column - 1:]
        return re.sub(r"(\s|\\\n)+", " ", rest)[:length]

    def invocation_at(self, path, line, column):
        """Whether a macro the file defines is invoked at (line, column):
        the place of an access wrapped in an invocation written out as its
        tokens, whose text is the access's own tokens."""
        text = self.get(path)[0]
        m = re.match(r"[A-Za-z_]\w*",
                     self.text_at(path, line, column, 200) or "")
        return bool(m and text and re.search(
            r"^[ \t]*#[ \t]*define[ \t]+%s\b" % m.group(0), text, re.M))

    def marker(self, path, line):
        return self.get(path)[2].get(line)


def site_spec(source, site):
    path, line, _ = site["place"]
    name = source.marker(path, line) or "L%d" % line
    return "%s:%s" % (name, site["text"].replace(" ", "~"))


def check_sites_and_buffers(program, trace, buffers, expected, arguments):
    """Checks 3-5 of the module docstring; returns problems and the
    recorded accesses keyed by site where the program names them."""
    with open(trace, "rb") as f:
        records, meta = reference_decoder.records(f.read())
    problems = []
    sites = meta["access_sites"]
    if sites is None:
        return ["the metadata has no access site table"], None
    source = Source()
    # 3. Sites exist, agree with the records and with the source text.
    for number, site in enumerate(sites, 1):
        path, line, column = site["place"]
        text = site["text"]
        shown = text[:-3] if text.endswith("...") else text
        if (source.text_at(path, line, column, len(shown)) != shown
                and not source.invocation_at(path, line, column)):
            problems.append("access site %d '%s' is not the text at %s:%d:%d"
                            % (number, text, path, line, column))
    kinds = {0: {"LOAD"}, 1: {"STORE"}, 2: {"LOAD", "STORE"},
             3: {"LOAD", "STORE"}, 4: {"LOAD"}, 5: {"STORE"},
             6: {"LOAD", "STORE"}}
    for r in records:
        if r["kind"] not in ("LOAD", "STORE"):
            continue
        if not 1 <= r["site"] <= len(sites):
            problems.append("a %s of %X has access site %d, not one of the "
                            "table's %d" % (r["kind"], r["address"], r["site"],
                                            len(sites)))
        elif r["kind"] not in kinds.get(sites[r["site"] - 1]["kind"], ()):
            problems.append("a %s has access site %d of kind %d" % (
                r["kind"], r["site"], sites[r["site"] - 1]["kind"]))
        elif r["atomic"] != (sites[r["site"] - 1]["kind"] >= 4):
            problems.append("a%s %s has access site %d of kind %d" % (
                "n atomic" if r["atomic"] else " plain", r["kind"], r["site"],
                sites[r["site"] - 1]["kind"]))
    # 4. Buffer records after each WORKGROUP record, in the buffers.
    named = {(meta["names"][f], p["name"]) for f, ps in
             enumerate(meta["params"]) for p in ps}
    for kernel, param in sorted(set(arguments) - named):
        problems.append("kernel %s has no buffer parameter %s" % (kernel, param))
    for i, r in enumerate(records):
        if r["kind"] != "WORKGROUP":
            continue
        params = (meta["params"][r["function"]]
                  if r["function"] < len(meta["params"]) else [])
        want = []
        for ordinal, p in enumerate(params):
            want.append((BUFFER_BASE, ordinal))
            if p["has_extent"]:
                want.append((BUFFER_EXTENT, ordinal))
        got = records[i + 1:i + 1 + len(want)]
        if [(g.get("type"), g.get("ordinal")) for g in got] != want or any(
                g["kind"] != "VALUE" or g["key"] != r["offset"] for g in got):
            problems.append("workgroup %s: the buffer records are not %s" % (
                r["id"], want))
            continue
        values = {}
        for g in got:
            values.setdefault(g["ordinal"], {})[g["type"]] = g["bits"]
        for ordinal, p in enumerate(params):
            base = values[ordinal][BUFFER_BASE]
            extent = values[ordinal].get(BUFFER_EXTENT, 0)
            known = arguments.get((meta["names"][r["function"]], p["name"]))
            if known and not any(b <= base < b + s and base + extent <= b + s
                                 for b, s in known):
                problems.append(
                    "workgroup %s: buffer %s = %X (+%d) is not in what the "
                    "program passes there" % (r["id"], p["name"], base, extent))
    # 5. Untraced: exactly the marked lines.
    _, _, marks = source.get(program)
    marked = {line for line, name in marks.items()
              if name.startswith("untraced")}
    listed = {u["place"][1] for u in meta["untraced"]
              if u["place"][0] == program}
    for line in sorted(marked - listed):
        problems.append("line %d is marked untraced but not listed" % line)
    for u in meta["untraced"]:
        if u["place"][0] != program or u["place"][1] not in marked:
            problems.append("untraced, unexpectedly: %s:%d '%s': %s" % (
                u["place"][0], u["place"][1], u["text"], u["reason"]))
    # Accesses by site, where the program names them.
    if not any(len(k) == 5 for c in expected.values() for k in c):
        return problems, None
    keyed = collections.defaultdict(collections.Counter)
    groups = {}
    for r in records:
        if r["kind"] == "WORKGROUP":
            groups[(r["chunk"], r["offset"])] = r["id"]
            continue
        if r["kind"] not in ("LOAD", "STORE"):
            continue
        where = ("?", r["address"])
        for name, base, size in buffers:
            if base <= r["address"] < base + size:
                where = (name, r["address"] - base)
                break
        spec = (site_spec(source, sites[r["site"] - 1])
                if 1 <= r["site"] <= len(sites) else "none")
        kind = "L" if r["kind"] == "LOAD" else "S"
        keyed[groups.get((r["chunk"], r["key"]), ("?",))][
            (kind.lower() if r["atomic"] else kind, where[0], where[1],
             r["length"], spec)] += 1
    return problems, keyed


def recorded_accesses(dump, buffers):
    groups = {}
    recorded = collections.defaultdict(collections.Counter)
    atomic = 0  # accesses an atomic mark still marks
    for line in dump.splitlines():
        m = WORKGROUP.match(line)
        if m:
            groups[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
            continue
        m = ATOMIC_MARK.match(line)
        if m:
            atomic = int(m.group(1))
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
        if atomic:
            kind = kind.lower()
            atomic -= 1
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
    def check(program):
        """Builds, runs and checks one program: (name, problems, report)."""
        name = os.path.splitext(os.path.basename(program))[0]
        out = os.path.join(args.work, name)
        expected = {}
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
            buffers, expected, arguments = read_meta(out + ".meta")
            dump = run([args.view, "dump", out + ".trace"])
            site_problems, by_site = check_sites_and_buffers(
                program, out + ".trace", buffers, expected, arguments)
            problems += site_problems
            problems += compare(expected,
                                by_site if by_site is not None else
                                recorded_accesses(dump, buffers))
        except RuntimeError as e:
            problems = [str(e)]
        total = sum(sum(c.values()) for c in expected.values())
        return name, problems, "%d accesses in %d workgroups" % (
            total, len(expected))

    failures = 0
    # The programs are independent: built and run side by side, reported
    # in the order given.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        results = list(pool.map(check, args.programs))
    for name, problems, report in results:
        if problems:
            failures += 1
            print("FAIL %s" % name)
            for p in problems[:40]:
                print("  " + p)
            if len(problems) > 40:
                print("  ... %d more" % (len(problems) - 40))
        else:
            print("ok   %s (%s)" % (name, report))
    print("%d of %d programs passed" % (len(args.programs) - failures,
                                        len(args.programs)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
