"""The analyses give what `wgtrace-view <analysis> --json` gives, on the
samples' traces, and lay it out as documented."""

import os

import pytest

import pandas as pd
import wgtrace
from conftest import view, view_json

SAMPLES = ["transpose", "matmul", "stencil", "simd", "histogram_racy", "matmul_task",
           "matmul_stream", "values"]


def cli(path, analysis, *options):
    return view_json(analysis, path, *options)


def _cache(l1=None, l2=None, ll=None, cold=False):
    return wgtrace.analyses._cache_options(l1, l2, ll, cold, {})


@pytest.mark.parametrize("name", SAMPLES)
def test_same_json_as_cli(traces, name):
    """The tool behind each function is the CLI's, with the same options."""
    path = traces[name]
    t = wgtrace.open(path)
    cases = [
        ("summary", {}, []),
        ("summary", {"line_size": 128}, ["--line-size", "128"]),
        ("summary", {"by": "line"}, ["--by", "line"]),
        ("summary", {"by": "buffer"}, ["--by", "buffer"]),
        ("footprint", {}, []),
        ("races", {}, []),
        ("races", {"limit": 3}, ["--limit", "3"]),
        ("cache", _cache(), []),
        ("cache", _cache(l2="none", cold=True), ["--l2", "none", "--cold"]),
        ("cache", _cache(l1=(4096, 2, 32), l2="64k,4,64", ll="1m,16,64"),
         ["--l1", "4k,2,32", "--l2", "64k,4,64", "--ll", "1m,16,64"]),
        ("cache", dict(_cache(), by="site"), ["--by", "site"]),
        ("annotate", _cache(), []),
        ("annotate", _cache(l2="none", cold=True), ["--l2", "none", "--cold"]),
        ("annotate", _cache(l1=(4096, 2, 32), l2="64k,4,64", ll="1m,16,64"),
         ["--l1", "4k,2,32", "--l2", "64k,4,64", "--ll", "1m,16,64"]),
    ]
    for analysis, options, flags in cases:
        assert t._analysis(analysis, **options) == [cli(path, analysis, *flags)], (analysis, flags)


def test_filters_are_the_cli_filters(traces):
    path = traces["matmul_task"]
    t = wgtrace.open(path)
    for filters, flags in (({"kernel": "mat*"}, ["--kernel", "mat*"]),
                           ({"dispatch": 0}, ["--dispatch", "0"]),
                           ({"workgroup": (1, 2, 0)}, ["--workgroup", "1,2,0"]),
                           ({"workgroup": "3,3,0", "kernel": "matmul"},
                            ["--workgroup", "3,3,0", "--kernel", "matmul"])):
        for analysis in ("summary", "footprint", "races", "cache"):
            options = {} if analysis != "cache" else _cache()
            assert t._analysis(analysis, **filters, **options) == [
                cli(path, analysis, *flags)], (analysis, filters)
    assert len(t.summary(workgroup=(1, 2, 0))) == 1
    assert set(wgtrace.cache(t, kernel="matmul")["kernel"]) == {"matmul"}


def test_nothing_to_analyse_raises_as_the_cli_fails(traces, work):
    t = wgtrace.open(traces["transpose"])
    with pytest.raises(wgtrace.TraceError, match="no workgroup matches --kernel 'nothing\\*'"):
        t.summary(kernel="nothing*")
    status, _, err = view("summary", traces["transpose"], "--kernel", "nothing*")
    assert status == 2 and "no workgroup matches" in err
    with pytest.raises(ValueError, match="one workgroup"):
        t.races(workgroup=[(0, 0, 0), (1, 0, 0)])
    with pytest.raises(ValueError, match="kernel"):
        t.summary(kernel="[")
    empty = os.path.join(work, "empty-analysis.bin")
    open(empty, "wb").close()
    with pytest.warns(wgtrace.TraceWarning):
        e = wgtrace.open(empty)
    with pytest.raises(wgtrace.TraceError, match="the file is empty"):
        e.races()


