#!/usr/bin/env python3
"""End to end: instrumented simple_mul writes the trace it must.

Usage: simple_mul_test.py <simple_mul> <simple_mul_plain> <wgtrace-view> <workdir>
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_decoder  # noqa: E402
from checks import check, clean_env, finish  # noqa: E402

PROGRAM, PLAIN, VIEW, WORK = sys.argv[1:5]
os.makedirs(WORK, exist_ok=True)
def run(cmd, env_extra=None):
    return subprocess.run(cmd, env=clean_env(env_extra), capture_output=True, text=True)


def trace(name, args, env=None):
    path = os.path.join(WORK, name + ".bin")
    if os.path.exists(path):
        os.remove(path)
    result = run([PROGRAM, "--instrument_file=" + path] + args, env)
    check(result.returncode == 0, "%s exited %d: %s" % (name, result.returncode, result.stderr))
    return path, result


WG_RE = re.compile(r"^([0-9A-F]{16}) \| WORKGROUP dispatch\((\d+) (\S+) (\d+)x(\d+)x(\d+)\) (\d+),(\d+),(\d+) pid:(\d+)$")
MEM_RE = re.compile(r"^([0-9A-F]{16}) \| (LOAD |STORE) ([0-9A-F]{16}) (\d+)$")


def parse(text):
    """Workgroups in order, each with its list of (kind, address, length)."""
    workgroups = []
    by_chunk_offset = {}
    for line in text.splitlines():
        m = WG_RE.match(line)
        if m:
            wg = {"offset": m.group(1), "site": int(m.group(2)), "name": m.group(3),
                  "count": tuple(map(int, m.group(4, 5, 6))),
                  "id": tuple(map(int, m.group(7, 8, 9))), "pid": int(m.group(10)),
                  "records": []}
            workgroups.append(wg)
            by_chunk_offset[m.group(1)] = wg
            continue
        m = MEM_RE.match(line)
        if m:
            # Keys are ring offsets: they name the latest workgroup record
            # at that offset in the current chunk.
            owner = by_chunk_offset.get(m.group(1))
            check(owner is not None, "record keyed to no workgroup: " + line)
            if owner is not None:
                check(owner is workgroups[-1], "record not under its own workgroup: " + line)
                owner["records"].append((m.group(2).strip(), int(m.group(3), 16), int(m.group(4))))
    return workgroups


def view_dump(path):
    result = run([VIEW, "dump", path])
    check(result.returncode == 0, "wgtrace-view dump exited %d: %s" % (result.returncode, result.stderr))
    return result.stdout


# 1. local-sync: the trace and its dump.
path, _ = trace("sync", ["--device=local-sync"])
text = view_dump(path)
with open(path, "rb") as f:
    reference = reference_decoder.dump(f.read())
check(text == reference, "wgtrace-view dump differs from the independent reference decoder")
check("// export[0]: simple_mul\n" in text, "no export[0]: simple_mul header")
check("WGTRACE_DISPATCH void simple_mul(" in text, "kernel source missing from the dump")
check(re.search(r"^// dispatch site 0: simple_mul at \S*simple_mul\.cc:\d+$", text, re.M),
      "no dispatch site 0: simple_mul at its place")
check("// dispatch site 1: simple_mul (direct calls)\n" in text,
      "no dispatch site 1: simple_mul (direct calls)")
check(re.search(r"\| VALUE 0000 = buffer \w+ at [0-9A-F]{16}$", text, re.M),
      "buffer VALUEs are not in words")
workgroups = parse(text)
check(len(workgroups) == 4, "expected 4 workgroups, got %d" % len(workgroups))
check(sorted(w["id"] for w in workgroups) == [(i, 0, 0) for i in range(4)], "workgroup ids are not 0..3")
check(all(w["site"] == 0 and w["name"] == "simple_mul" and w["count"] == (4, 1, 1) for w in workgroups),
      "WORKGROUP lines are not dispatch(0 simple_mul 4x1x1)")
loads = [r for w in workgroups for r in w["records"] if r[0] == "LOAD"]
stores = [r for w in workgroups for r in w["records"] if r[0] == "STORE"]
check(len(loads) == 32768, "expected 32768 loads, got %d" % len(loads))
check(len(stores) == 16384, "expected 16384 stores, got %d" % len(stores))
check(all(r[2] == 4 for r in loads + stores), "an access is not 4 bytes long")

# a and b: the two 64 KiB ranges the loads fall in; workgroup N reads the
# N-th 16 KiB of each and writes the N-th 16 KiB of c.
addresses = sorted(set(r[1] for r in loads))
gap = max(range(1, len(addresses)), key=lambda i: addresses[i] - addresses[i - 1])
bases = [addresses[0], addresses[gap]]
c_base = min(r[1] for r in stores)
for w in workgroups:
    n = w["id"][0]
    for kind, address, _ in w["records"]:
        if kind == "LOAD":
            inside = any(b + n * 16384 <= address < b + (n + 1) * 16384 for b in bases)
            check(inside, "workgroup %d loads %X outside its 16 KiB of a and b" % (n, address))
        else:
            check(c_base + n * 16384 <= address < c_base + (n + 1) * 16384,
                  "workgroup %d stores %X outside its 16 KiB of c" % (n, address))
    check(len(w["records"]) == 3 * 4096, "workgroup %d has %d records" % (n, len(w["records"])))

# 2. local-task on 2 workers: the same records per workgroup.
path2, _ = trace("task", ["--device=local-task"], {"WGTRACE_WORKERS": "2"})
tasked = parse(view_dump(path2))
check(sorted(w["id"] for w in tasked) == [(i, 0, 0) for i in range(4)], "local-task workgroup ids are not 0..3")
check(all(w["pid"] in (0, 1) for w in tasked), "processor ids outside 0..1")


def relative(wgs):
    """Records per workgroup with addresses as (buffer, offset): each run
    allocates a, b and c at addresses of its own."""
    loads = sorted(set(r[1] for w in wgs for r in w["records"] if r[0] == "LOAD"))
    split = max(range(1, len(loads)), key=lambda i: loads[i] - loads[i - 1])
    a_base, b_base = loads[0], loads[split]
    c_base = min(r[1] for w in wgs for r in w["records"] if r[0] == "STORE")

    def where(kind, address):
        if kind == "STORE":
            return ("c", address - c_base)
        return ("b", address - b_base) if address >= b_base else ("a", address - a_base)

    return {w["id"]: [(k,) + where(k, a) + (n,) for k, a, n in w["records"]] for w in wgs}


check(relative(workgroups) == relative(tasked), "local-task records per workgroup differ from local-sync")

# 3. The plain build computes and prints the same.
instrumented = run([PROGRAM])
plain = run([PLAIN])
check(plain.returncode == instrumented.returncode == 0, "plain or instrumented run failed")
check(plain.stdout == instrumented.stdout, "plain and instrumented outputs differ")

finish()
