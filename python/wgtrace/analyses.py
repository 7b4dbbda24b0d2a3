"""The viewer's analyses as DataFrames.

Each function runs the same C++ tool as ``wgtrace-view <analysis> --json``
(with the same options) and lays its JSON out as rows: the numbers are the
CLI's. Across the Python API a workgroup id is ``wg_x``, ``wg_y``,
``wg_z``, a grid ``count_x``... or ``grid_x``..., a processor id
``processor`` and a function name ``kernel`` (the JSON's ``id``, ``count``,
``grid``, ``pid`` and ``function``). Scalars of the JSON that are not rows
(totals, the cache geometry, counts) are in ``DataFrame.attrs``.

Every function takes a :class:`wgtrace.Trace` or what :func:`wgtrace.open`
takes (a path or a list of paths), and the CLI's filters: ``kernel`` (a
name or glob, ``--kernel``), ``dispatch`` (a site id, ``--dispatch``) and
``workgroup`` (``(x, y, z)`` or ``"x,y,z"``, ``--workgroup``). For several
files, each file is analysed on its own (they are different processes) and
the rows carry ``file``. Where the CLI finds nothing to analyse (an empty
file, no workgroup record, nothing matching the filters: exit status 2),
:class:`wgtrace.TraceError` says why.
"""

import json

import pandas as pd

from ._frame import Frame

_TRIPLES = {"id": "wg", "count": "count", "grid": "grid"}
_RENAMED = {"pid": "processor", "function": "kernel"}
_IDENTITY = ["file", "site", "kernel", "wg_x", "wg_y", "wg_z", "processor"]


def parse(text):
    return json.loads(text)


def _flat(obj, prefix="", skip=()):
    """One row from a JSON object: nested objects become prefixed columns,
    [x, y, z] triples three columns; lists of objects are left out."""
    row = {}
    for key, value in obj.items():
        if key in skip:
            continue
        if key in _TRIPLES and isinstance(value, list) and len(value) == 3:
            for axis, v in zip("xyz", value):
                row["%s%s_%s" % (prefix, _TRIPLES[key], axis)] = v
        elif isinstance(value, dict):
            row.update(_flat(value, prefix + _RENAMED.get(key, key) + "_"))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            continue
        else:
            row[prefix + _RENAMED.get(key, key)] = value
    return row


def _frame(rows, columns):
    """A DataFrame of ``rows``; ``columns`` come first (and are the columns
    of an empty result), any other key of the JSON follows."""
    if not rows:
        return Frame(columns=columns)
    frame = Frame.from_records(rows)
    # A whole-number column with gaps (a buffer's size where it was not
    # recorded, an offset only some rows have) would turn float or object:
    # pandas' nullable Int64 keeps it whole, with <NA> for the gaps.
    for name in frame.columns:
        column = frame[name]
        if column.dtype.kind not in "fO" or not column.isna().any():
            continue
        present = column.dropna()
        if len(present) and all(isinstance(v, int) and not isinstance(v, bool)
                                for v in present):
            frame[name] = column.astype("Int64")
    order = [c for c in columns if c in frame.columns]
    return frame[order + [c for c in frame.columns if c not in order]]


def _listed(results, key):
    """A row per object of the list ``key`` of each file's result."""
    return [dict(file=file, **_flat(item)) for file, result in enumerate(results)
            for item in result[key]]


def _summed_totals(results):
    """The "totals" of each file's result, added up key by key."""
    totals = {}
    for result in results:
        for key, value in result["totals"].items():
            totals[key] = totals.get(key, 0) + value
    return totals


def _trace(trace):
    """A Trace, or what runs its per-file analyses elsewhere (wgtrace.dask's
    files, whose ``_analysis`` has the same contract); else paths to open."""
    from .trace import open as open_trace
    return trace if hasattr(trace, "_analysis") else open_trace(trace)


def _power_of_two(name, value):
    if not isinstance(value, int) or value <= 0 or value & (value - 1):
        raise ValueError("%s must be a power of two, got %r" % (name, value))


def _threads(threads):
    """``threads`` as ``--threads`` takes it: None (the cores available) or
    a whole number of at least 1; as ``_analysis`` options (none: its
    default)."""
    if threads is None:
        return {}
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise ValueError("threads must be a whole number of at least 1, got %r" % (threads,))
    return {"threads": threads}


