#!/usr/bin/env python3
"""Kernels launched through a function pointer (test/e2e/kernel_pointer/).

star1 and star2, each with three buffer parameters (in, out, weights), run
one after the other through one dispatch call whose kernel is the pointer
`stencil` (as PRK's stencil launches star1..star5). The viewer once
checked each buffer value's parameter against the site's function, which
for such a call was a placeholder named `stencil` with none, and refused
the trace as damaged at its first buffer value (fixed in 3ad9a8c); the
rewriter now gives the call one site per kernel of the file the pointer
can hold, chosen at run time, so each launch names the kernel that ran.
Here `summary`, `dump` and `footprint` decode it with exit 0, `dump`
agrees with the independent reference decoder and names the buffers (in,
out, weights) and both sites at the call's place, `summary` counts 4
workgroups for each kernel, and every workgroup has its three buffer
values, first, with the addresses of in, out and weights, and its
accesses inside them, named by the access sites of the kernel that ran.

Usage: kernel_pointer_test.py <stencil program> <wgtrace-view> <workdir>
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from checks import check, clean_env, finish  # noqa: E402
import reference_decoder  # noqa: E402

PROGRAM, VIEW, WORK = sys.argv[1:4]
os.makedirs(WORK, exist_ok=True)
GROUPS, WIDTH = 4, 8
BUFFER_VALUE = 0x40


def view(*args):
    return subprocess.run([VIEW] + list(args), capture_output=True, text=True)


trace = os.path.join(WORK, "stencil.bin")
result = subprocess.run([PROGRAM], env=clean_env({"WGTRACE_FILE": trace,
                                                  "WGTRACE_QUIET": "1"}),
                        capture_output=True, text=True)
check(result.returncode == 0, "the program failed: " + result.stderr)

for command in ("summary", "footprint"):
    r = view(command, trace)
    check(r.returncode == 0, "%s exits %d:\n%s%s" % (command, r.returncode,
                                                   r.stdout, r.stderr))
summary = view("summary", trace).stdout
for kernel in ("star1", "star2"):
    check(re.search(r"^  %s +4 " % kernel, summary, re.M) is not None,
          "summary does not count 4 workgroups of %s:\n%s" % (kernel, summary))
check("no workgroup recorded" not in summary,
      "summary says a kernel or site recorded nothing:\n" + summary)
with open(trace, "rb") as f:
    data = f.read()
r = view("dump", trace)
check(r.returncode == 0, "dump exits %d: %s" % (r.returncode, r.stderr))
check(r.stdout == reference_decoder.dump(data),
      "dump and the reference decoder disagree")
for kernel in ("star1", "star2"):
    check(re.search(r"^// dispatch site \d+: %s at \S+/stencil\.cc:\d+$" %
                    kernel, r.stdout, re.M) is not None,
          "dump names no dispatch site of %s at the call" % kernel)
for name in ("in", "out", "weights"):
    check(r.stdout.count("= buffer %s at " % name) == 2 * GROUPS,
          "dump names buffer %s %d times, not %d" % (
              name, r.stdout.count("= buffer %s at " % name), 2 * GROUPS))

records, meta = reference_decoder.records(data)
sites = meta["access_sites"] or []
groups = []
for rec in records:
    if rec["kind"] == "WORKGROUP":
        groups.append({"values": [], "accesses": []})
    elif rec["kind"] == "VALUE" and rec["type"] == BUFFER_VALUE:
        check(not groups[-1]["accesses"], "a buffer value after an access")
        groups[-1]["values"].append((rec["ordinal"], rec["bits"]))
    elif rec["kind"] in ("LOAD", "STORE"):
        groups[-1]["accesses"].append(rec)
check(len(groups) == 2 * GROUPS, "%d workgroups, not %d" % (len(groups),
                                                          2 * GROUPS))
for n, group in enumerate(groups):
    kernel = "star1" if n < GROUPS else "star2"
    ordinals = [o for o, _ in group["values"]]
    check(ordinals == [0, 1, 2], "workgroup %d: buffer values of parameters "
          "%s, not in, out, weights" % (n, ordinals))
    if ordinals != [0, 1, 2]:
        continue
    bases = dict(group["values"])
    # in and out hold (GROUPS + 4) rows of WIDTH floats; weights two.
    extents = {0: (GROUPS + 4) * WIDTH * 4, 1: (GROUPS + 4) * WIDTH * 4, 2: 8}
    stores = 0
    for a in group["accesses"]:
        inside = [o for o in bases
                  if bases[o] <= a["address"] < bases[o] + extents[o]]
        check(inside == ([1] if a["kind"] == "STORE" else [0] if
                         a["address"] < bases[2] or a["address"] >=
                         bases[2] + 8 else [2]),
              "workgroup %d: %s at %X outside its buffer" % (
                  n, a["kind"], a["address"]))
        check(1 <= a["site"] <= len(sites) and
              sites[a["site"] - 1]["scope"] == kernel,
              "workgroup %d: an access not named by a site of %s" % (
                  n, kernel))
        stores += a["kind"] == "STORE"
    check(stores == (WIDTH - 2 if kernel == "star1" else WIDTH - 4),
          "workgroup %d (%s): %d stores" % (n, kernel, stores))

finish()
