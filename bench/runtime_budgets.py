#!/usr/bin/env python3
"""The runtime's budgets for real programs, each measured paired in one run.

  threads   a program that starts a thread per launch (200 launches of a
            64-workgroup kernel, 400 MiB of records) against the same program
            launching from one long-lived thread: wall time ratio (budget
            1.3x), next to the same ratio of the plain build (what starting
            200 threads costs on this machine by itself); its trace against
            the records it holds (budget: at most 1 MiB more).
  filter    matmul 256^3 tracing 1 workgroup of 64 (WGTRACE_FILTER) against
            the plain build: kernel time ratio (budget 1.1x), with the plain
            copy of the kernel body for unselected workgroups (the
            bench_matmul_selectable build) and without (bench_matmul).
  stream    the four overhead kernels in stream mode against ring mode, the
            trace in /dev/shm: kernel time ratio (budget 3x), next to what
            bounds it: the time this machine takes to write one run's
            records to a new tmpfs file (measured in the same pair), over
            ring mode's time; the rates at which it adds pages to a file by
            write(2) and by prefaulting a shared mapping (the no-copy
            alternative); and stream mode with the trace on the disk.
  compress  the four kernels with WGTRACE_COMPRESS=zstd against without,
            one run each (--reps=1), the trace in /dev/shm: the trace's
            size (budget: at most 1/10 of the plain one), ring mode's time
            outside the kernel (writing the ring at exit), stream mode's
            kernel time (the writer thread compressing while it runs), and
            wgtrace-view summary on the compressed trace against the plain
            one (decoded on one core; reported, no budget).

Each pair runs in rotation --pairs times; the script prints the median and
min-max of the ratios. Ratios, not times: the machine is shared and noisy.

Usage: bench/runtime_budgets.py [--build build] [--pairs 5] [--quick]
                                [--only threads|filter|stream|compress]
"""
import mmap
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

import bench_args
from budget_results import Results

KERNELS = {"simple_mul": 4 << 20, "matmul": 256, "stencil": 2048, "transpose": 2048}