def summary(trace, by="workgroup", line_size=64, kernel=None, dispatch=None, workgroup=None,
            threads=None):
    """``wgtrace-view summary --json [--by ...]``: loads, stores, bytes,
    distinct cache lines (``line_size``, a power of two), values and prints.

    ``by="workgroup"`` (default): one row per workgroup (``file``,
    ``site``, ``kernel``, ``wg_x``..., ``count_x``..., ``processor``,
    ``loads``, ``stores``, ``atomics`` (those of them made by atomic
    operations), ``load_bytes``, ``store_bytes``, ``lines``, ``values``,
    ``prints``); ``by="site"``: the totals per dispatch site
    (with ``workgroups``); ``by="kernel"``: per function name;
    ``by="line"``: per source line of the accesses (``source``, ``text``:
    the access expressions there); ``by="buffer"``: per kernel parameter
    the accesses fall in (``buffer``). ``attrs``: ``line_size``,
    ``lost_bytes``. ``threads``: ``--threads`` (None: the cores available;
    the result is the same with any).
    """
    _power_of_two("line_size", line_size)
    if by not in ("workgroup", "site", "kernel", "line", "buffer"):
        raise ValueError("by must be 'workgroup', 'site', 'kernel', 'line' or 'buffer', got %r"
                         % (by,))
    trace = _trace(trace)
    results = trace._analysis("summary", kernel, dispatch, workgroup, line_size=line_size,
                              by="workgroup" if by == "kernel" else by, **_threads(threads))
    rows = []
    for file, result in enumerate(results):
        if by in ("line", "buffer"):
            rows.extend(dict(file=file, **_flat(group)) for group in result["groups"])
            continue
        if by == "kernel":
            for name, totals in result["kernels"].items():
                rows.append(dict(file=file, kernel=name, **_flat(totals)))
            continue
        for site in result["sites"]:
            head = {"file": file, "site": site["site"], "kernel": site["function"]}
            if by == "site":
                rows.append(dict(head, **_flat(site["totals"])))
                continue
            for row in site["workgroups"]:
                rows.append(dict(head, **_flat(row)))
    counts = ["loads", "stores", "atomics", "load_bytes", "store_bytes", "lines", "values",
              "prints"]
    columns = {"workgroup": _IDENTITY[:6] + ["count_x", "count_y", "count_z", "processor"],
               "site": ["file", "site", "kernel", "workgroups"],
               "kernel": ["file", "kernel", "workgroups"],
               "line": ["file", "source", "text"],
               "buffer": ["file", "buffer"]}[by] + counts
    frame = _frame(rows, columns)
    frame.attrs["line_size"] = line_size
    frame.attrs["lost_bytes"] = sum(r["lost_bytes"] for r in results)
    return frame


def footprint(trace, table="ranges", kernel=None, dispatch=None, workgroup=None, threads=None):
    """``wgtrace-view footprint --json``.

    ``table="ranges"`` (default): the coalesced byte ranges each workgroup
    loaded and stored, one row per range: workgroup identity (``file``,
    ``site``, ``kernel``, ``wg_x``..., ``processor``), ``buffer``, ``kind``
    (``"load"``/``"store"``), ``address``, ``size``.
    ``table="streams"``: each access stream's stride pattern: identity,
    ``kind``, ``atomic`` (made by atomic operations), ``length``, ``buffer``, ``count``, ``first``, ``pattern``,
    ``stride``, ``row_length``, ``row_pitch`` (``<NA>`` where the pattern
    has none). ``table="buffers"``: ``file``, ``buffer``, ``address``,
    ``size``. ``attrs``: ``buffer_gap``. ``threads``: as for
    :func:`summary`.
    """
    if table not in ("ranges", "streams", "buffers"):
        raise ValueError("table must be 'ranges', 'streams' or 'buffers', got %r" % (table,))
    trace = _trace(trace)
    results = trace._analysis("footprint", kernel, dispatch, workgroup, **_threads(threads))
    rows = []
    for file, result in enumerate(results):
        if table == "buffers":
            for index, buffer in enumerate(result["buffers"]):
                rows.append(dict(file=file, buffer=index, **_flat(buffer)))
            continue
        for workgroup in result["workgroups"]:
            head = dict(file=file, **_flat(workgroup, skip=("buffers", "streams")))
            if table == "streams":
                for stream in workgroup["streams"]:
                    rows.append(dict(head, **_flat(stream)))
                continue
            for use in workgroup["buffers"]:
                for kind, ranges in (("load", use["loads"]), ("store", use["stores"])):
                    for address, size in ranges:
                        rows.append(dict(head, buffer=use["buffer"], kind=kind, address=address,
                                         size=size))
    columns = {"ranges": _IDENTITY + ["buffer", "kind", "address", "size"],
               "streams": _IDENTITY + ["kind", "atomic", "length", "buffer", "count", "first",
                                       "pattern", "stride", "row_length", "row_pitch"],
               "buffers": ["file", "buffer", "address", "size"]}[table]
    frame = _frame(rows, columns)
    if table == "buffers" and len(frame):
        frame["size"] = frame["size"].astype("Int64")  # <NA>: not recorded
    if table == "streams":
        for name in ("stride", "row_length", "row_pitch"):
            if name not in frame.columns:
                frame[name] = pd.NA
            frame[name] = frame[name].astype("Int64")
    if results:
        frame.attrs["buffer_gap"] = results[0]["buffer_gap"]
    return frame


