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
# wgtrace's VALUE type that marks the memory records right after it as an
# atomic operation's; its bits say which: 1 a load, 2 a store, 3 a load
# then a store, 0 none (a filler).
ATOMIC = 0x44
ATOMIC_OPS = {0: "none", 1: "load", 2: "store", 3: "update"}
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

    def u8(self, index, default=0):
        at = self._field(index)
        return default if at is None else self.buf[at]

    def location(self, index):
        """A SourceLocation struct (file, line, column), stored inline."""
        at = self._field(index)
        return (0, 0, 0) if at is None else struct.unpack_from("<3I", self.buf, at)

    def strings(self, index):
        at = self._field(index)
        if at is None:
            return []
        v = self._indirect(at)
        n = struct.unpack_from("<I", self.buf, v)[0]
        out = []
        for i in range(n):
            s = self._indirect(v + 4 + 4 * i)
            length = struct.unpack_from("<I", self.buf, s)[0]
            out.append(self.buf[s + 4:s + 4 + length].decode("utf-8", "replace"))
        return out

    def has(self, index):
        return self._field(index) is not None

    def table(self, index):
        at = self._field(index)
        return None if at is None else Table(self.buf, self._indirect(at))

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
    # wgtrace's extension (root field 16, WgtraceDef): with its access_sites
    # vector (field 4) present, the top 16 bits of a memory record's
    # address word are an access site id, not address. Its sites (field 3:
    # location, direct) say where each dispatch site is.
    ext = root.table(16)
    files = ext.strings(1) if ext is not None else []

    def place(t, index, column):
        f, line, col = t.location(index)
        if f == 0 or f >= len(files):
            return ""
        return "%s:%d" % (files[f], line) + (":%d" % col if column and col else "")

    ext_sites = ext.tables(3) if ext is not None else []
    for i, s in enumerate(sites):
        line = "// dispatch site %d: %s" % (i, functions[s.u32(0)].string(0))
        if i < len(ext_sites):
            if ext_sites[i].u8(1):
                line += " (direct calls)"
            elif place(ext_sites[i], 0, False):
                line += " at " + place(ext_sites[i], 0, False)
        out.append(line)
    out.append(RULE)
    out.append("")
    context = {
        "has_sites": ext is not None and ext.has(4),
        "params": [[p.string(0) for p in f.tables(2)] for f in ext.tables(2)]
        if ext is not None else [],
        "indirect": [(c.string(2), place(c, 0, True)) for c in ext.tables(6)]
        if ext is not None else [],
    }
    return [f.string(0) for f in functions], [s.u32(0) for s in sites], context


def own_value_text(vtype, ordinal, bits, function, context):
    """wgtrace's own VALUE types in words (wgtrace-view dump's text), or
    None for the others."""
    if vtype in (0x40, 0x41):
        params = context["params"]
        name = "param#%d" % ordinal
        if function is not None and function < len(params) and ordinal < len(params[function]):
            name = params[function][ordinal]
        if vtype == 0x40:
            return "buffer %s at %016X" % (name, bits)
        return "buffer %s is %d bytes" % (name, bits)
    if vtype == 0x42:
        return "continues the workgroup begun at ring byte %X" % bits
    if vtype == 0x43:
        if bits < len(context["indirect"]):
            return "uninstrumented call: %s at %s" % context["indirect"][bits]
        return "uninstrumented call #%d" % bits
    return None


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
    if vtype == ATOMIC and bits in ATOMIC_OPS:
        return "atomic " + ATOMIC_OPS[bits]
    return "<<unknown type: %02X>>" % vtype


def dump_ring(content, names, sites, context, out):
    has_sites = context["has_sites"]
    ring_size = len(content) - PADDING
    head = struct.unpack_from("<Q", content, len(content) - 8)[0]
    dispatch_at = {}  # WORKGROUP record offset -> its dispatch site
    i = 0
    while i < min(head, ring_size):
        tag = content[i]
        if tag == 0:
            w = struct.unpack_from("<8I", content, i)
            dispatch = w[0] >> 8
            dispatch_at[i] = dispatch
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
            vtype, ordinal = payload & 0xFF, (payload >> 8) & 0xFF
            dispatch = dispatch_at.get(key)
            function = sites[dispatch] if dispatch is not None else None
            text = own_value_text(vtype, ordinal, second, function, context)
            out.append("%016X | VALUE %04u = %s" % (
                key, ordinal, text if text is not None else value_text(vtype, second)))
            i += 16
        elif tag in (4, 5):
            address = second & ((1 << 48) - 1) if has_sites else second
            out.append("%016X | %s %016X %u" % (key, "LOAD " if tag == 4 else "STORE", address, payload))
            i += 16
        else:
            raise ValueError("unknown record tag %d at ring offset %d" % (tag, i))


def dump(data):
    out, names, sites = [], [], []
    context = {"has_sites": False, "params": [], "indirect": []}
    offset = 0
    while offset < len(data):
        magic, ctype, _version, length = struct.unpack_from("<IHHQ", data, offset)
        if magic != MAGIC:
            raise ValueError("bad magic at offset %d" % offset)
        content = data[offset + 16:offset + 16 + length]
        if ctype == 0:
            names, sites, context = dump_metadata(content, out)
        elif ctype == 1:
            dump_ring(content, names, sites, context, out)
        else:
            raise ValueError("unknown chunk type %d" % ctype)
        offset += 16 + align16(length)
    return "\n".join(out) + "\n"