def clean_env(extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WGTRACE_")}
    env["WGTRACE_QUIET"] = "1"
    env.update(extra)
    return env


def run(binary, args, extra_env=None):
    """(kernel seconds, checksum, wall seconds) of one run."""
    start = time.monotonic()
    proc = subprocess.run([binary] + args, env=clean_env(extra_env or {}),
                          capture_output=True, text=True)
    wall = time.monotonic() - start
    fields = dict(line.split(": ", 1) for line in proc.stdout.splitlines() if ": " in line)
    if proc.returncode != 0 or "kernel_seconds" not in fields:
        sys.exit("%s %s failed (%d): %s" % (binary, args, proc.returncode, proc.stderr))
    return float(fields["kernel_seconds"]), fields["checksum"], wall


def ring_records(path):
    """Bytes of records in the file's ring chunks (their heads)."""
    data = open(path, "rb").read()
    offset, total = 0, 0
    while offset + 16 <= len(data):
        _, ctype, _, length = struct.unpack_from("<IHHQ", data, offset)
        if ctype == 1:
            total += struct.unpack_from("<Q", data, offset + 16 + length - 8)[0]
        offset += 16 + ((length + 15) & ~15)
    return total


def summary(ratios):
    return "%6.2fx [%.2f - %.2f]" % (statistics.median(ratios), min(ratios), max(ratios))


def verdict(ratios, budget, failures, what):
    ok = statistics.median(ratios) <= budget
    if not ok:
        failures.append("%s: median %.2fx > %.2fx" % (what, statistics.median(ratios), budget))
    return "(budget %.1fx: %s)" % (budget, "ok" if ok else "OVER")


def tmpfs_rates(directory, megabytes):
    """GB/s at which this machine adds pages to a new file in directory: by
    write(2) from a buffer, as the stream writer does, and by prefaulting a
    shared mapping of it, as a writer whose buffers are the file's own pages
    would."""
    chunk = 16 << 20
    count = max(1, (megabytes << 20) // chunk)
    buffer = b"\x01" * chunk
    path = os.path.join(directory, "wgtrace-rate.bin")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    start = time.monotonic()
    for _ in range(count):
        os.write(fd, buffer)
    write_rate = count * chunk / (time.monotonic() - start) / 1e9
    os.close(fd)
    os.unlink(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    start = time.monotonic()
    for i in range(count):
        os.ftruncate(fd, (i + 1) * chunk)
        m = mmap.mmap(fd, chunk, mmap.MAP_SHARED, offset=i * chunk)
        if hasattr(m, "madvise") and hasattr(mmap, "MADV_POPULATE_WRITE"):
            m.madvise(mmap.MADV_POPULATE_WRITE)
        else:
            for page in range(0, chunk, 4096):
                m[page] = 1
        m.close()
    map_rate = count * chunk / (time.monotonic() - start) / 1e9
    os.close(fd)
    os.unlink(path)
    return write_rate, map_rate


def write_seconds(directory, length):
    """Seconds this machine takes to write length bytes to a new file in
    directory, 16 MiB at a time, as the stream writer does."""
    chunk = 16 << 20
    buffer = b"\x01" * chunk
    path = os.path.join(directory, "wgtrace-floor.bin")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    start = time.monotonic()
    left = int(length)
    while left > 0:
        left -= os.write(fd, buffer[:min(left, chunk)])
    seconds = time.monotonic() - start
    os.close(fd)
    os.unlink(path)
    return seconds


def main():
    args, bench, pairs = bench_args.parse(lambda parser: parser.add_argument(
        "--only", choices=["threads", "filter", "stream", "compress"], help="measure one budget"))
    wanted = lambda part: args.only in (None, part)
    failures, wrong = [], []
    results = Results(args.json)
    work = tempfile.mkdtemp(prefix="wgtrace-budgets-")
    shm = tempfile.mkdtemp(prefix="wgtrace-budgets-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    exe = lambda name: os.path.join(bench, "bench_" + name)

    if wanted("threads"):
        threads(args, exe, work, pairs, failures, wrong, results)
    if wanted("filter"):
        filtered(args, exe, work, pairs, failures, wrong, results)
    if wanted("stream"):
        stream(args, exe, work, shm, pairs, failures, wrong, results)
    if wanted("compress"):
        compress(args, exe, shm, pairs, failures, wrong, results)
    results.write()

    for f in failures:
        print("over budget: " + f)
    for w in wrong:
        print("WRONG RESULT: " + w)
    for directory in (work, shm):
        for name in os.listdir(directory):
            os.unlink(os.path.join(directory, name))
        os.rmdir(directory)
    if wrong:
        return 2
    return 1 if failures and not args.quick else 0


def threads(args, exe, work, pairs, failures, wrong, results):
    """A thread per launch against one long-lived thread."""
    launches, floats = (20, 64) if args.quick else (200, 1024)
    ratios, plain_ratios, sizes, extra, plain_extra = [], [], [], [], []
    common = ["--launches=%d" % launches, "--size=%d" % floats, "--reps=1"]
    for _ in range(pairs):
        trace = os.path.join(work, "threads.bin")
        _, one_sum, one = run(exe("thread_launch"), ["--threads=one"] + common, {"WGTRACE_FILE": trace})
        _, each_sum, each = run(exe("thread_launch"), ["--threads=per-launch"] + common, {"WGTRACE_FILE": trace})
        sizes.append((os.path.getsize(trace), ring_records(trace)))
        _, plain_sum, plain_one = run(exe("thread_launch_plain"), ["--threads=one"] + common)
        _, _, plain_each = run(exe("thread_launch_plain"), ["--threads=per-launch"] + common)
        if len({one_sum, each_sum, plain_sum}) != 1:
            wrong.append("thread_launch: %s, %s, plain %s" % (each_sum, one_sum, plain_sum))
        ratios.append(each / one)
        plain_ratios.append(plain_each / plain_one)
        extra.append(each - one)
        plain_extra.append(plain_each - plain_one)
    size, records = sizes[-1]
    print("thread per launch: wall time %s of one long-lived thread %s; plain build %s" % (
        summary(ratios), verdict(ratios, 1.3, failures, "thread per launch"), summary(plain_ratios)))
    print("  a thread per launch takes %.0f ms more traced, %.0f ms more plain (starting %d threads)" % (
        statistics.median(extra) * 1e3, statistics.median(plain_extra) * 1e3, launches))
    print("  trace %.1f MiB for %.1f MiB of records it holds (+%.2f MiB; budget +1 MiB)" % (
        size / 2**20, records / 2**20, (size - records) / 2**20))
    results.add("runtime.threads", statistics.median(ratios), statistics.median(ratios) <= 1.3,
                "%s (plain build %s)" % (summary(ratios).strip(), summary(plain_ratios).strip()))
    results.add("runtime.threads-trace", (size - records) / 2**20, size - records <= 1 << 20,
                "+%.2f MiB over %.1f MiB of records" % ((size - records) / 2**20, records / 2**20))
    if size - records > 1 << 20:
        failures.append("thread per launch: trace %d bytes over its records" % (size - records))



def filtered(args, exe, work, pairs, failures, wrong, results):
    """One workgroup of 64 traced."""
    size = 128 if args.quick else 256
    variants = [("selectable", "plain copy of the body"), ("", "records to a scratch ring")]
    variants = [(v, why) for v, why in variants if os.path.exists(exe("matmul" + ("_" + v if v else "")))]
    ratios = {v: [] for v, _ in variants}
    for _ in range(pairs):
        plain, expected, _ = run(exe("matmul_plain"), ["--size=%d" % size])
        for v, _ in variants:
            seconds, checksum, _ = run(exe("matmul" + ("_" + v if v else "")), ["--size=%d" % size],
                                       {"WGTRACE_FILE": os.path.join(work, "filter.bin"),
                                        "WGTRACE_FILTER": "workgroup=0,0,0"})
            if checksum != expected:
                wrong.append("matmul %s: %s against %s" % (v, checksum, expected))
            ratios[v].append(seconds / plain)
    for v, why in variants:
        line = "matmul, 1 workgroup of 64 traced (%s): %s of plain" % (why, summary(ratios[v]))
        if v == "selectable":
            line += " " + verdict(ratios[v], 1.1, failures, "filtered matmul")
            results.add("runtime.filter", statistics.median(ratios[v]),
                        statistics.median(ratios[v]) <= 1.1, summary(ratios[v]).strip())
        print(line)



def stream(args, exe, work, shm, pairs, failures, wrong, results):
    """Stream mode against ring mode, and what bounds it."""
    write_rate, map_rate = tmpfs_rates(shm, 64 if args.quick else 256)
    disk_rate, _ = tmpfs_rates(work, 64 if args.quick else 256)
    print("this machine adds pages to a file at %.2f GB/s by write(2) (%.2f GB/s by prefaulting a "
          "shared mapping) in /dev/shm, %.2f GB/s by write(2) in %s" % (
              write_rate, map_rate, disk_rate, os.path.dirname(work)))
    print("kernel       stream/ring in /dev/shm (budget 3x)  bound: records/rate  stream/ring on disk")
    for kernel, size in KERNELS.items():
        if args.quick:
            size = 1 << 16 if kernel == "simple_mul" else 128
        shm_ratios, disk_ratios, bounds = [], [], []
        for _ in range(pairs):
            ring, expected, _ = run(exe(kernel), ["--size=%d" % size],
                                    {"WGTRACE_FILE": os.path.join(work, "ring.bin")})
            trace = os.path.join(shm, "stream.bin")
            stream, checksum, _ = run(exe(kernel), ["--size=%d" % size],
                                      {"WGTRACE_FILE": trace, "WGTRACE_MODE": "stream"})
            # The harness runs the kernel 3 times: a third of the records
            # is one run's.
            per_run = ring_records(trace) / 3
            os.unlink(trace)
            bounds.append(write_seconds(shm, per_run) / ring)
            disk, disk_checksum, _ = run(exe(kernel), ["--size=%d" % size],
                                         {"WGTRACE_FILE": os.path.join(work, "stream.bin"),
                                          "WGTRACE_MODE": "stream"})
            if checksum != expected or disk_checksum != expected:
                wrong.append("%s stream: %s, %s against %s" % (kernel, checksum, disk_checksum, expected))
            shm_ratios.append(stream / ring)
            disk_ratios.append(disk / ring)
        over = statistics.median(shm_ratios) > 3.0
        results.add("runtime.stream.%s" % kernel, statistics.median(shm_ratios), not over,
                    "%s (writing its records alone: %.2fx)" % (
                        summary(shm_ratios).strip(), statistics.median(bounds)))
        print("%-12s %s %-4s %6.2fx (%5.0f MiB/run)  %s" % (
            kernel, summary(shm_ratios), "OVER" if over else "ok", statistics.median(bounds),
            per_run / 2**20, summary(disk_ratios)))
        if over:
            bound = statistics.median(bounds)
            failures.append("%s stream: median %.2fx > 3x (%s)" % (
                kernel, statistics.median(shm_ratios),
                "bounded by the machine: writing its records alone takes %.2fx ring mode's time" % bound
                if bound > 3.0 else "not bounded by the machine's file write rate"))



def summary_seconds(view, trace):
    start = time.monotonic()
    proc = subprocess.run([view, "summary", trace], capture_output=True, text=True)
    if proc.returncode not in (0, 3):
        sys.exit("summary %s failed (%d): %s" % (trace, proc.returncode, proc.stderr))
    return time.monotonic() - start, proc.stdout


def compress(args, exe, shm, pairs, failures, wrong, results):
    """WGTRACE_COMPRESS=zstd against the plain trace, per kernel."""
    view = os.path.join(args.build, "bin", "wgtrace-view")
    print("kernel       plain MiB  zstd/plain size (budget 0.1)  ring: exit zstd/plain  "
          "stream: kernel zstd/plain  summary zstd/plain")
    for kernel, size in KERNELS.items():
        if args.quick:
            size = 1 << 16 if kernel == "simple_mul" else 128
        sizes, exits, streams, summaries = [], [], [], []
        plain_trace = os.path.join(shm, "plain.bin")
        packed_trace = os.path.join(shm, "zstd.bin")
        for _ in range(pairs):
            outside = {}
            for name, trace, extra in (("plain", plain_trace, {}),
                                       ("zstd", packed_trace, {"WGTRACE_COMPRESS": "zstd"})):
                # One run, a ring that holds it: the whole trace is written
                # at exit, and the time outside the kernel is mostly that.
                env = dict(extra, WGTRACE_FILE=trace, WGTRACE_BUFFER_SIZE="1g")
                kernel_s, checksum, wall = run(exe(kernel), ["--size=%d" % size, "--reps=1"], env)
                outside[name] = wall - kernel_s
                stream_env = dict(extra, WGTRACE_FILE=trace + ".stream", WGTRACE_MODE="stream")
                stream_s, stream_sum, _ = run(exe(kernel), ["--size=%d" % size, "--reps=1"], stream_env)
                os.unlink(trace + ".stream")
                outside[name + "-stream"] = stream_s
                if len({checksum, stream_sum}) != 1:
                    wrong.append("%s %s: checksums %s, %s" % (kernel, name, checksum, stream_sum))
            plain_size, packed_size = os.path.getsize(plain_trace), os.path.getsize(packed_trace)
            sizes.append(packed_size / plain_size)
            exits.append(outside["zstd"] / outside["plain"])
            streams.append(outside["zstd-stream"] / outside["plain-stream"])
            plain_s, plain_out = summary_seconds(view, plain_trace)
            packed_s, packed_out = summary_seconds(view, packed_trace)
            if plain_out != packed_out:
                wrong.append("%s: summary of the compressed trace differs" % kernel)
            summaries.append(packed_s / plain_s)
        met = statistics.median(sizes) <= 0.1
        results.add("runtime.compress.size.%s" % kernel, statistics.median(sizes), met,
                    "%.3f (%.1fx smaller; %.0f MiB plain)" % (
                        statistics.median(sizes), 1 / statistics.median(sizes), plain_size / 2**20))
        if not met:
            failures.append("%s: compressed trace %.3f of the plain one" % (kernel, statistics.median(sizes)))
        print("%-12s %9.1f  %s %-4s  %s  %s  %s" % (
            kernel, plain_size / 2**20, summary(sizes), "ok" if met else "OVER", summary(exits),
            summary(streams), summary(summaries)))
        os.unlink(plain_trace)
        os.unlink(packed_trace)


if __name__ == "__main__":
    sys.exit(main())
