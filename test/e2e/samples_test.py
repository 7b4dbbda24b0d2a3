#!/usr/bin/env python3
"""End to end over the sample gallery.

For every sample: the instrumented build computes and prints exactly what
the plain build does (on local-sync and on local-task with 2 workers), and
its trace holds what that kernel must do to memory.

Usage: samples_test.py <samples dir> <wgtrace-view> <work dir>
"""
import collections
import json
import os
import re
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, clean_env, finish  # noqa: E402

SAMPLES, VIEW, WORK = sys.argv[1:4]
os.makedirs(WORK, exist_ok=True)
def run(program, args=(), extra_env=None):
    return subprocess.run([os.path.join(SAMPLES, program)] + list(args), env=clean_env(extra_env),
                          capture_output=True, text=True)


def traced(name, program, args=()):
    path = os.path.join(WORK, name + ".bin")
    if os.path.exists(path):
        os.remove(path)
    result = run(program, ["--instrument_file=" + path] + list(args))
    return path, result


WG = re.compile(r"^([0-9A-F]{16}) \| WORKGROUP dispatch\((\d+) (\S+) (\d+)x(\d+)x(\d+)\) (\d+),(\d+),(\d+) pid:(\d+)$")
MEM = re.compile(r"^([0-9A-F]{16}) \| (LOAD |STORE) ([0-9A-F]{16}) (\d+)$")


def workgroups(path):
    """[(kernel, (x, y, z), Counter of (kind, length))] in trace order."""
    dump = subprocess.run([VIEW, "dump", path], capture_output=True, text=True)
    check(dump.returncode == 0, "dump of %s failed: %s" % (path, dump.stderr))
    result = []
    for line in dump.stdout.splitlines():
        m = WG.match(line)
        if m:
            result.append((m.group(3), tuple(map(int, m.group(7, 8, 9))), collections.Counter()))
            continue
        m = MEM.match(line)
        if m and result:
            result[-1][2][(m.group(2).strip(), int(m.group(4)))] += 1
    return result


def same_as_plain(program, args=()):
    plain = run(program + "_plain", args)
    devices = [{}, {"WGTRACE_DEVICE": "local-task", "WGTRACE_WORKERS": "2"}]
    if "--racy" in args:
        devices = devices[:1]  # its result on local-task depends on timing: the race
    for device_env in devices:
        instrumented = run(program, ["--instrument_file=" + os.path.join(WORK, "cmp.bin")] + list(args), device_env)
        check(instrumented.returncode == plain.returncode and instrumented.stdout == plain.stdout,
              "%s %s %s: instrumented (%d, %r) differs from plain (%d, %r)" % (
                  program, " ".join(args), device_env, instrumented.returncode, instrumented.stdout,
                  plain.returncode, plain.stdout))
    return plain


def races(path):
    return subprocess.run([VIEW, "races", path], capture_output=True, text=True).returncode


for program, args in [("simple_mul", []), ("matmul", []), ("stencil", []), ("transpose", []),
                      ("histogram", []), ("histogram", ["--racy"]),
                      ("histogram", ["--atomic"]), ("simd", []),
                      ("span_template", []), ("helper", [])]:
    result = same_as_plain(program, args)
    check(result.returncode == 0, "%s %s exits %d" % (program, args, result.returncode))

# matmul: 16 tiles; each reads 16 rows of A and 16 columns of B in full.
path, _ = traced("matmul", "matmul")
wgs = workgroups(path)
check(len(wgs) == 16, "matmul: %d workgroups, expected 16" % len(wgs))
for kernel, wid, counts in wgs:
    check(counts == {("LOAD", 4): 16 * 16 * 64 * 2, ("STORE", 4): 256},
          "matmul %s: %s" % (wid, dict(counts)))

# annotate on matmul: its lines add up to summary's counts, its misses are
# cache's, and the source is the sample's file on disk.
def view_json(*args):
    out = subprocess.run([VIEW] + list(args) + ["--json", path], capture_output=True, text=True)
    check(out.returncode == 0, "%s: exit %d: %s" % (args, out.returncode, out.stderr))
    return json.loads(out.stdout) if out.returncode == 0 else {}


# annotate takes cache's levels: the machine's by default, or as given
# (small enough here for matmul to miss L2 and LL); --l2 none drops L2.
GEOMETRIES = ([], ["--l1", "4k,2,64", "--l2", "16k,4,64", "--ll", "64k,8,64"],
              ["--l1", "8k,2,64", "--l2", "none", "--ll", "64k,8,64"])