def extension(content):
    """wgtrace's metadata extension (WgtraceDef, root field 16) as plain
    data: buffer parameters per function, access sites (None when the file
    has no access_sites vector), untraced accesses."""
    root = Table(content, struct.unpack_from("<I", content, 0)[0])
    ext = root.table(16)
    result = {"params": [], "access_sites": None, "untraced": [],
              "names": [f.string(0) for f in root.tables(2)]}
    if ext is None:
        return result
    files = ext.strings(1)

    def place(t, index):
        f, line, column = t.location(index)
        return (files[f] if f < len(files) else "?", line, column)

    for f in ext.tables(2):
        result["params"].append([
            {"name": p.string(0), "type": p.string(1), "position": p.u32(2),
             "kind": p.u8(3), "element_size": p.u32(4), "has_extent": bool(p.u8(5))}
            for p in f.tables(2)])
    if ext.has(4):
        result["access_sites"] = [
            {"place": place(a, 0), "kind": a.u8(1), "scope": a.string(2), "text": a.string(3)}
            for a in ext.tables(4)]
    result["untraced"] = [
        {"place": place(u, 0), "scope": u.string(1), "text": u.string(2), "reason": u.string(3)}
        for u in ext.tables(5)]
    return result


def records(data):
    """Every record of a trace, in file order, as dicts: kind WORKGROUP
    (offset, site, function, id), VALUE (key, type, ordinal, bits), LOAD /
    STORE (key, address, site, length, word, atomic), PRINT (key, text);
    and the extension of the last metadata chunk. Keys are ring offsets of
    WORKGROUP records in the same chunk ("chunk" numbers the ring chunks).
    A LOAD or STORE is atomic when an Atomic VALUE right before it (and
    the LOAD it marks with it) marks it; a mark not followed at once by
    what it announces raises ValueError."""
    out, meta, sites_of, has_sites, trust_sites = [], extension_placeholder(), [], False, False
    offset, chunk = 0, -1
    while offset < len(data):
        magic, ctype, _version, length = struct.unpack_from("<IHHQ", data, offset)
        if magic != MAGIC:
            raise ValueError("bad magic at offset %d" % offset)
        content = data[offset + 16:offset + 16 + length]
        if ctype == 0:
            root = Table(content, struct.unpack_from("<I", content, 0)[0])
            sites_of = [s.u32(0) for s in root.tables(3)]
            meta = extension(content)
            has_sites = meta["access_sites"] is not None
            # More sites than 16 bits name: the ids wrapped, none is kept.
            trust_sites = has_sites and len(meta["access_sites"]) <= 0xFFFF
        elif ctype == 1:
            chunk += 1
            ring_size = len(content) - PADDING
            head = struct.unpack_from("<Q", content, len(content) - 8)[0]
            i = 0
            pending = []  # tags an atomic mark still announces, and its key
            while i < min(head, ring_size):
                tag = content[i]
                if pending:
                    word = struct.unpack_from("<Q", content, i)[0]
                    if tag != pending[0][0] or word >> 24 != pending[0][1]:
                        raise ValueError("atomic mark not followed by its record at "
                                         "ring offset %d" % i)
                if tag == 0:
                    w = struct.unpack_from("<8I", content, i)
                    out.append({"kind": "WORKGROUP", "chunk": chunk, "offset": i,
                                "site": w[0] >> 8, "function": sites_of[w[0] >> 8],
                                "id": tuple(w[1:4])})
                    i += 32
                    continue
                word, second = struct.unpack_from("<QQ", content, i)
                payload, key = (word >> 8) & 0xFFFF, word >> 24
                if tag == 1:
                    out.append({"kind": "PRINT", "chunk": chunk, "key": key,
                                "text": content[i + 8:i + 8 + payload]})
                    i += align16(8 + payload)
                elif tag == 2:
                    out.append({"kind": "VALUE", "chunk": chunk, "key": key,
                                "type": payload & 0xFF, "ordinal": payload >> 8,
                                "bits": second})
                    if payload & 0xFF == ATOMIC:
                        tags = [t for bit, t in ((1, 4), (2, 5)) if second & bit]
                        if second not in ATOMIC_OPS or payload >> 8 != len(tags):
                            raise ValueError("malformed atomic mark at ring offset %d" % i)
                        pending = [(t, key) for t in tags]
                    i += 16
                elif tag in (4, 5):
                    out.append({"kind": "LOAD" if tag == 4 else "STORE", "chunk": chunk,
                                "key": key, "length": payload, "word": second,
                                "address": second & ((1 << 48) - 1) if has_sites else second,
                                "site": second >> 48 if trust_sites else 0,
                                "atomic": bool(pending)})
                    pending = pending[1:]
                    i += 16
                else:
                    raise ValueError("unknown record tag %d at ring offset %d" % (tag, i))
        offset += 16 + align16(length)
    return out, meta


def extension_placeholder():
    return {"params": [], "access_sites": None, "untraced": [], "names": []}


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        sys.stdout.write(dump(f.read()))
