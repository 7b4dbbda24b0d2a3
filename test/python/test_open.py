"""wgtrace.open() and the tables of a Trace, against wgtrace-view's own
output on the same files."""

import csv
import io
import json
import os
import shutil
import subprocess
import time
import warnings

import numpy as np
import pandas as pd
import pytest

import wgtrace
from conftest import SAMPLES, clean_env, view, view_json


def export_rows(path):
    """wgtrace-view export --format csv, as dicts."""
    status, out, err = view("export", path, "--format", "csv")
    # 3: the trace misses part of the run, which the notes say.
    assert status == 0 or (status == 3 and "lost" in err), err
    return list(csv.DictReader(io.StringIO(out)))


def cli_accesses(path):
    rows = [r for r in export_rows(path) if r["kind"] in ("load", "store")]
    return rows


def test_transpose_tables(traces):
    t = wgtrace.open(traces["transpose"])
    assert t.paths == [traces["transpose"]]
    assert t.errors == []
    assert list(t.kernels["name"]) == ["transpose"]
    assert "out[x * n + y] = in[y * n + x]" in t.kernels["source"][0]
    sites = t.sites
    # The dispatch call, then the direct-call site of the kernel.
    assert list(sites["kernel"]) == ["transpose", "transpose"]
    assert sites["location"][0].endswith("transpose.cc:34")
    assert list(sites["direct"]) == [False, True]
    assert list(sites["workgroups"]) == [64, 0]
    assert list(sites["workgroups_lost"]) == [0, 0]
    assert list(sites["launches"]) == [1, 0]
    wg = t.workgroups
    assert len(wg) == 64 and wg.index.name == "workgroup"
    assert (wg["kernel"] == "transpose").all()
    assert set(zip(wg["wg_x"], wg["wg_y"], wg["wg_z"])) == {
        (x, y, 0) for x in range(8) for y in range(8)}
    assert (wg[["count_x", "count_y", "count_z"]] == [8, 8, 1]).all().all()
    # A 16 x 16 tile of floats: 256 loads and 256 stores of 4 bytes.
    assert (wg["loads"] == 256).all() and (wg["stores"] == 256).all()
    assert (wg["load_bytes"] == 1024).all() and (wg["store_bytes"] == 1024).all()
    assert (wg["launch"] == 0).all() and (wg["pieces"] == 1).all()
    assert not wg["beginning_lost"].any()
    assert wg["start_ns"].isna().all()
    assert t.values.empty and t.prints.empty and t.timing.empty
    assert t.loss.empty and t.lost_bytes == 0
    assert t.access_count == 64 * 512


def test_workgroups_the_filter_left_out(traces):
    """Every workgroup that ran is a row; those WGTRACE_FILTER left out
    are not selected, and the analyses leave them out as the CLI does."""
    path = traces["transpose_sampled"]
    t = wgtrace.open(path)
    wg = t.workgroups
    assert len(wg) == 64
    linear = wg["wg_x"] + 8 * wg["wg_y"]
    assert list(wg["selected"]) == list(linear % 4 == 0)
    assert (wg[wg["selected"]]["loads"] == 256).all()
    assert (wg[~wg["selected"]]["loads"] == 0).all()
    assert t.values.empty
    summary = t.summary()
    assert len(summary) == 16
    expected = view_json("summary", path)
    assert expected["selection"] == {
        "workgroups_ran": 64, "workgroups_selected": 16,
        "not_selected_by": [{"filter": "sample=4", "workgroups": 48}]}
    # A trace without filter: all selected.
    assert wgtrace.open(traces["transpose"]).workgroups["selected"].all()