summary = view_json("summary", "--by", "kernel")
for levels in GEOMETRIES:
    annotated = view_json("annotate", *levels)
    cache = view_json("cache", "--by", "kernel", *levels)
    check(annotated.get("schema") == "wgtrace-annotate/2", "annotate: schema %s" % annotated.get("schema"))
    check(annotated.get("cache", {}).get("levels") == cache.get("levels"),
          "annotate %s: levels %s, cache %s" % (levels, annotated.get("cache"), cache.get("levels")))
    names = [level["name"] for level in cache.get("levels", [])]
    if levels:
        check(("L2" not in names) == ("none" in levels), "annotate %s: levels %s" % (levels, names))
    else:
        # The machine's: an L2 only where sysfs lists one below the last
        # level (a virtual machine may list no caches: cachegrind's
        # defaults, D1 and LL).
        check(names[:1] == ["D1"] and names[-1:] == ["LL"], "annotate: the machine's levels %s" % names)
    misses = [name + kind for name in names for kind in ("mr", "mw")]
    by_kernel = {g["kernel"]: g for g in cache.get("groups", [])}
    for kernel in annotated.get("kernels", []):
        rows = kernel["lines"] + ([kernel["no_line"]] if kernel["no_line"] else [])
        want = summary["kernels"][kernel["kernel"]]
        for field in ("loads", "stores", "load_bytes", "store_bytes"):
            check(sum(r[field] for r in rows) == want[field] == kernel["totals"][field],
                  "annotate matmul %s: lines add up to %d, summary %d" % (field, sum(r[field] for r in rows), want[field]))
        check(kernel["totals"]["lines"] == want["lines"],
              "annotate matmul: %d distinct lines, summary %d" % (kernel["totals"]["lines"], want["lines"]))
        check(kernel["lines"] and all(r["file"].endswith("matmul.cc") for r in kernel["lines"]),
              "annotate matmul: lines in %s" % {r["file"] for r in kernel["lines"]})
        for field in misses:
            lines = sum(r[field] for r in rows)
            got = by_kernel.get(kernel["kernel"], {}).get(field)
            check(lines == kernel["totals"][field] == got,
                  "annotate matmul %s %s: lines %d, cache --by kernel %s" % (levels, field, lines, got))
    for field in misses:
        check(annotated["totals"][field] == cache["totals"][field],
              "annotate matmul %s %s: %d, cache %d" % (levels, field, annotated["totals"][field], cache["totals"][field]))
    if levels:
        check(annotated["totals"][misses[-2]] > 0, "annotate matmul %s: nothing reaches %s" % (levels, names[-1]))
check([f["source"] for f in annotated.get("files", [])] == ["disk"], "annotate matmul: files %s" % annotated.get("files"))
text = subprocess.run([VIEW, "annotate", path], capture_output=True, text=True).stdout
check("source: the file on disk" in text and "PROGRAM TOTALS" in text, "annotate matmul text:\n" + text)

# stencil: 1024 stores per tile; 5 loads per interior point, 1 per border.
path, _ = traced("stencil", "stencil")
wgs = workgroups(path)
check(len(wgs) == 16, "stencil: %d workgroups" % len(wgs))
for kernel, (x, y, _), counts in wgs:
    border = sum(1 for py in range(y * 32, y * 32 + 32) for px in range(x * 32, x * 32 + 32)
                 if px in (0, 127) or py in (0, 127))
    check(counts == {("STORE", 4): 1024, ("LOAD", 4): border + 5 * (1024 - border)},
          "stencil %s: %s" % ((x, y), dict(counts)))
check(races(path) == 0, "stencil: overlapping halo reads reported as a race")

# transpose: 16 x 16 tiles of 16 x 16.
path, _ = traced("transpose", "transpose")
wgs = workgroups(path)
check(len(wgs) == 64, "transpose: %d workgroups" % len(wgs))
check(all(c == {("LOAD", 4): 256, ("STORE", 4): 256} for _, _, c in wgs), "transpose record counts")

# histogram: the racy version races, the fixed one does not.
path, _ = traced("histogram_racy", "histogram", ["--racy"])
check(races(path) == 1, "histogram --racy: races did not report the race")
racy = workgroups(path)
check(all(c[("LOAD", 1)] == 4096 and c[("LOAD", 4)] == 4096 and c[("STORE", 4)] == 4096 for _, _, c in racy),
      "histogram --racy: each workgroup loads 4096 bytes and updates 4096 bins")
path, _ = traced("histogram_atomic", "histogram", ["--atomic"])
check(races(path) == 0, "histogram --atomic: races reported a race")
atomic = workgroups(path)
check(len(atomic) == 16 and
      all(c[("LOAD", 1)] == 4096 and c[("LOAD", 4)] == 4096 and c[("STORE", 4)] == 4096
          for _, _, c in atomic),
      "histogram --atomic: each workgroup loads 4096 bytes and updates 4096 bins")
path, _ = traced("histogram", "histogram")
check(races(path) == 0, "histogram (fixed): races reported a race")
fixed = workgroups(path)
check(sorted(set(k for k, _, _ in fixed)) == ["histogram_merge", "histogram_private"],
      "histogram (fixed): kernels %s" % sorted(set(k for k, _, _ in fixed)))

# simd: one 16- or 32-byte record per vector access.
path, _ = traced("simd", "simd")
total = collections.Counter()
for _, _, c in workgroups(path):
    total.update(c)
check(total == {("LOAD", 16): 256, ("STORE", 16): 128, ("LOAD", 32): 128, ("STORE", 32): 64},
      "simd: %s" % dict(total))

