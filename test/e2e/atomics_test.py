#!/usr/bin/env python3
"""Atomic accesses recorded end to end (test/e2e/atomics/histogram.cc).

A histogram of 4 workgroups run by 2 workers (WGTRACE_DEVICE=local-task,
WGTRACE_WORKERS=2):
  - made correct with std::atomic_ref<int>(bins[k]).fetch_add(1): the bins
    are right, `wgtrace-view races` exits 0, and the trace holds every
    update, each an atomic mark then a LOAD and a STORE of the bin, as the
    independent reference decoder reads it, per workgroup and per bin;
  - the same with `bins[k] += 1`: `races` exits 1.
The atomic run again in stream mode with the smallest buffers (4 KiB: an
operation's records are never split by a buffer change, and every update
is still there), and in ring mode with a ring that wraps (what survives
decodes, nothing races, `races` says the trace is incomplete: exit 3).
`dump` agrees with the reference decoder line for line; `dump
--iree-compat` prints the marks as IREE's tool would (`<<unknown type:
43>>`); `convert --iree` writes plain loads and stores without marks.

Usage: atomics_test.py <histogram program> <wgtrace-view> <workdir>
"""
import collections
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from checks import check, clean_env, finish  # noqa: E402
import reference_decoder  # noqa: E402

PROGRAM, VIEW, WORK = sys.argv[1:4]
os.makedirs(WORK, exist_ok=True)
BINS, PER_GROUP, GROUPS = 16, 1000, 4
DATA = [(i * 7 + i // 13) % BINS for i in range(GROUPS * PER_GROUP)]
EXPECTED_BINS = collections.Counter(DATA)


def run(kind, name, env=None):
    """Runs the histogram; returns the trace's path and the bins printed."""
    trace = os.path.join(WORK, name + ".bin")
    extra = {"WGTRACE_FILE": trace, "WGTRACE_DEVICE": "local-task",
             "WGTRACE_WORKERS": "2", "WGTRACE_QUIET": "1"}
    extra.update(env or {})
    result = subprocess.run([PROGRAM, kind], env=clean_env(extra),
                            capture_output=True, text=True)
    check(result.returncode == 0, "%s: the program failed: %s" % (name, result.stderr))
    return trace, [int(v) for v in result.stdout.split()]


def view(*args):
    return subprocess.run([VIEW] + list(args), capture_output=True, text=True)


def updates(trace):
    """The atomic updates of the trace per workgroup and per bin, the
    other accesses, and the processor ids, as the reference decoder reads
    them."""
    with open(trace, "rb") as f:
        records, meta = reference_decoder.records(f.read())
    groups, per_group, per_bin, plain, pids = {}, collections.Counter(), \
        collections.Counter(), collections.Counter(), set()
    base = None
    for i, r in enumerate(records):
        if r["kind"] == "WORKGROUP":
            groups[(r["chunk"], r["offset"])] = r["id"]
            continue
        if r["kind"] == "VALUE" and r["type"] == 0x40 and r["ordinal"] == 1:
            base = r["bits"]  # bins, the kernel's second buffer
        if r["kind"] not in ("LOAD", "STORE"):
            continue
        wg = groups[(r["chunk"], r["key"])]
        if not r["atomic"]:
            plain[(wg, r["kind"], r["length"])] += 1
            continue
        # An update: the mark, then this LOAD, then the STORE of the bin.
        if r["kind"] == "LOAD":
            mark, store = records[i - 1], records[i + 1]
            check(mark["kind"] == "VALUE" and mark["type"] == 0x44 and
                  mark["bits"] == 3 and mark["ordinal"] == 2,
                  "an atomic LOAD whose mark is %s" % mark)
            check(store["kind"] == "STORE" and store["atomic"] and
                  store["address"] == r["address"] and r["length"] == 4,
                  "an atomic LOAD not followed by its STORE: %s" % store)
            per_group[wg] += 1
            per_bin[(r["address"] - base) // 4 if base is not None else None] += 1
    return per_group, per_bin, plain, meta


def check_complete(name, trace):
    per_group, per_bin, plain, meta = updates(trace)
    check(dict(per_group) == {(x, 0, 0): PER_GROUP for x in range(GROUPS)},
          "%s: atomic updates per workgroup are %s" % (name, dict(per_group)))
    check(dict(per_bin) == dict(EXPECTED_BINS),
          "%s: atomic updates per bin are %s, not %s" % (name, dict(per_bin),
                                                          dict(EXPECTED_BINS)))
    check(dict(plain) == {((x, 0, 0), "LOAD", 4): PER_GROUP for x in range(GROUPS)},
          "%s: the plain accesses are %s" % (name, dict(plain)))
    check(not meta["untraced"], "%s: untraced accesses %s" % (name, meta["untraced"]))


# The atomic histogram, ring mode.
trace, bins = run("atomic", "atomic")
check(bins == [EXPECTED_BINS[k] for k in range(BINS)], "atomic: wrong bins %s" % bins)
r = view("races", trace)
check(r.returncode == 0, "atomic: races exits %d, not 0:\n%s%s" % (r.returncode, r.stdout, r.stderr))
check("\n0 racing workgroup pairs in 1 launch" in "\n" + r.stdout, "atomic: races says\n" + r.stdout)
check_complete("atomic", trace)
with open(trace, "rb") as f:
    data = f.read()
r = view("dump", trace)
check(r.returncode == 0 and r.stdout == reference_decoder.dump(data),
      "atomic: dump and the reference decoder disagree")
check(r.stdout.count("| VALUE 0002 = atomic update\n") == GROUPS * PER_GROUP,
      "atomic: dump shows %d atomic updates" % r.stdout.count("= atomic update"))
compat = view("dump", "--iree-compat", trace)
check(compat.returncode == 0 and
      compat.stdout.count("| VALUE 0002 = <<unknown type: 44>>\n") == GROUPS * PER_GROUP and
      len(compat.stdout.splitlines()) == len(r.stdout.splitlines()),
      "atomic: dump --iree-compat does not print the marks as IREE's tool")
summary = view("summary", "--json", trace)
check(summary.returncode == 0 and '"atomics": %d' % (2 * GROUPS * PER_GROUP) in summary.stdout,
      "atomic: summary --json does not count %d atomic accesses" % (2 * GROUPS * PER_GROUP))

# convert --iree: plain loads and stores, no marks.
converted = os.path.join(WORK, "atomic-iree.bin")
c = view("convert", "--iree", trace, "-o", converted)
check(c.returncode == 0, "convert --iree failed: " + c.stderr)
with open(converted, "rb") as f:
    records, _ = reference_decoder.records(f.read())
check(not any(x["kind"] == "VALUE" and x["type"] == 0x44 for x in records),
      "convert --iree kept atomic marks")
check(sum(1 for x in records if x["kind"] in ("LOAD", "STORE")) ==
      GROUPS * PER_GROUP * 3 and not any(x.get("atomic") for x in records),
      "convert --iree did not keep every access as a plain one")

# The same with `+=`: a race.
trace, bins = run("plain", "plain")
r = view("races", trace)
check(r.returncode == 1, "plain: races exits %d, not 1:\n%s" % (r.returncode, r.stdout))
check("write-write" in r.stdout, "plain: races says\n" + r.stdout)

# Stream mode, 4 KiB buffers: many buffer changes, none splits an update.
trace, bins = run("atomic", "atomic-stream",
                  {"WGTRACE_MODE": "stream", "WGTRACE_BUFFER_SIZE": "4kib"})
check(bins == [EXPECTED_BINS[k] for k in range(BINS)], "stream: wrong bins %s" % bins)
r = view("races", trace)
check(r.returncode == 0, "stream: races exits %d, not 0:\n%s%s" % (r.returncode, r.stdout, r.stderr))
check_complete("stream", trace)

# Ring mode, a ring that wraps: what survives is whole and races with
# nothing; the trace misses records, which races says (exit 3).
trace, bins = run("atomic", "atomic-wrapped", {"WGTRACE_BUFFER_SIZE": "16kib"})
r = view("races", trace)
check(r.returncode == 3, "wrapped: races exits %d, not 3:\n%s%s" % (r.returncode, r.stdout, r.stderr))
check("\n0 racing workgroup pairs" in "\n" + r.stdout, "wrapped: races says\n" + r.stdout)
with open(trace, "rb") as f:
    data = f.read()
r = view("dump", trace)
check(r.returncode == 0 and r.stdout == reference_decoder.dump(data),
      "wrapped: dump and the reference decoder disagree:\n" + r.stderr)

finish()