def test_accesses_are_the_cli_records(traces):
    """Every load and store, in file order, exactly as wgtrace-view
    exports it."""
    for name in ("transpose", "histogram_racy", "matmul_task", "simd", "matmul_stream",
                 "matmul_wrapped"):
        path = traces[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", wgtrace.TraceWarning)  # the wrapped ring's loss
            t = wgtrace.open(path)
        a = t.accesses()
        assert a.dtype == wgtrace.ACCESS_DTYPE
        rows = cli_accesses(path)
        assert len(a) == len(rows) == t.access_count
        assert a["address"].tolist() == [int(r["address"]) for r in rows]
        assert a["length"].tolist() == [int(r["length"]) for r in rows]
        assert a["kind"].tolist() == [wgtrace.STORE if r["kind"] == "store" else wgtrace.LOAD
                                      for r in rows]
        for field, column in (("wg_x", "wg_x"), ("wg_y", "wg_y"), ("wg_z", "wg_z"),
                              ("processor", "pid"), ("workgroup", "workgroup")):
            assert a[field].tolist() == [int(r[column]) for r in rows], (name, field)
        frame = t.accesses(as_frame=True)
        assert frame["site"].tolist() == [int(r["site"]) for r in rows]
        assert frame["kernel"].tolist() == [r["function"] for r in rows]
        # Each row names its workgroup's entry.
        wg = t.workgroups
        assert (wg["wg_x"].to_numpy()[a["workgroup"]] == a["wg_x"]).all()
        assert (wg["processor"].to_numpy()[a["workgroup"]] == a["processor"]).all()
        assert (wg["launch"].to_numpy()[a["workgroup"]] == a["launch"]).all()


def test_each_workgroup_alone_is_its_rows(traces):
    """A selection reads only its workgroups' runs of records (the index
    open() builds): each workgroup alone gives exactly its rows of the
    whole array, continued (stream mode) and wrapped invocations too."""
    for name in ("matmul_task", "matmul_stream", "matmul_wrapped", "histogram_racy"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", wgtrace.TraceWarning)
            t = wgtrace.open(traces[name])
        everything = t.accesses()
        count = len(t.workgroups)
        for w in range(count):
            mask = np.zeros(count, np.uint8)
            mask[w] = 1
            np.testing.assert_array_equal(t._native.accesses(mask),
                                          everything[everything["workgroup"] == w])


def test_access_filters(traces):
    t = wgtrace.open(traces["matmul_task"])
    everything = t.accesses()
    wg = t.workgroups

    def same(selected, mask):
        np.testing.assert_array_equal(selected, everything[mask])
        assert len(selected) > 0

    same(t.accesses(kernel="matmul"), np.ones(len(everything), bool))
    assert len(t.accesses(kernel="no_such_kernel")) == 0
    same(t.accesses(dispatch=0), wg["site"].to_numpy()[everything["workgroup"]] == 0)
    same(t.accesses(kernel="mat*"), np.ones(len(everything), bool))
    same(t.accesses(workgroup=(1, 2, 0)),
         (everything["wg_x"] == 1) & (everything["wg_y"] == 2) & (everything["wg_z"] == 0))
    same(t.accesses(workgroup="1,2,0"),
         (everything["wg_x"] == 1) & (everything["wg_y"] == 2))
    same(t.accesses(workgroup=[(0, 0, 0), (3, 3, 0)]),
         ((everything["wg_x"] == 0) & (everything["wg_y"] == 0))
         | ((everything["wg_x"] == 3) & (everything["wg_y"] == 3)))
    processor = int(wg["processor"].iloc[-1])
    same(t.accesses(processor=processor), everything["processor"] == processor)
    same(t.accesses(launch=0, processor=[0, 1]), everything["launch"] == 0)
    with pytest.raises(ValueError):
        t.accesses(workgroup="1,2")
    frame = t.accesses(workgroup=(0, 0, 0), as_frame=True)
    assert list(frame["kind"].cat.categories) == ["load", "store"]
    assert (frame["kernel"] == "matmul").all()
    assert len(frame) == wg.query("wg_x == 0 and wg_y == 0")[["loads", "stores"]].sum().sum()


def test_values_and_prints(traces):
    t = wgtrace.open(traces["values"])
    values = t.values
    assert len(values) == 4 * 7
    stores = t.accesses(as_frame=True)
    for i in range(4):
        mine = values[values["wg_x"] == i].set_index("ordinal")
        assert mine.loc[0, "type"] == "i8" and mine.loc[0, "value"] == -1 - i
        assert mine.loc[1, "type"] == "u8" and mine.loc[1, "value"] == 250 + i
        assert mine.loc[2, "type"] == "i64" and mine.loc[2, "value"] == -5000000000 * (i + 1)
        assert mine.loc[3, "type"] == "u64" and mine.loc[3, "value"] == 0xFFFFFFFFFFFFFFF0 + i
        assert mine.loc[4, "type"] == "f32" and mine.loc[4, "value"] == 1.5 * i
        assert mine.loc[5, "type"] == "f64" and mine.loc[5, "value"] == 0.1 * i
        assert mine.loc[6, "type"] == "ptr"
        # The pointer value is the address of the workgroup's one store.
        store = stores[(stores["wg_x"] == i) & (stores["kind"] == "store")]
        assert list(store["address"]) == [mine.loc[6, "value"]]
        assert isinstance(mine.loc[3, "value"], int) and isinstance(mine.loc[4, "value"], float)
    # The same numbers as the CLI's export (which also lists wgtrace's own
    # VALUE records, the kernel's buffer parameters: not program values).
    wgtrace_types = ("buffer_base", "buffer_extent", "continuation")
    exported = [r for r in export_rows(traces["values"])
                if r["kind"] == "value" and r["value_type"] not in wgtrace_types]
    assert sum(r["value_type"] == "buffer_base" for r in export_rows(traces["values"])) == 4 * 2
    assert [r["value_type"] for r in exported] == list(values["type"])
    assert [float(r["value"]) for r in exported] == [float(v) for v in values["value"]]
    prints = t.prints
    assert list(prints["text"]) == ["workgroup %d of 4: %d" % (i, 2 * (i + 1)) for i in range(4)]
    assert list(prints["wg_x"]) == [0, 1, 2, 3]
    assert list(t.workgroups["values"]) == [7] * 4 and list(t.workgroups["prints"]) == [1] * 4


def test_stream_mode_joins_continuations(traces):
    """Stream mode splits each workgroup over many chunks: one workgroup is
    one row, and the accesses are those of the ring-mode run."""
    stream = wgtrace.open(traces["matmul_stream"])
    ring = wgtrace.open(traces["matmul"])
    assert len(stream.rings) > 8
    ws, wr = stream.workgroups, ring.workgroups
    assert len(ws) == len(wr) == 16
    assert (ws["pieces"] > 1).any()
    assert ws["pieces"].sum() == stream.rings["workgroup_records"].sum()
    for column in ("wg_x", "wg_y", "loads", "stores", "load_bytes", "store_bytes"):
        assert list(ws[column]) == list(wr[column]), column
    a_s, a_r = stream.accesses(), ring.accesses()
    assert len(a_s) == len(a_r)
    # Same program, same allocation offsets from the heap start: compare
    # addresses relative to the lowest.
    assert (a_s["address"] - a_s["address"].min() == a_r["address"] - a_r["address"].min()).all()
    assert (a_s["workgroup"] == a_r["workgroup"]).all()
    assert stream.loss.empty


def test_wrapped_ring_loss_is_reported(traces):
    """The loss the viewer reports (from the ring trailer: bytes, records and
    workgroups overwritten), in a warning and in Trace.loss."""
    path = traces["matmul_wrapped"]
    expected = view_json("summary", path)["loss"]
    assert expected["bytes_lost"] > 0
    with pytest.warns(wgtrace.TraceWarning, match="lost: 1 ring wrapped and lost %d of"
                      % expected["bytes_lost"]):
        t = wgtrace.open(path)
    assert len(t.loss) == 1
    ring = expected["rings"][0]
    loss = t.loss.iloc[0]
    assert bool(loss["from_trailer"]) and loss["chunk"] == ring["chunk"]
    assert (loss["bytes_lost"], loss["bytes_recorded"]) == (ring["bytes_lost"],
                                                          ring["bytes_recorded"])
    assert (loss["records_lost"], loss["workgroups_lost"]) == (ring["records_lost"],
                                                             ring["workgroups_lost"])
    assert t.lost_bytes == expected["bytes_lost"] == t.summary().attrs["lost_bytes"]
    sites = t.sites
    assert sites["workgroups_lost"][0] == ring["workgroups_lost"]
    # What survived is what the CLI shows: 16 workgroups in all.
    assert 0 < len(t.workgroups) < 16
    assert len(t.workgroups) + ring["workgroups_lost"] == 16
    assert len(t.accesses()) == len(cli_accesses(path))


def test_runs_say_how_each_run_ended(traces, work):
    """Trace.runs is the "run" member of the CLI's JSON reports: how the run
    ended (here a finished one and one that crashed), per file."""
    finished = traces["transpose"]
    crashed = os.path.join(work, "crashed.bin")
    result = subprocess.run([os.path.join(SAMPLES, "out_of_bounds"),
                             "--instrument_file=" + crashed],
                            env=clean_env(), capture_output=True, text=True)
    assert result.returncode == -11, result.stderr
    t = wgtrace.open([finished, crashed])
    assert t.runs == [view_json("summary", finished)["run"],
                      view_json("summary", crashed)["run"]]
    first, second = (run["records"][0] for run in t.runs)
    assert (first["end"], first["status"]) == ("exit", 0)
    assert (second["end"], second["signal_name"]) == ("crash", "SIGSEGV")
    assert not any(run["cut_short"] for run in t.runs)


def test_timing(traces):
    t = wgtrace.open(traces["transpose_timed"])
    timing = t.timing
    wg = t.workgroups
    assert len(timing) == len(wg) == 64
    assert (timing["end_ns"] >= timing["start_ns"]).all()
    assert wg["start_ns"].notna().all()
    joined = wg.loc[timing["workgroup"]]
    assert (joined["start_ns"].to_numpy() == timing["start_ns"].to_numpy()).all()
    assert (joined["processor"].to_numpy() == timing["processor"].to_numpy()).all()
    assert (wg["duration_ns"] == wg["end_ns"] - wg["start_ns"]).all()
    # The CLI's Chrome export has the same durations (in microseconds).
    status, out, err = view("export", traces["transpose_timed"], "--format", "chrome")
    assert status == 0, err
    events = [e for e in json.loads(out)["traceEvents"] if e.get("ph") == "X"]
    assert sorted(round(e["dur"], 3) for e in events) == sorted(
        round(d / 1000, 3) for d in wg["duration_ns"].astype(int))


def test_several_files(traces):
    t = wgtrace.open([traces["transpose"], traces["matmul"]])
    wg = t.workgroups
    assert list(wg["file"].unique()) == [0, 1]
    assert list(wg.groupby("file")["kernel"].first()) == ["transpose", "matmul"]
    a = t.accesses()
    assert len(a) == (wgtrace.open(traces["transpose"]).access_count
                      + wgtrace.open(traces["matmul"]).access_count)
    assert (wg["file"].to_numpy()[a["workgroup"]][:10] == 0).all()
    only_second = t.accesses(file=1)
    assert (wg["kernel"].to_numpy()[only_second["workgroup"]] == "matmul").all()
    frame = t.accesses(file=1, as_frame=True)
    assert (frame["file"] == 1).all()
    summary = t.summary(by="kernel")
    assert list(summary["file"]) == [0, 1]


def test_unreadable_files_raise_oserror(work):
    with pytest.raises(FileNotFoundError):
        wgtrace.open(os.path.join(work, "no-such-trace.bin"))
    with pytest.raises(IsADirectoryError):
        wgtrace.open(work)
    with pytest.raises(ValueError):
        wgtrace.open([])


def test_empty_file_warns(work):
    path = os.path.join(work, "empty.bin")
    open(path, "wb").close()
    with pytest.warns(wgtrace.TraceWarning, match="the file is empty"):
        t = wgtrace.open(path)
    assert len(t.workgroups) == 0 and len(t.accesses()) == 0


def test_damaged_file(traces, work):
    """A truncated file: TraceError with the viewer's message and location,
    and what was decoded before the damage."""
    source = traces["matmul_stream"]
    path = os.path.join(work, "truncated.bin")
    data = open(source, "rb").read()
    full = wgtrace.open(source)
    # Cut the third ring chunk in the middle of its records.
    third = full.rings.iloc[2]
    cut = int(third["file_offset"]) + 40000
    with open(path, "wb") as f:
        f.write(data[:cut])
    status, _, err = view("summary", path)
    assert status == 2
    with pytest.raises(wgtrace.TraceError) as caught:
        wgtrace.open(path)
    e = caught.value
    assert "wgtrace-view: error: " + str(e) == err.strip()
    assert e.path == path and e.chunk == int(third["chunk"]) and e.chunk_type == "ring"
    assert e.offset == int(third["file_offset"]) - 16 + 8  # its content_length field
    assert e.problem.startswith("truncated: content_length")
    assert e.problem.endswith(" bytes missing)")
    # The partial trace: the first two rings are whole, the third is read
    # up to the cut.
    assert e.trace.errors[0]["offset"] == e.offset
    assert len(e.trace.rings) == 3
    with pytest.warns(wgtrace.TraceWarning, match="truncated"):
        partial = wgtrace.open(path, partial=True)
    first_two = full.rings.iloc[:2]["accesses"].sum()
    first_three = full.rings.iloc[:3]["accesses"].sum()
    assert first_two < partial.access_count < first_three
    a = partial.accesses()
    assert len(a) == partial.access_count > 0
    np.testing.assert_array_equal(a, full.accesses()[:len(a)])
    # The analyses cover what the CLI prints before its error line.
    status, out, _ = view("summary", path, "--json")
    assert status == 2
    assert len(partial.summary()) == sum(len(s["workgroups"]) for s in json.loads(out)["sites"])


def test_record_damage_keeps_records_before_it(traces, work):
    """An unknown tag in the middle of a ring: the checksum of its block
    (docs/FORMAT.md, "The ring trailer") says so, and the records of the
    blocks before it are kept, as the CLI keeps them."""
    source = traces["transpose"]
    full = wgtrace.open(source)
    ring = full.rings.iloc[0]
    data = bytearray(open(source, "rb").read())
    # Record 1000 of the ring (records are 16 bytes after the 32-byte
    # workgroup record): its tag byte becomes 3 (reserved).
    at = 32 + 16 * 1000
    offset = int(ring["file_offset"]) + at
    data[offset] = 3
    path = os.path.join(work, "bad-tag.bin")
    open(path, "wb").write(bytes(data))
    block = max(4096, int(ring["size"]) // 256)
    with pytest.raises(wgtrace.TraceError, match="checksum mismatch in block %d " % (at // block)) as caught:
        wgtrace.open(path)
    assert caught.value.offset == int(ring["file_offset"]) + at // block * block
    partial = caught.value.trace
    cli = [r for r in export_rows_allowing_damage(path) if r["kind"] in ("load", "store")]
    a = partial.accesses()
    assert 0 < len(a) == len(cli) < full.access_count
    assert a["address"].tolist() == [int(r["address"]) for r in cli]


def export_rows_allowing_damage(path):
    status, out, err = view("export", path, "--format", "csv")
    assert status == 2, err
    return list(csv.DictReader(io.StringIO(out)))


def test_changed_file_is_not_misread(traces, work):
    path = os.path.join(work, "changing.bin")
    shutil.copy(traces["transpose"], path)
    t = wgtrace.open(path)
    time.sleep(0.01)
    shutil.copy(traces["simple_mul"], path + ".new")
    os.replace(path + ".new", path)
    with pytest.raises(wgtrace.TraceError, match="changed since it was opened"):
        t.accesses()
    with pytest.raises(wgtrace.TraceError, match="changed since it was opened"):
        t.summary()
    # What was read at open stays.
    assert len(t.workgroups) == 64


def test_repr_and_module_functions(traces):
    t = wgtrace.open(traces["transpose"])
    assert "64 workgroups" in repr(t)
    pd.testing.assert_frame_equal(wgtrace.summary(traces["transpose"]), t.summary())
    assert wgtrace.races(t).attrs["races"] == 0


def test_version_is_the_tools():
    # wgtrace.__version__ is the project's version, as --version prints it.
    status, out, _ = view("--version")
    assert status == 0
    assert wgtrace.__version__ and wgtrace.__version__ in out