@pytest.mark.parametrize("name", SAMPLES)
def test_summary_frames(traces, name):
    path = traces[name]
    t = wgtrace.open(path)
    expected = cli(path, "summary")
    by_workgroup = t.summary()
    rows = [(s["site"], s["function"], w) for s in expected["sites"] for w in s["workgroups"]]
    assert len(by_workgroup) == len(rows)
    for (_, row), (site, function, w) in zip(by_workgroup.iterrows(), rows):
        assert (row["site"], row["kernel"]) == (site, function)
        assert [row["wg_x"], row["wg_y"], row["wg_z"]] == w["id"]
        assert [row["count_x"], row["count_y"], row["count_z"]] == w["count"]
        assert row["processor"] == w["pid"]
        for key in ("loads", "stores", "load_bytes", "store_bytes", "lines", "values", "prints"):
            assert row[key] == w[key], key
    by_site = t.summary(by="site")
    assert list(by_site["workgroups"]) == [s["totals"]["workgroups"] for s in expected["sites"]]
    assert list(by_site["lines"]) == [s["totals"]["lines"] for s in expected["sites"]]
    by_kernel = t.summary(by="kernel")
    assert list(by_kernel["kernel"]) == list(expected["kernels"])
    assert list(by_kernel["loads"]) == [k["loads"] for k in expected["kernels"].values()]
    assert by_workgroup.attrs == {"line_size": 64, "lost_bytes": expected["lost_bytes"]}
    # Where every workgroup is one record (not stream mode), the summary's
    # counts are the workgroups table's.
    if name != "matmul_stream":
        wg = t.workgroups
        assert list(by_workgroup["loads"]) == list(wg["loads"])
        assert list(by_workgroup["store_bytes"]) == list(wg["store_bytes"])


def test_races_frame(traces):
    path = traces["histogram_racy"]
    t = wgtrace.open(path)
    expected = cli(path, "races")
    races = t.races()
    assert races.attrs == {"races": expected["races"], "groups": expected["groups"],
                           "launches": expected["launches"]}
    assert expected["races"] > 0
    assert len(races) == len(expected["listed"]) == expected["groups"]
    first, row = expected["listed"][0], races.iloc[0]
    assert row["kind"] == first["kind"] and row["kernel"] == first["function"]
    assert row["location"] == first["location"]
    assert (row["pairs"], row["write_write_pairs"], row["read_write_pairs"]) == (
        first["pairs"], first["write_write_pairs"], first["read_write_pairs"])
    assert row["ranges"] == first["ranges"]
    assert [row["grid_x"], row["grid_y"], row["grid_z"]] == first["grid"]
    assert [row["a_wg_x"], row["a_wg_y"], row["a_wg_z"]] == first["a"]["id"]
    assert row["a_processor"] == first["a"]["pid"]
    assert row["b_access_kind"] == first["b"]["access"]["kind"]
    assert row["b_access_address"] == first["b"]["access"]["address"]
    assert row["overlap_bytes"] == first["overlap_bytes"]
    # No race: an empty frame that still has the columns.
    none = wgtrace.open(traces["transpose"]).races()
    assert none.empty and "a_wg_x" in none.columns and none.attrs["races"] == 0


def test_footprint_frames(traces):
    path = traces["transpose"]
    t = wgtrace.open(path)
    expected = cli(path, "footprint")
    ranges = t.footprint()
    assert len(ranges) == sum(len(b["loads"]) + len(b["stores"])
                              for w in expected["workgroups"] for b in w["buffers"])
    w0 = expected["workgroups"][0]
    mine = ranges[(ranges["wg_x"] == w0["id"][0]) & (ranges["wg_y"] == w0["id"][1])]
    assert sorted(zip(mine.loc[mine["kind"] == "store", "address"],
                      mine.loc[mine["kind"] == "store", "size"])) == sorted(
        tuple(r) for b in w0["buffers"] for r in b["stores"])
    streams = t.footprint(table="streams")
    assert len(streams) == sum(len(w["streams"]) for w in expected["workgroups"])
    # transpose: loads walk rows (2d, step 4), stores walk columns.
    first = streams.iloc[0]
    stream = w0["streams"][0]
    assert (first["pattern"], first["stride"], first["row_length"], first["row_pitch"]) == (
        stream["pattern"], stream.get("stride"), stream.get("row_length"),
        stream.get("row_pitch"))
    buffers = t.footprint(table="buffers")
    assert list(buffers["address"]) == [b["address"] for b in expected["buffers"]]
    # Sizes stay whole numbers, <NA> where the kernel's parameter type does
    # not give one (a float column once).
    assert str(buffers["size"].dtype) == "Int64"
    assert [None if pd.isna(s) else s for s in buffers["size"]] == [
        b.get("size") for b in expected["buffers"]]
    assert ranges.attrs["buffer_gap"] == expected["buffer_gap"]
    single = wgtrace.open(traces["values"]).footprint(table="streams")
    assert single["stride"].isna().any()  # a single access has no stride


