#!/usr/bin/env python3
"""wgtrace_instrument_target's MEMORY_ACCESSES OFF, BUFFER_SIZE 64kib and
TIMING ON reach the program; the environment overrides the run-time
defaults (buffer size, timing), while accesses compiled out stay out.

The same kernel built with the defaults records every access, in ring mode
and in stream mode alike (one build serves both); built with FILTER
"workgroup=2-3", only those workgroups record their accesses unless
WGTRACE_FILTER says otherwise.

Built with COMPRESS zstd:3, its ring chunks are compressed chunks unless
WGTRACE_COMPRESS=none says otherwise.

Usage: build_settings_test.py <program> <default program> <filtered program>
       <workdir> [<compressed program>]
"""
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, clean_env, finish  # noqa: E402

PROGRAM, DEFAULT, FILTERED, WORK = sys.argv[1:5]
# Built with COMPRESS zstd:3, in a build with libzstd.
COMPRESSED = sys.argv[5] if len(sys.argv) > 5 else None
os.makedirs(WORK, exist_ok=True)
def chunks(path, env_extra=None, program=None):
    result = subprocess.run([program or PROGRAM, "--instrument_file=" + path], env=clean_env(env_extra),
                            capture_output=True, text=True)
    check(result.returncode == 0, "program failed: %s" % result.stderr)
    data = open(path, "rb").read()
    offset, found = 0, []
    while offset + 16 <= len(data):
        magic, ctype, _, length = struct.unpack_from("<IHHQ", data, offset)
        content = data[offset + 16:offset + 16 + length]
        # The run record (the last chunk) is a ring chunk without records.
        if not (ctype == 1 and is_run_record(content)):
            found.append((ctype, content))
        offset += 16 + ((length + 15) & ~15)
    return found


def is_run_record(content):
    """A ring chunk whose trailer says it is the run record."""
    trailer = len(content) - 8 - 64
    magic, _, flags = struct.unpack_from("<IHH", content, trailer)
    return magic == 0x54524757 and flags & 0x10


def ring_size(content):
    """WGTRACE_BUFFER_SIZE the program ran with, from the ring trailer (the
    chunk itself is as small as its records allow)."""
    trailer = len(content) - 8 - 64
    magic, = struct.unpack_from("<I", content, trailer)
    return struct.unpack_from("<Q", content, trailer + 32)[0] if magic == 0x54524757 else None


def memory_records(content, per_workgroup=False):
    head = struct.unpack_from("<Q", content, len(content) - 8)[0]
    tags, i, per = [], 0, []
    while i < head:
        tag = content[i]
        tags.append(tag)
        if tag == 0:
            per.append([struct.unpack_from("<I", content, i + 4)[0], 0])
        elif tag in (4, 5):
            per[-1][1] += 1
        i += 32 if tag == 0 else 16
    if per_workgroup:
        return per
    return sum(1 for t in tags if t in (4, 5)), sum(1 for t in tags if t == 0)


found = chunks(os.path.join(WORK, "settings.bin"))
rings = [c for t, c in found if t == 1]
timing = [c for t, c in found if t == 0x8001]
check(len(rings) == 1 and ring_size(rings[0]) == 65536, "the ring did not run with BUFFER_SIZE 64 KiB")
memory, groups = memory_records(rings[0])
check(memory == 0 and groups == 8, "MEMORY_ACCESSES OFF: %d memory records, %d workgroups" % (memory, groups))
check(len(timing) == 1 and len(timing[0]) == 16 + 8 * 32, "TIMING ON: no timing chunk with 8 entries")

# The environment overrides the build's defaults.
found = chunks(os.path.join(WORK, "override.bin"),
               {"WGTRACE_MEMORY": "1", "WGTRACE_TIMING": "0", "WGTRACE_BUFFER_SIZE": "128kib"})
rings = [c for t, c in found if t == 1]
check(len(rings) == 1 and ring_size(rings[0]) == 131072, "WGTRACE_BUFFER_SIZE did not override BUFFER_SIZE")
memory, _ = memory_records(rings[0])
check(memory == 0, "WGTRACE_MEMORY=1 brought back accesses compiled out (%d records)" % memory)
check(not any(t == 0x8001 for t, _ in found), "WGTRACE_TIMING=0 did not override TIMING ON")

# The defaults: every access, whichever mode the run picks.
for mode in ("ring", "stream"):
    found = chunks(os.path.join(WORK, "default_%s.bin" % mode), {"WGTRACE_MODE": mode}, program=DEFAULT)
    rings = [c for t, c in found if t == 1]
    memory, groups = memory_records(rings[0]) if len(rings) == 1 else (0, 0)
    check(memory == 8 * 64 * 2 and groups == 8,
          "default build, %s mode: %d ring chunks, %d records, %d workgroups" % (mode, len(rings), memory, groups))

# FILTER: workgroups 2 and 3 record their accesses, the others only their
# WORKGROUP record; WGTRACE_FILTER replaces the build's filter.
for env, selected in (({}, {2, 3}), ({"WGTRACE_FILTER": "workgroup=5"}, {5})):
    found = chunks(os.path.join(WORK, "filtered.bin"), env, program=FILTERED)
    rings = [c for t, c in found if t == 1]
    per = memory_records(rings[0], per_workgroup=True) if len(rings) == 1 else []
    check(sorted(x for x, _ in per) == list(range(8)),
          "FILTER %s: workgroups %s" % (env, [x for x, _ in per]))
    check(all(n == (128 if x in selected else 0) for x, n in per),
          "FILTER %s: memory records per workgroup %s" % (env, per))

if COMPRESSED:
    found = chunks(os.path.join(WORK, "compressed.bin"), program=COMPRESSED)
    types = sorted(set(t for t, _ in found))
    check(types == [0, 0x8002], "COMPRESS zstd:3: chunk types %s" % types)
    found = chunks(os.path.join(WORK, "uncompressed.bin"), {"WGTRACE_COMPRESS": "none"}, program=COMPRESSED)
    types = sorted(set(t for t, _ in found))
    check(types == [0, 1], "COMPRESS zstd:3 with WGTRACE_COMPRESS=none: chunk types %s" % types)

finish()