def races(trace, limit=100, kernel=None, dispatch=None, workgroup=None, threads=None):
    """``wgtrace-view races --json``: workgroups of one launch that touch
    the same bytes, at least one writing, grouped as the CLI groups them:
    per launch, one row per pair of access sites (at most ``limit`` per
    file, lowest addresses first): ``kind`` (``"write-write"`` or
    ``"read-write"``), ``site``, ``kernel``, ``location``, ``launch``,
    ``grid_x``..., ``address`` and ``size`` of the first shared range,
    ``ranges`` (all of them, ``[address, size]``), ``overlap_bytes``,
    ``pairs`` (unordered workgroup pairs racing there),
    ``write_write_pairs``, ``read_write_pairs``, ``buffer`` and
    ``buffer_offset`` where the file names buffers, then an example pair,
    ``a_`` (the writer) and ``b_``: ``wg_x``..., ``processor``,
    ``source``, ``access_kind``, ``access_atomic``, ``access_address``,
    ``access_size``.
    ``attrs``: ``races`` (all racing pairs), ``groups``, ``launches``.
    ``threads``: as for :func:`summary`.
    """
    if not isinstance(limit, int) or limit < 0:
        raise ValueError("limit must be a non-negative integer, got %r" % (limit,))
    trace = _trace(trace)
    results = trace._analysis("races", kernel, dispatch, workgroup, limit=limit,
                              **_threads(threads))
    rows = _listed(results, "listed")
    side = ["wg_x", "wg_y", "wg_z", "processor", "source", "access_kind", "access_atomic",
            "access_address", "access_size"]
    columns = (["file", "kind", "site", "kernel", "location", "launch", "grid_x", "grid_y",
                "grid_z", "address", "size", "ranges", "overlap_bytes", "pairs",
                "write_write_pairs", "read_write_pairs"]
               + ["a_" + c for c in side] + ["b_" + c for c in side])
    frame = _frame(rows, columns)
    if "buffer_offset" in frame.columns:
        frame["buffer_offset"] = frame["buffer_offset"].astype("Int64")
    for name in ("races", "groups", "launches"):
        frame.attrs[name] = sum(r.get(name, 0) for r in results)
    return frame


