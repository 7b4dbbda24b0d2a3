"""wgtrace's metadata extension in the module: access sites and their source
lines, untraced accesses, site locations, on a trace written by
make_extension_trace.cc (whose content these tests know)."""

import json
import os
import re
import subprocess

import numpy as np
import pytest

import wgtrace
from conftest import view

MAKE = os.environ["WGTRACE_TEST_MAKE_EXTENSION"]


@pytest.fixture(scope="module")
def trace_path(work):
    path = os.path.join(work, "extension.bin")
    subprocess.run([MAKE, path], check=True)
    return path


def test_access_sites_and_untraced(trace_path):
    t = wgtrace.open(trace_path)
    sites = t.access_sites
    assert list(sites["access_site"]) == [1, 2, 3]
    assert list(sites["source_file"]) == ["scale.cc"] * 3
    assert list(sites["line"]) == [12, 12, 13] and list(sites["column"]) == [14, 5, 5]
    assert list(sites["kind"]) == ["Load", "Store", "Update"]
    assert list(sites["text"]) == ["in[i]", "out[i]", "out[0] += 1"]
    assert list(sites["scope"]) == ["scale"] * 3
    untraced = t.untraced
    assert len(untraced) == 1
    assert untraced.iloc[0]["text"] == "std::memcpy(out, in, n)"
    assert untraced.iloc[0]["line"] == 15 and "library call" in untraced.iloc[0]["reason"]
    assert t.sites["location"][0] == "scale.cc:30"


def test_accesses_carry_their_site(trace_path):
    t = wgtrace.open(trace_path)
    a = t.accesses()
    per_workgroup = [1, 2] * 4 + [3, 3, 0, 9]
    assert a["access_site"].tolist() == per_workgroup * 2
    # The address has no site bits: the word IREE's tool prints is both.
    status, out, err = view("dump", "--iree-compat", trace_path)
    assert status == 0, err
    words = [int(w, 16) for w in re.findall(r"\| (?:LOAD |STORE) ([0-9A-F]{16}) ", out)]
    assert words == [int(addr) | (int(site) << 48)
                     for addr, site in zip(a["address"], a["access_site"])]
    frame = t.accesses(as_frame=True)
    source = frame["source"]
    assert source[:10].tolist() == ["scale.cc:12"] * 8 + ["scale.cc:13"] * 2
    # No site, and a site the metadata does not list.
    assert source[10:12].isna().all()
    assert frame.groupby("source").size().to_dict() == {"scale.cc:12": 16, "scale.cc:13": 4}
    # Values of the runtime's own types (buffer bases) are not the
    # program's values.
    assert t.values.empty and (t.workgroups["values"] == 0).all()


def test_buffers(trace_path):
    """Every access in the kernel parameter the reader resolves it to:
    loads of "in", stores (and the update) of "out"."""
    t = wgtrace.open(trace_path)
    buffers = t.buffers
    assert list(buffers["name"]) == ["in", "out"] and list(buffers["label"]) == ["in", "out"]
    assert list(buffers["type"]) == ["const float *", "float *"]
    assert list(buffers["kernel"]) == ["scale", "scale"]
    assert buffers["extent"].isna().all()
    assert buffers["base"][1] - buffers["base"][0] == 0x1000
    a = t.accesses()
    per_workgroup = [0, 1] * 4 + [1, 1, 0, 0]
    assert a["buffer"].tolist() == per_workgroup * 2
    frame = t.accesses(as_frame=True)
    assert frame["buffer"].tolist() == ["in", "out"] * 4 + ["out", "out", "in", "in"] * 1 + \
        ["in", "out"] * 4 + ["out", "out", "in", "in"]
    # The CLI's summary by buffer counts the same.
    by_buffer = t.summary(by="buffer").set_index("buffer")
    counts = frame.groupby(["buffer", "kind"]).size()
    for name in ("in", "out"):
        assert by_buffer.loc[name, "loads"] == counts.get((name, "load"), 0)
        assert by_buffer.loc[name, "stores"] == counts.get((name, "store"), 0)


def test_summary_of_extension_trace_is_the_cli_one(trace_path):
    t = wgtrace.open(trace_path)
    for by in ("workgroup", "line", "buffer"):
        status, out, err = view("summary", trace_path, "--json", "--by", by)
        # 3: the trace's source has untraced accesses.
        assert status == 3, err
        assert t._analysis("summary", line_size=64, by=by)[0] == json.loads(out)
    assert np.array_equal(t.summary()["loads"].to_numpy(), t.workgroups["loads"].to_numpy())
    lines = t.summary(by="line").set_index("source")
    assert lines.loc["scale.cc:12", "text"] == ["in[i]", "out[i]"]
    assert lines.loc["scale.cc:12", "loads"] == 8 and lines.loc["scale.cc:13", "stores"] == 2


@pytest.fixture(scope="module")
def atomics_path(work):
    path = os.path.join(work, "atomics.bin")
    subprocess.run([MAKE, path, "atomics"], check=True)
    return path


