"""wgtrace's analyses over many trace files, on Dask.

    import wgtrace.dask
    from distributed import Client
    client = Client("tcp://scheduler:8786")       # or None: local threads
    paths = wgtrace.dask.files("/shared/trace-%h-%p.bin")
    wgtrace.dask.summary(paths, by="kernel", client=client)
    frame = wgtrace.dask.accesses(paths, kernel="matmul")   # a dask DataFrame

Each file is decoded on a worker, in C++, by the same code as
``wgtrace.open`` and ``wgtrace-view``. The CLI reports several files one
after the other, each analysed on its own (different processes share no
launch and no cache), and so do these functions: a task per file runs the
analysis of ``wgtrace-view <analysis> --json`` there, and the client lays
the reports out exactly as :func:`wgtrace.summary` (and the others) lay
out those of ``wgtrace.open(paths)``: one table whose ``file`` column is
the index into ``paths``, with the same ``attrs``. Nothing is merged that
the CLI does not merge.

Workers must see the files at the same paths as the client (a shared file
system), import ``wgtrace`` and have dask installed. docs/PYTHON.md says
more.
"""

import collections
import glob
import os
import threading

from . import _wgtrace, analyses
from ._errors import TraceError
from .trace import _analysis_filters, open as _open_trace

_NEEDS = ("wgtrace.dask needs dask (Debian: python3-dask; for a cluster also "
          "python3-distributed): %s")


def _dask():
    """dask, and dask.dataframe, imported on first use so that ``import
    wgtrace`` and ``import wgtrace.dask`` work without them."""
    try:
        import dask
        import dask.dataframe
    except ImportError as error:
        raise ImportError(_NEEDS % error) from error
    return dask


# -- which files --------------------------------------------------------------

def _pattern_glob(pattern):
    """The glob matching what WGTRACE_FILE's ``pattern`` expands to: ``%p``,
    ``%h`` and ``%t`` (docs/RUNTIME.md) match anything, ``%%`` is ``%``."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c != "%":
            out.append(glob.escape(c))
            i += 1
            continue
        field = pattern[i + 1:i + 2]
        if field in ("p", "h", "t"):
            out.append("*")
        elif field == "%":
            out.append("%")
        else:
            raise ValueError("%s: '%%%s' is not a WGTRACE_FILE field (%%p, %%h, %%t or %%%%)"
                             % (pattern, field))
        i += 2
    return "".join(out)


def files(paths):
    """The trace files ``paths`` names: a path, or a WGTRACE_FILE pattern
    (a path with ``%p``, ``%h``, ``%t`` or ``%%``) standing for the files
    it matches, sorted; or a list of them. A pattern that matches nothing
    raises FileNotFoundError. The order is the ``file`` column's."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    found = []
    for path in paths:
        path = os.fsdecode(path)
        if "%" not in path:
            found.append(path)
            continue
        matches = sorted(glob.glob(_pattern_glob(path)))
        if not matches:
            raise FileNotFoundError("no trace file matches the pattern %s" % path)
        found.extend(matches)
    if not found:
        raise ValueError("wgtrace.dask needs at least one path")
    return found


# -- on the workers -------------------------------------------------------------

# Traces a worker process opened: a file's partitions of accesses() read it
# through the index one open() built. A few, keyed by what identifies the
# file's contents, so that a file written again is opened again.
_OPENED = collections.OrderedDict()
_OPENED_LIMIT = 4
_OPENED_LOCK = threading.Lock()


def _opened(path):
    status = os.stat(path)
    key = (path, status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)
    with _OPENED_LOCK:
        if key in _OPENED:
            _OPENED.move_to_end(key)
            return _OPENED[key]
    try:
        trace = _open_trace(path)
    except TraceError as error:
        # What was decoded before the damage maps the file: it stays here.
        error.trace = None
        raise
    with _OPENED_LOCK:
        _OPENED[key] = trace
        while len(_OPENED) > _OPENED_LIMIT:
            _OPENED.popitem(last=False)
    return trace