# span_template: float launch 4-byte accesses, double launch 8-byte ones.
path, _ = traced("span_template", "span_template")
by_kernel = collections.defaultdict(collections.Counter)
for kernel, _, c in workgroups(path):
    by_kernel[kernel].update(c)
sizes = sorted(set(n for c in by_kernel.values() for (_, n) in c))
check(sizes == [4, 8], "span_template: access sizes %s" % sizes)
check(sum(c[("LOAD", 4)] for c in by_kernel.values()) == 2048 and
      sum(c[("STORE", 8)] for c in by_kernel.values()) == 1024, "span_template counts %s" % dict(by_kernel))

# helper: clamped_load's loads belong to the calling blur workgroups.
path, _ = traced("helper", "helper")
wgs = workgroups(path)
check(len(wgs) == 4 and all(c == {("LOAD", 4): 192, ("STORE", 4): 64} for _, _, c in wgs),
      "helper: %s" % [dict(c) for _, _, c in wgs])
# Its 1024 records in a ring of the default 16 MiB: the ring chunk is written
# as small as the records allow.
check(os.path.getsize(path) < 64 * 1024, "helper: a %d-byte trace" % os.path.getsize(path))

# simple_mul with a 64 KiB ring, each workgroup (192 KiB of records) larger
# than it: the trace shows the newest records, all of workgroup 3,0,0, at
# least the ring less one 8 KiB part of it; IREE's reading of the file
# (dump --iree-compat) reads all of them too.
path = os.path.join(WORK, "simple_mul_64k.bin")
result = run("simple_mul", ["--instrument_file=" + path], {"WGTRACE_BUFFER_SIZE": "64kib"})
check(result.returncode == 0, "simple_mul at 64kib exits %d" % result.returncode)
wgs = workgroups(path)
check(wgs and all(wid == (3, 0, 0) for _, wid, _ in wgs), "simple_mul at 64kib: %s" % [w for _, w, _ in wgs])
records = sum(sum(c.values()) for _, _, c in wgs)
check(records >= (65536 - 8192) // 16, "simple_mul at 64kib: %d records of workgroup 3,0,0" % records)
compat = subprocess.run([VIEW, "dump", "--iree-compat", path], capture_output=True, text=True)
check(compat.returncode == 0 and compat.stdout.count("| LOAD ") + compat.stdout.count("| STORE ") == records,
      "simple_mul at 64kib: dump --iree-compat exits %d" % compat.returncode)

# WGTRACE_COMPRESS=zstd, in ring and stream mode: the compressed trace is
# much smaller and every count of summary --json is the raw run's (both runs
# without address randomisation, so that the buffers are where they were).
def summary_json(path):
    result = subprocess.run([VIEW, "summary", "--json", path], capture_output=True, text=True)
    check(result.returncode == 0, "summary --json %s: %s" % (path, result.stderr))
    return result.stdout


def unrandomised(program, path, extra_env):
    return subprocess.run(["setarch", "-R", os.path.join(SAMPLES, program), "--instrument_file=" + path],
                          env=clean_env(extra_env), capture_output=True, text=True)


if os.environ.get("WGTRACE_HAVE_ZSTD") == "1":
    for program in ("matmul", "stencil"):
        for mode in ("ring", "stream"):
            raw = os.path.join(WORK, "%s_%s_raw.bin" % (program, mode))
            packed = os.path.join(WORK, "%s_%s_zstd.bin" % (program, mode))
            # Ring mode: a ring that holds the run; stream mode: many buffers.
            env = {"WGTRACE_MODE": mode, "WGTRACE_BUFFER_SIZE": "16m" if mode == "ring" else "64kib"}
            first = unrandomised(program, raw, env)
            second = unrandomised(program, packed, dict(env, WGTRACE_COMPRESS="zstd"))
            check(first.returncode == 0 and second.returncode == 0 and first.stdout == second.stdout,
                  "%s %s: compressed run differs from the raw one" % (program, mode))
            check(os.path.getsize(packed) * 10 <= os.path.getsize(raw),
                  "%s %s: compressed %d bytes, raw %d" % (program, mode, os.path.getsize(packed),
                                                          os.path.getsize(raw)))
            check(summary_json(raw) == summary_json(packed),
                  "%s %s: summary --json of the compressed trace differs" % (program, mode))

# out_of_bounds: both builds die of SIGSEGV; the trace keeps the 7 good
# workgroups and the faulting one's first (faulting) store.
plain = run("out_of_bounds_plain")
check(plain.returncode == -signal.SIGSEGV, "out_of_bounds_plain exits %d" % plain.returncode)
path, result = traced("out_of_bounds", "out_of_bounds")
check(result.returncode == -signal.SIGSEGV, "out_of_bounds exits %d" % result.returncode)
wgs = workgroups(path) if os.path.exists(path) else []
check(len(wgs) == 8, "out_of_bounds: %d workgroups in the trace, expected 8" % len(wgs))
check(all(c == {("STORE", 4): 1024} for _, _, c in wgs[:7]), "out_of_bounds: first 7 workgroups complete")
check(len(wgs) == 8 and wgs[7][2] == {("STORE", 4): 1}, "out_of_bounds: the faulting store is the last record")

finish()