def _cache_spec(name, value):
    """``"32k,8,64"`` or ``(size, ways, line)`` as ``--l1`` takes it."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (tuple, list)) and len(value) == 3:
        return ",".join(str(v) for v in value)
    raise ValueError("%s expects 'SIZE,WAYS,LINE' (e.g. '32k,8,64') or (size, ways, line), "
                     "got %r" % (name, value))


def _cache_options(l1, l2, ll, cold, gone):
    for name, value in gone.items():
        if value is not None:
            raise ValueError("cache(%s=...) is gone: the cache models D1, L2 and LL in one "
                             "pass; give each level as l1=, l2= or ll= 'SIZE,WAYS,LINE' "
                             "(e.g. l1='32k,8,64'; l2='none' for D1 and LL only)" % name)
    return dict(l1=_cache_spec("l1", l1), l2=_cache_spec("l2", l2), ll=_cache_spec("ll", ll),
                cold=bool(cold))


def cache(trace, l1=None, l2=None, ll=None, cold=False, by="workgroup", kernel=None,
          dispatch=None, workgroup=None, level=None, cache_size=None, line_size=None,
          ways=None, threads=None):
    """``wgtrace-view cache --json [--by ...]``: the read and write misses of
    each level of a cache hierarchy simulated as cachegrind does (D1, L2,
    LL; LRU, write-allocate, a level's misses looked up in the next).
    Levels default to the machine's; ``l1``, ``l2``, ``ll`` give one as
    ``"32k,8,64"`` or ``(size, ways, line)`` (``l2="none"``: D1 and LL
    only); ``cold`` empties them before each workgroup.
    ``by="workgroup"`` (default): one row per workgroup (identity);
    ``by="site"``, ``"kernel"``, ``"line"`` (``source``, ``text``) or
    ``"buffer"``: one row per group. Counts: ``accesses``, ``reads``,
    ``writes`` and per level ``D1mr``, ``D1mw``, ``L2mr``, ``L2mw``,
    ``LLmr``, ``LLmw`` (cachegrind's names). ``attrs``: ``levels`` (name
    and geometry of each), ``note``, ``totals``, ``first_use``.
    ``level``, ``cache_size``, ``line_size`` and ``ways`` (one level, before
    the hierarchy) are refused with the options that replaced them.
    ``threads``: as for :func:`summary`.
    """
    options = _cache_options(l1, l2, ll, cold, dict(level=level, cache_size=cache_size,
                                                    line_size=line_size, ways=ways))
    options.update(_threads(threads))
    if by not in ("workgroup", "site", "kernel", "line", "buffer"):
        raise ValueError("by must be 'workgroup', 'site', 'kernel', 'line' or 'buffer', got %r"
                         % (by,))
    trace = _trace(trace)
    results = trace._analysis("cache", kernel, dispatch, workgroup, by=by, **options)
    counts = ["accesses", "reads", "writes"]
    if results:
        for level in results[0]["levels"]:
            counts += [level["name"] + "mr", level["name"] + "mw"]
    if by == "workgroup":
        frame = _frame(_listed(results, "workgroups"), _IDENTITY + counts)
    else:
        frame = _frame(_listed(results, "groups"),
                       ["file", {"site": "site", "kernel": "kernel", "line": "source",
                                 "buffer": "buffer"}[by]] + counts)
    if results:
        frame.attrs["levels"] = results[0]["levels"]
        frame.attrs["note"] = results[0]["note"]
        frame.attrs["totals"] = _summed_totals(results)
        frame.attrs["first_use"] = sum(r["first_use"] for r in results)
    return frame


def annotate(trace, l1=None, l2=None, ll=None, cold=False, kernel=None, dispatch=None,
             workgroup=None, level=None, cache_size=None, line_size=None, ways=None,
             threads=None):
    """``wgtrace-view annotate --json``: one row per kernel and source line
    that made accesses (``kernel``, ``source_file``, ``line``, ``text``: the
    access sites' expressions; ``loads``, ``stores``, ``load_bytes``,
    ``store_bytes``, ``lines``: distinct cache lines; ``D1mr``, ``D1mw``,
    ``L2mr``, ... per level: the modelled read and write misses, as
    :func:`cache` models them with the same options). Accesses without a source line are a row with
    ``line`` 0. ``attrs``: ``cache`` (the levels), ``totals``, ``files``
    (each source file and whether its text was on disk). ``threads``: as
    for :func:`summary`.
    """
    options = _cache_options(l1, l2, ll, cold, dict(level=level, cache_size=cache_size,
                                                    line_size=line_size, ways=ways))
    options.update(_threads(threads))
    trace = _trace(trace)
    results = trace._analysis("annotate", kernel, dispatch, workgroup, **options)
    rows = []
    for file, result in enumerate(results):
        for k in result["kernels"]:
            lines = [dict(line, source_file=line.pop("file"), text=line.pop("accesses"))
                     for line in (dict(x) for x in k["lines"])]
            if k["no_line"]:
                lines.append(dict(k["no_line"], source_file="", line=0, text=[]))
            rows += [dict(file=file, kernel=k["kernel"], **line) for line in lines]
    misses = []
    for level in (results[0]["cache"]["levels"] if results else [{"name": "D1"}]):
        misses += [level["name"] + "mr", level["name"] + "mw"]
    frame = _frame(rows, ["file", "kernel", "source_file", "line", "text", "loads", "stores",
                          "load_bytes", "store_bytes", "lines"] + misses)
    if results:
        frame.attrs["cache"] = results[0]["cache"]
        frame.attrs["totals"] = _summed_totals(results)
        frame.attrs["files"] = [f for result in results for f in result["files"]]
    return frame


def reuse_distance(trace, l1=None, cold=False, kernel=None, dispatch=None, workgroup=None,
                   level=None, cache_size=None, line_size=None, ways=None):
    """The reuse-distance histogram of ``wgtrace-view cache --json``: line
    accesses by the number of distinct other lines used since the previous
    use of the same line, in power-of-two buckets: ``file``, ``min``,
    ``max``, ``count``. First uses are not in a bucket:
    ``attrs["first_use"]``. Lines are those of the first level (``l1``, as
    :func:`cache` takes it; default the machine's); ``cold`` restarts the
    distances at each workgroup.
    """
    options = _cache_options(l1, None, None, cold, dict(level=level, cache_size=cache_size,
                                                        line_size=line_size, ways=ways))
    trace = _trace(trace)
    results = trace._analysis("cache", kernel, dispatch, workgroup, **options)
    frame = _frame(_listed(results, "reuse_distance"), ["file", "min", "max", "count"])
    frame.attrs["first_use"] = sum(r["first_use"] for r in results)
    return frame