def _file_report(path, kind, kernel, dispatch, workgroup, options):
    """The parsed --json report of one file (a worker's task): one pass of
    the viewer's reader, as ``wgtrace-view <kind> --json path`` makes,
    without the index of wgtrace.open."""
    dispatch, workgroup = _analysis_filters(dispatch, workgroup)
    result = _wgtrace.analyse_file(path, kind, kernel=kernel, dispatch=dispatch,
                                   workgroup=workgroup, **options)
    if result["damaged"]:
        # wgtrace.open's TraceError says where and what, as for one file.
        _opened(path)
        raise TraceError("%s: the file changed while it was analysed; analyse it again" % path,
                         path=path)
    if result["nothing"]:
        raise TraceError("%s: %s" % (path, result["nothing"]), path=path)
    return analyses.parse(result["json"])


def _compute(tasks, client):
    dask = _dask()
    if client is None:
        return list(dask.compute(*tasks, scheduler="threads"))
    return list(client.gather(client.compute(tasks)))


class _Files:
    """Files whose per-file analyses run on Dask, with Trace._analysis'
    contract, so that the functions of wgtrace.analyses lay their reports
    out as they lay out those of an opened Trace."""

    def __init__(self, paths, client):
        self.paths = files(paths)
        self._client = client

    def _analysis(self, kind, kernel=None, dispatch=None, workgroup=None, **options):
        delayed = _dask().delayed
        # Not pure: a task's result is the file's contents, not its path's.
        tasks = [delayed(_file_report)(path, kind, kernel, dispatch, workgroup, options)
                 for path in self.paths]
        results = _compute(tasks, self._client)
        if kind in ("cache", "annotate"):
            _same_levels(self.paths, results, kind)
        return results


def _same_levels(paths, results, kind):
    """Levels left to the machine are each worker's: refuse reports of
    different geometries rather than lay them out as one table."""
    def levels(result):
        return result["levels"] if kind == "cache" else result["cache"]["levels"]
    first = levels(results[0])
    for path, result in zip(paths, results):
        if levels(result) != first:
            raise ValueError(
                "%s was simulated with the cache levels %r, %s with %r: the workers' "
                "machines differ; give l1, l2 and ll" % (paths[0], first, path, levels(result)))


# -- the analyses -------------------------------------------------------------------

def summary(paths, by="workgroup", line_size=64, client=None, **filters):
    """:func:`wgtrace.summary` of ``paths`` (see :func:`files`), a file
    per task on ``client`` (a ``distributed.Client``; None: the local
    threaded scheduler). Rows carry ``file``, each file is summed on its
    own, as ``wgtrace-view summary --json`` reports several files."""
    return analyses.summary(_Files(paths, client), by=by, line_size=line_size, **filters)


def footprint(paths, table="ranges", client=None, **filters):
    """:func:`wgtrace.footprint` of ``paths``, a file per task."""
    return analyses.footprint(_Files(paths, client), table=table, **filters)


def races(paths, limit=100, client=None, **filters):
    """:func:`wgtrace.races` of ``paths``, a file per task: races are
    within one launch of one process, so each file is one report (at most
    ``limit`` groups each)."""
    return analyses.races(_Files(paths, client), limit=limit, **filters)


def cache(paths, l1=None, l2=None, ll=None, cold=False, by="workgroup", client=None,
          **filters):
    """:func:`wgtrace.cache` of ``paths``, a file per task, each file
    simulated on its own from empty caches, as the CLI simulates each of
    several files. Levels not given are the machine's where the file is
    analysed: ValueError when the workers' differ."""
    return analyses.cache(_Files(paths, client), l1=l1, l2=l2, ll=ll, cold=cold, by=by,
                          **filters)


def annotate(paths, l1=None, l2=None, ll=None, cold=False, client=None, **filters):
    """:func:`wgtrace.annotate` of ``paths``, a file per task."""
    return analyses.annotate(_Files(paths, client), l1=l1, l2=l2, ll=ll, cold=cold, **filters)


def reuse_distance(paths, l1=None, cold=False, client=None, **filters):
    """:func:`wgtrace.reuse_distance` of ``paths``, a file per task."""
    return analyses.reuse_distance(_Files(paths, client), l1=l1, cold=cold, **filters)


# -- accesses -------------------------------------------------------------------------