def test_cache_frames(traces):
    path = traces["matmul"]
    t = wgtrace.open(path)
    levels = ["--l1", "8k,2,64", "--l2", "64k,4,64", "--ll", "1m,8,64"]
    expected = cli(path, "cache", *levels)
    frame = t.cache(l1="8k,2,64", l2=(65536, 4, 64), ll="1m,8,64")
    for column in ("accesses", "reads", "writes", "D1mr", "D1mw", "L2mr", "L2mw", "LLmr",
                   "LLmw"):
        assert list(frame[column]) == [w[column] for w in expected["workgroups"]], column
        assert str(frame[column].dtype) == "int64", column
    # Misses pass down: a level misses at most what the one before it missed.
    assert (frame["L2mr"] <= frame["D1mr"]).all() and (frame["LLmr"] <= frame["L2mr"]).all()
    assert frame.attrs["totals"] == expected["totals"]
    assert [level["name"] for level in frame.attrs["levels"]] == ["D1", "L2", "LL"]
    assert frame.attrs["levels"] == expected["levels"]
    assert frame.attrs["note"] == ""
    by_line = t.cache(by="line", l2="none")
    assert "D1mr" in by_line.columns and "L2mr" not in by_line.columns
    histogram = t.reuse_distance(l1="8k,2,64")
    assert [(r["min"], r["max"], r["count"]) for _, r in histogram.iterrows()] == [
        (b["min"], b["max"], b["count"]) for b in expected["reuse_distance"]]
    assert histogram.attrs["first_use"] == expected["first_use"]


def test_annotate_frame(traces):
    path = traces["matmul"]
    # The CLI's annotate and the module's take the same levels: every
    # level's misses per line are the CLI's, and add up to cache's.
    for levels in (dict(l1="1m,16,64", l2="none", ll="8m,16,64"),
                   dict(l1="8k,2,64", l2="64k,4,64", ll="1m,8,64")):
        args = ["annotate"] + ["--%s=%s" % item for item in levels.items()]
        expected = cli(path, *args)
        assert expected["schema"] == "wgtrace-annotate/2"
        frame = wgtrace.open(path).annotate(**levels)
        names = [level["name"] for level in expected["cache"]["levels"]]
        assert names == (["D1", "LL"] if levels["l2"] == "none" else ["D1", "L2", "LL"])
        misses = [name + kind for name in names for kind in ("mr", "mw")]
        rows = [line for k in expected["kernels"] for line in k["lines"]]
        lines = frame[frame["line"] > 0]
        assert list(lines["line"]) == [r["line"] for r in rows]
        assert list(lines["loads"]) == [r["loads"] for r in rows]
        for column in misses:
            assert list(lines[column]) == [r[column] for r in rows], column
        assert frame["loads"].sum() == expected["totals"]["loads"]
        assert {k: frame.attrs["totals"][k] for k in expected["totals"]} == expected["totals"]
        assert frame.attrs["cache"] == expected["cache"]
        cache = cli(path, "cache", *["--%s=%s" % item for item in levels.items()])
        for column in misses:
            assert frame[column].sum() == cache["totals"][column], column


