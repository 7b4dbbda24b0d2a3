"""wgtrace.dask on a distributed.LocalCluster of two worker processes: the
reports are the CLI's on the same files (wgtrace-view reports several files
one by one), laid out as wgtrace's own functions lay them out, and the
accesses DataFrame holds the rows of Trace.accesses(as_frame=True)."""

import os
import socket
import subprocess
import sys

import distributed
import pytest

import pandas as pd
import wgtrace
import wgtrace.dask
from conftest import SAMPLES, clean_env, view_json

# Three processes' traces: two rings of a tasked run, a racy one, one more.
NAMES = ["matmul_task", "histogram_racy", "transpose"]


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


@pytest.fixture(scope="module")
def paths(traces):
    return [traces[name] for name in NAMES]


def _files_opened():
    return len(wgtrace.dask._OPENED)


def reports(analysis, paths, *flags):
    """The CLI's report of each file, from one run over all of them."""
    report = view_json(analysis, *paths, *flags)
    assert [f["file"] for f in report["files"]] == paths
    return [f["report"] for f in report["files"]]


def assert_same_frame(got, expected):
    pd.testing.assert_frame_equal(got, expected)
    assert got.attrs == expected.attrs


def assert_same_rows(got, expected):
    """assert_frame_equal for frames of a million rows: the same columns,
    dtypes (a categorical's includes its categories) and values, compared
    as arrays (categoricals by their codes) rather than as objects."""
    assert type(got) is type(expected)
    assert list(got.columns) == list(expected.columns)
    assert list(got.dtypes) == list(expected.dtypes)
    assert len(got) == len(expected)
    for name in got.columns:
        a, b = got[name], expected[name]
        if isinstance(a.dtype, pd.CategoricalDtype):
            a, b = a.cat.codes, b.cat.codes
        assert (a.to_numpy() == b.to_numpy()).all(), name


CASES = [  # function, its options, the CLI's analysis and flags
    ("summary", {}, "summary", []),
    ("summary", {"by": "kernel"}, "summary", []),
    ("summary", {"by": "line", "line_size": 128}, "summary",
     ["--by", "line", "--line-size", "128"]),
    ("footprint", {}, "footprint", []),
    ("footprint", {"table": "streams"}, "footprint", []),
    ("races", {"limit": 5}, "races", ["--limit", "5"]),
    ("cache", {"l1": "4k,2,32", "l2": "none", "ll": "64k,4,64"}, "cache",
     ["--l1", "4k,2,32", "--l2", "none", "--ll", "64k,4,64"]),
    ("cache", {"by": "site", "cold": True, "l1": "4k,2,32", "l2": "none", "ll": "64k,4,64"},
     "cache", ["--by", "site", "--cold", "--l1", "4k,2,32", "--l2", "none", "--ll",
               "64k,4,64"]),
    ("annotate", {"l1": "4k,2,32", "l2": "none", "ll": "64k,4,64"}, "annotate",
     ["--l1", "4k,2,32", "--l2", "none", "--ll", "64k,4,64"]),
    ("reuse_distance", {"l1": "4k,2,32"}, "cache", ["--l1", "4k,2,32"]),
]


@pytest.mark.parametrize("function,options,analysis,flags", CASES)
def test_reports_are_the_clis(client, paths, function, options, analysis, flags):
    files = wgtrace.dask._Files(paths, client)
    # The reports the workers made are the CLI's for the same files.
    cli = reports(analysis, paths, *flags)
    kind = "summary" if function == "summary" else analysis
    if function == "summary":
        native = {"by": "workgroup" if options.get("by", "workgroup") == "kernel"
                  else options.get("by", "workgroup"),
                  "line_size": options.get("line_size", 64)}
    elif function in ("cache", "annotate", "reuse_distance"):
        native = wgtrace.analyses._cache_options(
            options.get("l1"), options.get("l2"), options.get("ll"),
            options.get("cold", False), {})
        if function == "cache":
            native["by"] = options.get("by", "workgroup")
    elif function == "races":
        native = {"limit": options["limit"]}
    else:
        native = {}
    assert files._analysis(kind, **native) == cli
    # And laid out as wgtrace's own function lays out wgtrace.open(paths)'s.
    got = getattr(wgtrace.dask, function)(paths, client=client, **options)
    expected = getattr(wgtrace, function)(wgtrace.open(paths), **options)
    assert_same_frame(got, expected)
    assert set(got["file"]) == set(range(len(paths))) or function == "races"


def test_summary_numbers(client, paths):
    """The per-file totals a user reads are the CLI's numbers."""
    frame = wgtrace.dask.summary(paths, by="site", client=client)
    for file, report in enumerate(reports("summary", paths)):
        rows = frame[frame["file"] == file]
        for site in report["sites"]:
            row = rows[rows["site"] == site["site"]].iloc[0]
            for name in ("loads", "stores", "load_bytes", "store_bytes", "lines"):
                assert row[name] == site["totals"][name], (file, site["site"], name)
    races = wgtrace.dask.races(paths, client=client)
    assert races.attrs["races"] == sum(r["races"] for r in reports("races", paths)) > 0


def test_machine_levels_and_threads(paths):
    """client=None: the local threaded scheduler; cache levels left to the
    machine are this machine's, as the CLI's."""
    files = wgtrace.dask._Files(paths, None)
    assert files._analysis("cache", **wgtrace.analyses._cache_options(
        None, None, None, False, {})) == reports("cache", paths)
    assert_same_frame(wgtrace.dask.summary(paths), wgtrace.summary(paths))