def _plan(path, filters):
    """What the client needs of one file to lay out its partitions: the
    chunks holding the first records of the selected workgroups (with
    accesses), the file's workgroups, categories and an empty frame."""
    trace = _opened(path)
    workgroups = trace.workgroups
    chosen = workgroups[trace.selection(**filters)]
    chosen = chosen[(chosen["loads"] + chosen["stores"]) > 0]
    sites = trace.access_sites
    return {
        "workgroups": len(workgroups),
        "chunks": sorted(int(c) for c in chosen["chunk"].unique()),
        "kernels": list(workgroups["kernel"].cat.categories),
        "buffers": list(trace.buffers["label"]),
        "sources": list(sites["source_file"] + ":" + sites["line"].astype(str)),
        "empty": trace.accesses(chunk=[], as_frame=True),
        "file_dtype": workgroups["file"].to_numpy().dtype,
    }


def _laid_out(frame, file, first_workgroup, layout):
    """One file's accesses frame as a partition of the whole: ``file``
    (when several), workgroups numbered across the files, the categories
    of all files, every column of the whole, in its order."""
    import numpy as np
    import pandas as pd

    frame = frame.copy()
    frame["workgroup"] = frame["workgroup"] + np.uint32(first_workgroup)
    if layout["several"]:
        frame["file"] = np.full(len(frame), file, dtype=layout["file_dtype"])
    for name, categories in layout["categories"].items():
        if name not in frame.columns:
            frame[name] = pd.Categorical([None] * len(frame), categories=categories)
        else:
            frame[name] = frame[name].cat.set_categories(categories)
    return frame[layout["columns"]]


def _partition(path, file, chunk, first_workgroup, filters, layout):
    """The accesses of the selected workgroups whose first record is in
    ``chunk`` of file ``file`` (a worker's task)."""
    frame = _opened(path).accesses(chunk=chunk, as_frame=True, **filters)
    return _laid_out(frame, file, first_workgroup, layout)


def accesses(paths, kernel=None, dispatch=None, workgroup=None, launch=None, processor=None,
             client=None):
    """The accesses of ``paths`` (see :func:`files`) as a dask DataFrame
    whose rows and columns are those of
    ``wgtrace.open(paths).accesses(as_frame=True, ...)``: a partition per
    file and chunk, the accesses of the selected workgroups whose first
    record is in that chunk, in file order, decoded on a worker. ``file``
    (for several files) indexes ``paths``, ``workgroup`` counts across the
    files, and the categoricals (``kernel``, ``buffer``, ``source``,
    ``kind``) have the categories of all files. The filters are
    :meth:`wgtrace.Trace.selection`'s.

    Laying out the partitions takes a pass over every file first (on the
    workers of ``client``, or local threads): the workgroups and chunks of
    each. The DataFrame is lazy; ``.compute()`` runs on the current
    scheduler (a ``distributed.Client`` makes itself current)."""
    import pandas as pd

    dask = _dask()
    paths = files(paths)
    filters = {k: v for k, v in dict(kernel=kernel, dispatch=dispatch, workgroup=workgroup,
                                     launch=launch, processor=processor).items()
               if v is not None}
    plans = _compute([dask.delayed(_plan)(path, filters) for path in paths], client)

    def union(key):
        return pd.Index(sorted({v for plan in plans for v in plan[key]}), dtype=object)

    categories = {"kernel": union("kernels"), "buffer": union("buffers")}
    if any(plan["sources"] for plan in plans):
        categories["source"] = union("sources")
    empty = plans[0]["empty"]
    columns = [c for c in empty.columns if c != "file"]
    if "source" in categories and "source" not in columns:
        columns.append("source")
    several = len(paths) > 1
    if several:
        columns.insert(0, "file")
    layout = {"several": several, "columns": columns, "categories": categories,
              "file_dtype": plans[0]["file_dtype"]}
    meta = _laid_out(empty, 0, 0, layout)
    parts = []
    first_workgroup = 0
    for file, (path, plan) in enumerate(zip(paths, plans)):
        for chunk in plan["chunks"]:
            parts.append(dask.delayed(_partition)(path, file, chunk, first_workgroup, filters,
                                                  layout))
        first_workgroup += plan["workgroups"]
    if not parts:
        parts = [dask.delayed(meta.copy)()]
    return dask.dataframe.from_delayed(parts, meta=meta, verify_meta=False)
