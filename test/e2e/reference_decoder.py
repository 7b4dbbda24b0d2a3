#!/usr/bin/env python3
"""An independent decoder of the wgtrace/IREE trace format.

Written from the format description in DESIGN.md alone (chunk headers, the
FlatBuffer metadata read by hand, record layouts), sharing no code with the
runtime or wgtrace-view. The end-to-end tests compare its text dump with
`wgtrace-view dump` line for line: if the writer and the viewer agreed on a
mistake, this decoder would disagree with both.
"""
import struct
import sys

MAGIC = 0x42444930
PADDING = 4096
RULE = "//" + "=" * 3 + "-" * 70 + "=" * 3 + "//"


def align16(n):
    return (n + 15) & ~15


class Table:
    """Just enough of a FlatBuffers table reader for the metadata schema."""

    def __init__(self, buf, pos):
        self.buf, self.pos = buf, pos
        vtable = pos - struct.unpack_from("<i", buf, pos)[0]
        self.vsize = struct.unpack_from("<H", buf, vtable)[0]
        self.vtable = vtable

    def _field(self, index):
        entry = 4 + 2 * index
        if entry >= self.vsize:
            return None
        off = struct.unpack_from("<H", self.buf, self.vtable + entry)[0]
        return self.pos + off if off else None

    def u32(self, index, default=0):
        at = self._field(index)
        return default if at is None else struct.unpack_from("<I", self.buf, at)[0]

    def _indirect(self, at):
        return at + struct.unpack_from("<I", self.buf, at)[0]

    def string(self, index):
        at = self._field(index)
        if at is None:
            return None
        s = self._indirect(at)
        n = struct.unpack_from("<I", self.buf, s)[0]
        return self.buf[s + 4:s + 4 + n].decode("utf-8", "replace")

    def tables(self, index):
        at = self._field(index)
        if at is None:
            return []
        v = self._indirect(at)
        n = struct.unpack_from("<I", self.buf, v)[0]
        return [Table(self.buf, self._indirect(v + 4 + 4 * i)) for i in range(n)]


def dump_metadata(content, out):
    if content[4:8] != b"IDBD":
        raise ValueError("metadata identifier is not IDBD")
    root = Table(content, struct.unpack_from("<I", content, 0)[0])
    functions = root.tables(2)
    sites = root.tables(3)
    for i, f in enumerate(functions):
        out.append("")
        out.append(RULE)
        out.append("// export[%d]: %s" % (i, f.string(0)))
        out.append(RULE)
        if f.string(1) is not None:
            out.append("//  target: %s" % f.string(1))
        if f.string(2) is not None:
            out.append("//  layout: %s" % f.string(2))
        if f.string(3) is not None:
            out.extend((f.string(3) + "\n").split("\n")[:-1] or [""])
        out.append("")
    out.append(RULE)
    for i, s in enumerate(sites):
        out.append("// dispatch site %d: %s" % (i, functions[s.u32(0)].string(0)))
    out.append(RULE)
    out.append("")
    return [f.string(0) for f in functions], [s.u32(0) for s in sites]


def value_text(vtype, bits):
    raw = struct.pack("<Q", bits)
    fmt = {0: "<b", 1: "<B", 2: "<h", 3: "<H", 4: "<i", 5: "<I", 6: "<q", 7: "<Q"}
    if vtype in fmt:
        return str(struct.unpack_from(fmt[vtype], raw)[0])
    if vtype == 8:
        return "%16X" % bits
    if vtype in (9, 12):
        return "%4X" % (bits & 0xFFFF)
    if vtype == 10:
        v = struct.unpack_from("<f", raw)[0]
        return "%e %f" % (v, v)
    if vtype == 11:
        v = struct.unpack_from("<d", raw)[0]
        return "%e %f" % (v, v)
    return "<<unknown type: %02X>>" % vtype


def dump_ring(content, names, sites, out):
    ring_size = len(content) - PADDING
    head = struct.unpack_from("<Q", content, len(content) - 8)[0]
    i = 0
    while i < min(head, ring_size):
        tag = content[i]
        if tag == 0:
            w = struct.unpack_from("<8I", content, i)
            dispatch = w[0] >> 8
            out.append("%016X | WORKGROUP dispatch(%u %s %ux%ux%u) %u,%u,%u pid:%u" % (
                i, dispatch, names[sites[dispatch]], w[4], w[5], w[6], w[1], w[2], w[3], w[7]))
            i += 32
            continue
        word, second = struct.unpack_from("<QQ", content, i)
        payload, key = (word >> 8) & 0xFFFF, word >> 24
        if tag == 1:
            text = content[i + 8:i + 8 + payload].decode("utf-8", "replace")
            out.append("%016X | PRINT %s" % (key, text))
            i += align16(8 + payload)
        elif tag == 2:
            out.append("%016X | VALUE %04u = %s" % (key, (payload >> 8) & 0xFF,
                                                    value_text(payload & 0xFF, second)))
            i += 16
        elif tag in (4, 5):
            out.append("%016X | %s %016X %u" % (key, "LOAD " if tag == 4 else "STORE", second, payload))
            i += 16
        else:
            raise ValueError("unknown record tag %d at ring offset %d" % (tag, i))


def dump(data):
    out, names, sites = [], [], []
    offset = 0
    while offset < len(data):
        magic, ctype, _version, length = struct.unpack_from("<IHHQ", data, offset)
        if magic != MAGIC:
            raise ValueError("bad magic at offset %d" % offset)
        content = data[offset + 16:offset + 16 + length]
        if ctype == 0:
            names, sites = dump_metadata(content, out)
        elif ctype == 1:
            dump_ring(content, names, sites, out)
        else:
            raise ValueError("unknown chunk type %d" % ctype)
        offset += 16 + align16(length)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        sys.stdout.write(dump(f.read()))