def test_filters_and_nothing_to_analyse(client, paths):
    got = wgtrace.dask.summary(paths[:1], client=client, kernel="mat*", workgroup=(1, 2, 0))
    assert_same_frame(got, wgtrace.summary(paths[:1], kernel="mat*", workgroup=(1, 2, 0)))
    assert len(got) == 1
    with pytest.raises(wgtrace.TraceError, match="no workgroup matches --kernel 'nothing'"):
        wgtrace.dask.summary(paths, client=client, kernel="nothing")


def test_damaged_and_missing_files(client, paths, work):
    """A damaged file raises what wgtrace.open raises for it (the viewer's
    message, where and what); a missing one FileNotFoundError."""
    cut = os.path.join(work, "dask-truncated.bin")
    data = open(paths[0], "rb").read()
    with open(cut, "wb") as f:
        f.write(data[:len(data) - 4096])
    with pytest.raises(wgtrace.TraceError) as expected:
        wgtrace.open(cut)
    with pytest.raises(wgtrace.TraceError) as caught:
        wgtrace.dask.summary([paths[1], cut], client=client)
    assert str(caught.value) == str(expected.value)
    assert (caught.value.offset, caught.value.chunk, caught.value.problem) == (
        expected.value.offset, expected.value.chunk, expected.value.problem)
    with pytest.raises(FileNotFoundError):
        wgtrace.dask.races([paths[1], os.path.join(work, "missing.bin")], client=client)


def test_accesses_are_the_frames_rows(client, paths):
    frame = wgtrace.dask.accesses(paths, client=client)
    t = wgtrace.open(paths)
    chunks = t.workgroups[(t.workgroups["loads"] + t.workgroups["stores"]) > 0]
    assert frame.npartitions == len(chunks[["file", "chunk"]].drop_duplicates())
    expected = t.accesses(as_frame=True)
    pd.testing.assert_frame_equal(frame._meta, expected.iloc[:0])
    # Ring mode: a workgroup's records are in one chunk, so the partitions
    # in order are the file order.
    assert_same_rows(frame.compute(), expected)
    # Decoded by the worker processes, not here.
    assert sum(client.run(_files_opened).values()) > 0
    # A processor that ran matmul's workgroups: on a busy machine one of its
    # two workers may have taken them all.
    workgroups = t.workgroups
    processor = int(workgroups[workgroups["kernel"].astype(str).str.startswith("mat")]
                    ["processor"].max())
    selected = wgtrace.dask.accesses(paths, kernel="mat*", processor=processor,
                                     client=client)
    assert_same_rows(selected.compute(),
                     t.accesses(kernel="mat*", processor=processor, as_frame=True))
    assert len(selected) > 0


def test_accesses_of_stream_chunks(client, traces):
    """Stream mode: a workgroup continues over chunks; its rows are in the
    partition of its first chunk, in file order."""
    paths = [traces["matmul_stream"], traces["transpose"]]
    frame = wgtrace.dask.accesses(paths, client=client)
    assert frame.npartitions > 2
    got = frame.compute()
    expected = wgtrace.open(paths).accesses(as_frame=True)
    assert len(got) == len(expected)

    def by_workgroup(rows):
        return rows.sort_values("workgroup", kind="stable").reset_index(drop=True)
    assert_same_rows(by_workgroup(got), by_workgroup(expected))


def test_pattern_matches_the_processes_files(client, work):
    """Two runs into one WGTRACE_FILE pattern: files() finds both, and the
    summary is the CLI's over them."""
    folder = os.path.join(work, "pattern")
    os.makedirs(folder, exist_ok=True)
    pattern = os.path.join(folder, "run-%h-%p.bin")
    for _ in range(2):
        result = subprocess.run([os.path.join(SAMPLES, "transpose")],
                                env=clean_env({"WGTRACE_FILE": pattern}), capture_output=True,
                                text=True)
        assert result.returncode == 0, result.stderr
    found = wgtrace.dask.files(pattern)
    host = socket.gethostname()
    assert len(found) == 2 and all(os.path.basename(p).startswith("run-%s-" % host)
                                   for p in found)
    frame = wgtrace.dask.summary(pattern, by="kernel", client=client)
    for file, report in enumerate(reports("summary", found)):
        for name, totals in report["kernels"].items():
            row = frame[(frame["file"] == file) & (frame["kernel"] == name)].iloc[0]
            assert row["loads"] == totals["loads"] and row["stores"] == totals["stores"]
    with pytest.raises(FileNotFoundError, match="no trace file matches"):
        wgtrace.dask.files(os.path.join(folder, "none-%p.bin"))
    with pytest.raises(ValueError, match="'%q' is not a WGTRACE_FILE field"):
        wgtrace.dask.files(os.path.join(folder, "bad-%q.bin"))
    assert wgtrace.dask._pattern_glob("a[1]%%-%t-%h") == "a[[]1]%-*-*"


def test_imports_without_dask(paths):
    """wgtrace and wgtrace.dask import without dask; using it says what to
    install."""
    code = ("import sys; sys.modules['dask'] = None\n"
            "import wgtrace, wgtrace.dask\n"
            "try:\n"
            "    wgtrace.dask.summary(%r)\n"
            "except ImportError as e:\n"
            "    print(e)\n" % paths[0])
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "wgtrace.dask needs dask (Debian: python3-dask" in result.stdout
