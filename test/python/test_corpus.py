"""Damaged files never crash the interpreter.

The viewer's seed corpus (test/viewer/corpus, written by make_corpus.cc:
every record and value type, wrapped rings, spilling records, several
chunks, stream mode, timing) and, from each of its files, damaged copies:
cut short, and with bytes inverted one at a time (DamagedCopies says
where). Every copy must open or raise wgtrace.TraceError, and
everything that reads an opened trace must work on what it holds. A crash
takes this test's process down with it: ctest reports that as a failure.
For a sample of the copies the error is compared with wgtrace-view's.

The copies are made in place (a cut rewrites the file, an inverted byte
is one write and one restore), since rewriting a whole file costs
milliseconds on some file systems."""

import os
import warnings

import pytest

import wgtrace
from conftest import CORPUS, view

FILES = sorted(f for f in os.listdir(CORPUS) if f.endswith(".bin"))


class DamagedCopies:
    """Writes, in turn, the damaged copies of ``data`` to ``path``: cut
    short, then with bytes inverted one at a time. Densely where the
    structure is (the file's first KiB, where its metadata is, and around
    the start and the head word of each ring chunk, ``rings``, as the module
    read the intact file): cut at every 16-byte boundary there and every
    byte inverted; elsewhere cut every 256 bytes and every third byte
    inverted. In place, byte by byte, since
    rewriting whole files costs milliseconds each on some file systems."""

    def __init__(self, data, path, rings):
        self.data = data
        self.path = path
        self.dense = set(range(min(1024, len(data))))
        for start, size in zip(rings["file_offset"], rings["size"]):
            head = int(start + size + 4096 - 8)
            for center in (int(start), head):
                self.dense.update(range(max(0, center - 64), min(len(data), center + 64)))

    def __iter__(self):
        data = self.data
        cuts = {length for length in range(0, len(data), 16)
                if length in self.dense or length % 256 == 0}
        for length in sorted(cuts | {1, 7, 15, 17, 31, len(data) - 1}):
            with open(self.path, "wb") as f:
                f.write(data[:length])
            yield "cut at %d" % length, length
        with open(self.path, "wb") as f:
            f.write(data)
        with open(self.path, "r+b", buffering=0) as f:
            for offset in range(len(data)):
                if offset not in self.dense and offset % 3:
                    continue
                f.seek(offset)
                f.write(bytes([data[offset] ^ 0xFF]))
                yield "byte %d inverted" % offset, len(data)
                f.seek(offset)
                f.write(data[offset:offset + 1])


def read_everything(native):
    """Every table and pass of the extension module over an opened trace."""
    native.sources()
    native.functions()
    native.sites()
    workgroups = native.workgroups()
    native.values()
    native.prints()
    native.timing()
    native.rings()
    native.loss()
    native.access_sites()
    native.untraced()
    rows = native.accesses(None)
    assert len(rows) == int(workgroups["loads"].sum() + workgroups["stores"].sum())


def test_corpus_is_complete():
    assert len(FILES) >= 8


@pytest.mark.parametrize("name", FILES)
def test_damaged_copies(name, work):
    data = open(os.path.join(CORPUS, name), "rb").read()
    path = os.path.join(work, "damaged-" + name)
    rings = wgtrace._wgtrace.Trace.open([os.path.join(CORPUS, name)]).rings()
    opened = failed = 0
    for index, (what, size) in enumerate(DamagedCopies(data, path, rings)):
        # The extension module directly (the bulk), then the Python API and
        # the analyses for one copy in 64, and the CLI for one in 256.
        native = wgtrace._wgtrace.Trace.open([path])
        read_everything(native)
        error = native.sources()["error"][0]
        if index % 64:
            opened += error is None
            failed += error is not None
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", wgtrace.TraceWarning)
            try:
                wgtrace.open(path)
                assert error is None, what
                opened += 1
                if index % 256 == 0:
                    status, _, err = view("dump", path)
                    assert status == 0, (what, err)
            except wgtrace.TraceError as e:
                assert error is not None, what
                failed += 1
                if index % 256 == 0:
                    status, _, err = view("dump", path)
                    assert status == 2, what
                    assert err.strip().endswith("wgtrace-view: error: " + str(e)), what
                assert e.offset is not None and e.offset <= size, what
                t = e.trace
            else:
                t = wgtrace.open(path)
            for table in (t.kernels, t.sites, t.workgroups, t.values, t.prints, t.timing,
                          t.rings, t.loss, t.access_sites, t.untraced):
                assert table is not None
            assert len(t.accesses(as_frame=True)) == t.access_count
            for analysis in (t.summary, t.footprint, t.races, t.cache, t.reuse_distance):
                try:
                    analysis()
                except wgtrace.TraceError as nothing:
                    # Nothing to analyse, as the CLI says (exit status 2).
                    assert not t.access_count or not len(t.workgroups), nothing
    assert opened + failed == index + 1
    assert failed > 0