def test_atomic_accesses_carry_their_mark(atomics_path):
    """Two workgroups: a plain load, an atomic update (a load and a store)
    and an atomic load each; atomic accesses synchronise, so no race."""
    t = wgtrace.open(atomics_path)
    assert list(t.access_sites["kind"]) == ["Load", "AtomicUpdate", "AtomicLoad"]
    a = t.accesses()
    assert a["atomic"].tolist() == [0, 1, 1, 1] * 2
    assert a["kind"].tolist() == [wgtrace.LOAD, wgtrace.LOAD, wgtrace.STORE, wgtrace.LOAD] * 2
    frame = t.accesses(as_frame=True)
    assert frame["atomic"].dtype == bool
    assert frame["atomic"].tolist() == [False, True, True, True] * 2
    assert frame.groupby("atomic").size().to_dict() == {False: 2, True: 6}
    summary = t.summary()
    assert summary["atomics"].tolist() == [3, 3]
    assert summary["loads"].tolist() == [3, 3] and summary["values"].tolist() == [0, 0]
    races = t.races()
    assert races.empty and races.attrs["races"] == 0
    streams = t.footprint(table="streams")
    # Per workgroup: the plain load; the update's load and store; the load.
    assert streams.groupby("atomic").size().to_dict() == {False: 2, True: 6}


def test_frame_columns_are_the_numpy_gathers(trace_path, work):
    """as_frame's categoricals (codes written in C++) name, row for row,
    what indexing the tables with numpy names; two copies of the trace make
    the source lookup take each row's file."""
    second = os.path.join(work, "extension-copy.bin")
    with open(trace_path, "rb") as src, open(second, "wb") as dst:
        dst.write(src.read())
    t = wgtrace.open([trace_path, second])
    a = t.accesses()
    frame = t.accesses(as_frame=True)
    wg = t.workgroups
    files = wg["file"].to_numpy()[a["workgroup"]]
    assert frame["file"].dtype == wg["file"].dtype
    assert (frame["file"].to_numpy() == files).all() and set(files) == {0, 1}
    assert frame["kernel"].tolist() == wg["kernel"].to_numpy()[a["workgroup"]].tolist()
    labels = t.buffers["label"].to_numpy(dtype=object)
    assert [None if x != x else x for x in frame["buffer"].tolist()] == \
        [labels[b] if b >= 0 else None for b in a["buffer"]]
    sites = t.access_sites
    place = {(f, s): "%s:%d" % (p, line) for f, s, p, line in zip(
        sites["file"], sites["access_site"], sites["source_file"], sites["line"])}
    expected = [place.get((f, s)) for f, s in zip(files, a["access_site"])]
    got = [None if x != x else x for x in frame["source"].tolist()]
    assert got == expected
    assert frame["kind"].tolist() == ["store" if k else "load" for k in a["kind"]]


def test_frame_codes_refuse_other_arrays(trace_path):
    from wgtrace import _wgtrace
    rows = wgtrace.open(trace_path).accesses()
    table = np.zeros(4, dtype=np.int8)
    with pytest.raises(ValueError):
        _wgtrace.frame_codes(np.zeros(3, dtype=np.int64), "workgroup", table)
    with pytest.raises(ValueError):
        _wgtrace.frame_codes(rows[::2], "workgroup", table)
    with pytest.raises(ValueError):
        _wgtrace.frame_codes(rows, "elsewhere", table)
    # A key beyond the table has no category.
    assert (_wgtrace.frame_codes(rows, "workgroup", table[:0]) == -1).all()


def test_categoricals_group_by_the_values_present(trace_path):
    """kind, buffer, source and kernel are categoricals; a table groups by
    the values it holds, without observed=True (pandas' default lists every
    category, and pandas 2.1 and later warn when it is not given)."""
    import warnings

    t = wgtrace.open(trace_path)
    frame = t.accesses(as_frame=True)
    loads = frame[frame["kind"] == "load"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(loads.groupby("kind").size().index) == ["load"]
        stores_of_out = frame[(frame["kind"] == "store") & (frame["buffer"] == "out")]
        pairs = stores_of_out.groupby(["buffer", "kind"]).size()
        assert pairs.to_dict() == {("out", "store"): len(stores_of_out)}
        # A column grouped by another, and a table's own columns.
        by_kind = loads["address"].groupby(loads["kind"]).count()
        assert by_kind.to_dict() == {"load": len(loads)}
        kernels = t.workgroups.groupby("kernel").size()
        assert (kernels > 0).all()
    # Every category is still there when asked for.
    assert list(loads.groupby("kind", observed=False).size().index) == ["load", "store"]
    # Integer columns stay integers through the tables and their slices.
    for name in ("address", "length", "workgroup", "wg_x"):
        assert loads[name].dtype.kind in "iu", name
    assert t.workgroups["wg_x"].dtype.kind in "iu"


@pytest.fixture(scope="module")
def critical_path(work):
    path = os.path.join(work, "critical.bin")
    subprocess.run([MAKE, path, "critical"], check=True)
    return path


def test_critical_accesses_carry_their_mark(critical_path):
    """Two workgroups: a plain load, a critical update (a Critical mark, a
    load and a store), a helper's store while the workgroup is inside an
    entered section, and a load after it left: marked as races decides."""
    t = wgtrace.open(critical_path)
    a = t.accesses()
    assert a["critical"].tolist() == [0, 1, 1, 1, 0] * 2
    assert a["atomic"].tolist() == [0] * 10
    frame = t.accesses(as_frame=True)
    assert frame["critical"].dtype == bool
    assert frame.groupby("critical").size().to_dict() == {False: 4, True: 6}
    # The helper's store inside the section against the other workgroup's
    # load outside any: the only racing pair races reports.
    status, out, err = view("races", critical_path, "--json")
    races = json.loads(out)
    assert status == 1, err
    assert races["races"] == 1