def test_options_are_checked_as_the_cli_checks_them(traces):
    t = wgtrace.open(traces["transpose"])
    with pytest.raises(ValueError, match="power of two"):
        t.summary(line_size=48)
    with pytest.raises(ValueError, match="by must be"):
        t.summary(by="launch")
    for gone in ({"level": "l2"}, {"cache_size": "64k"}, {"ways": 4}, {"line_size": 32}):
        with pytest.raises(ValueError, match="is gone: the cache models D1, L2 and LL"):
            t.cache(**gone)
    with pytest.raises(ValueError, match="l1 '32k,3,64': the number of sets"):
        t.cache(l1="32k,3,64")
    with pytest.raises(ValueError, match="ll 'lots,8,64': the size is not a size"):
        t.cache(ll="lots,8,64")
    with pytest.raises(ValueError, match="l2 expects 'SIZE,WAYS,LINE'"):
        t.cache(l2=65536)
    with pytest.raises(ValueError, match="limit"):
        t.races(limit=-1)
    with pytest.raises(ValueError, match="table must be"):
        t.footprint(table="lines")
    assert t.cache(l1="64KiB,8,64").attrs["levels"][0]["size"] == 65536


def test_compressed_trace_reads_as_its_plain_copy(traces, work):
    """A trace compressed with `wgtrace-view compress` (WGTRACE_COMPRESS's
    chunks) gives every table and analysis of its plain copy."""
    plain = traces["matmul_stream"]
    packed = os.path.join(work, "matmul_stream.zst.bin")
    status, _, err = view("compress", plain, packed)
    if status != 0 and "without libzstd" in err:
        pytest.skip("wgtrace-view built without libzstd")
    assert status == 0, err
    assert os.path.getsize(packed) * 10 < os.path.getsize(plain)
    a, b = wgtrace.open(plain), wgtrace.open(packed)
    for analysis in ("summary", "footprint", "races"):
        assert a._analysis(analysis) == b._analysis(analysis), analysis
    assert (a.accesses() == b.accesses()).all()
    pd.testing.assert_frame_equal(a.workgroups.drop(columns="file", errors="ignore"),
                                  b.workgroups.drop(columns="file", errors="ignore"))


@pytest.mark.parametrize("name", ["matmul_task", "histogram_racy", "matmul_stream"])
def test_threads_change_nothing(traces, name):
    """summary, races, footprint, cache and annotate on several threads
    (threads=, --threads) are the one-thread reports; a stream-mode trace
    is read on one thread."""
    path = traces[name]
    levels = ["--l1", "4k,2,64", "--l2", "none", "--ll", "64k,4,64"]
    for analysis, options, flags in (("summary", {}, []),
                                     ("summary", {"by": "line"}, ["--by", "line"]),
                                     ("races", {}, []),
                                     ("footprint", {}, []),
                                     ("cache", _cache("4k,2,64", "none", "64k,4,64"), levels),
                                     ("annotate", _cache("4k,2,64", "none", "64k,4,64",
                                                         cold=True), levels + ["--cold"])):
        expected = cli(path, analysis, "--threads", "1", *flags)
        assert cli(path, analysis, "--threads", "4", *flags) == expected
        for threads in (None, 1, 2, 4):
            t = wgtrace.open(path)  # a new Trace: results are cached
            extra = {} if threads is None else {"threads": threads}
            assert t._analysis(analysis, **options, **extra) == [expected], threads
    frame = wgtrace.summary(path, threads=2)
    assert frame.equals(wgtrace.summary(path, threads=1))
    assert len(frame) > 0
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            wgtrace.summary(path, threads=bad)
        with pytest.raises(ValueError):
            wgtrace.races(path, threads=bad)
        with pytest.raises(ValueError):
            wgtrace.footprint(path, threads=bad)
        with pytest.raises(ValueError):
            wgtrace.annotate(path, threads=bad)
        with pytest.raises(ValueError):
            wgtrace.cache(path, threads=bad)
    frame = wgtrace.annotate(path, threads=2)
    assert frame.equals(wgtrace.annotate(path, threads=1))
