"""wgtrace.open() and the Trace it returns."""

import fnmatch
import json
import os
import warnings

import numpy as np
import pandas as pd

from . import _wgtrace
from . import analyses
from ._errors import TraceError, TraceWarning
from ._frame import Frame

#: ``kind`` of a row of :meth:`Trace.accesses`.
LOAD = 0
STORE = 1

#: The dtype of :meth:`Trace.accesses`.
ACCESS_DTYPE = _wgtrace.access_dtype

_KINDS = ["load", "store"]


def _categorical(rows, by, table, categories, file_of=None):
    """A Categorical of one entry per row: its code is table[key of the row]
    (_wgtrace.frame_codes), in the integer width pandas keeps codes in for
    this many categories, so that from_codes takes them without a copy."""
    count = len(categories)
    width = np.int8 if count < 127 else np.int16 if count < 32767 else np.int32
    codes = _wgtrace.frame_codes(rows, by, np.asarray(table).astype(width), file_of)
    return pd.Categorical.from_codes(codes, categories=categories)

#: Columns every per-workgroup table borrows from ``Trace.workgroups``.
_WORKGROUP_COLUMNS = ["file", "site", "kernel", "launch", "wg_x", "wg_y", "wg_z", "processor"]


def open(paths, partial=False):  # noqa: A001 - the contract's name
    """Opens and decodes one trace file, or several (a list of paths).

    Every file is decoded once here, with the viewer's decoder
    (``wgtrace-view``'s): workgroups, values, prints and timing are kept;
    accesses are decoded again, into numpy, when :meth:`Trace.accesses` asks.

    Raises :class:`OSError` (``FileNotFoundError``, ...) for a file that
    cannot be read and :class:`wgtrace.TraceError` for a damaged one, whose
    ``trace`` attribute holds what was decoded before the damage. With
    ``partial=True`` a damaged file is not an error: the Trace holds what
    was decoded before the damage, ``Trace.errors`` says where it stopped,
    and a :class:`wgtrace.TraceWarning` says so too.

    A ring that wrapped lost its oldest records: a TraceWarning names the
    bytes lost and ``Trace.loss`` lists them per ring.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    paths = [os.fsdecode(p) for p in paths]
    if not paths:
        raise ValueError("wgtrace.open needs at least one path")
    trace = Trace(_wgtrace.Trace.open(paths), paths)
    sources = trace._sources
    for path, error in zip(paths, sources["error"]):
        if error is None:
            continue
        message = "%s: %s" % (path, error["message"])
        if not partial:
            raise TraceError(message, path=path, offset=error["offset"], chunk=error["chunk"],
                             chunk_type=error["chunk_type"], problem=error["problem"],
                             trace=trace)
        warnings.warn(message + " (the trace holds what was decoded before it)", TraceWarning,
                      stacklevel=2)
    lossy = set(trace.loss["file"])
    for file, path in enumerate(paths):
        for note in sources["notes"][file]:
            warnings.warn("%s: %s" % (path, note), TraceWarning, stacklevel=2)
        if file in lossy:
            # The viewer's own loss block, as every report of the CLI ends.
            warnings.warn("%s: %s(Trace.loss lists it)" % (path, sources["loss_text"][file]),
                          TraceWarning, stacklevel=2)
        if sources["uninstrumented_text"][file]:
            warnings.warn("%s: %s" % (path, sources["uninstrumented_text"][file]),
                          TraceWarning, stacklevel=2)
        if "not recorded" in sources["run_text"][file]:
            warnings.warn("%s: %s" % (path, sources["run_text"][file].strip()),
                          TraceWarning, stacklevel=2)
        if sources["nothing"][file]:
            warnings.warn("%s: %s" % (path, sources["nothing"][file]), TraceWarning,
                          stacklevel=2)
        conflicts = sources["conflicting_access_sites"][file]
        if conflicts:
            warnings.warn("%s: metadata chunks define access sites %s differently (files "
                          "concatenated?): source lines of their accesses are uncertain"
                          % (path, ", ".join(map(str, conflicts))), TraceWarning, stacklevel=2)
    return trace


def _cached(method):
    """A property computed once (tables of an opened trace never change)."""
    name = "_cached_" + method.__name__

    def get(self):
        if name not in self.__dict__:
            self.__dict__[name] = method(self)
        return self.__dict__[name]

    get.__doc__ = method.__doc__
    get.__name__ = method.__name__
    return property(get)


def _as_list(value):
    if value is None:
        return None
    if isinstance(value, (list, set, frozenset)):
        return list(value)
    if isinstance(value, (np.ndarray, pd.Series, pd.Index)):
        return list(value)
    return [value]


def _workgroup_ids(value):
    """(x, y, z) tuples from a tuple, an "x,y,z" string, or a list of them."""
    if isinstance(value, str) or (isinstance(value, tuple) and len(value) == 3
                                  and all(isinstance(v, (int, np.integer)) for v in value)):
        value = [value]
    ids = []
    for item in value:
        if isinstance(item, str):
            parts = item.split(",")
            if len(parts) != 3:
                raise ValueError("workgroup expects x,y,z, got %r" % item)
            item = tuple(int(p) for p in parts)
        item = tuple(int(v) for v in item)
        if len(item) != 3:
            raise ValueError("workgroup expects (x, y, z), got %r" % (item,))
        ids.append(item)
    return ids


def _analysis_filters(dispatch, workgroup):
    """``dispatch`` and ``workgroup`` as the analyses take them: one site
    id, one (x, y, z)."""
    if workgroup is not None:
        ids = _workgroup_ids(workgroup)
        if len(ids) != 1:
            raise ValueError("the analyses take one workgroup, as --workgroup does")
        workgroup = ids[0]
    if dispatch is not None:
        dispatch = int(dispatch)
    return dispatch, workgroup


class Trace:
    """A decoded trace: one file or several (one per process).

    Tables are pandas DataFrames, built on first use: ``kernels``,
    ``sites``, ``workgroups``, ``values``, ``prints``, ``timing``,
    ``rings`` and ``loss``; ``accesses()`` is a numpy structured array.
    Tables of several files keep them apart in a ``file`` column (the index
    into ``paths``). docs/PYTHON.md describes every column.
    """

    def __init__(self, native, paths):
        self._native = native
        self.paths = list(paths)
        self._analyses = {}

    def __repr__(self):
        return "<wgtrace.Trace %s: %d workgroups, %d accesses%s>" % (
            ", ".join(self.paths), len(self.workgroups), self.access_count,
            "" if not self.errors else ", damaged")

    # -- what the files are ------------------------------------------------

    @_cached
    def _sources(self):
        return self._native.sources()

    @_cached
    def errors(self):
        """Where decoding stopped, per damaged file: a list of dicts with
        ``path``, ``message``, ``offset``, ``chunk``, ``chunk_type`` and
        ``problem`` (empty when every file decoded to its end)."""
        sources = self._sources
        return [dict(error, path=path) for path, error in zip(sources["path"], sources["error"])
                if error is not None]

    @_cached
    def rings(self):
        """Every ring chunk and how it was decoded: ``file``, ``chunk``
        (index in the file), ``file_offset`` of the ring's first byte, ring
        ``size``, write ``head``, ``wrapped`` and ``lost_bytes`` (files
        without ring trailers: the head passed the ring size, and the bytes
        of its last lap that could not be shown), ``start_offset`` (ring
        offset of the first record shown), ``has_trailer``, ``ring_id`` and
        ``chunk_sequence`` (wgtrace's ring trailer: which thread's ring, and
        which of its chunks), ``records``, ``workgroup_records`` and
        ``accesses`` decoded."""
        return Frame(self._native.rings())

    @_cached
    def loss(self):
        """The rings that lost records, as the viewer reports them (its
        census): ``file``, ``chunk`` (the ring's last chunk),
        ``file_offset``, ``from_trailer`` (exact counts from wgtrace's ring
        trailer; without one only bytes are known), ``ring_id``,
        ``bytes_recorded``, ``bytes_lost``, ``records_lost`` and
        ``workgroups_lost`` (``<NA>`` when unknown). Empty when nothing was
        lost. ``sites`` says which dispatch sites lost workgroups."""
        columns = self._native.loss()
        for name in ("records_lost", "workgroups_lost"):
            columns[name] = pd.array(columns[name], dtype="UInt64")
        return Frame(columns)

    @property
    def runs(self):
        """How the run behind each file ended, one entry per file (the
        ``"run"`` member of the CLI's JSON reports): ``None`` for a file
        whose writer records no run (IREE's), else a dict with
        ``records`` (one per run record: ``end`` is ``"exit"``,
        ``"signal"``, ``"crash"`` or ``"running"``; ``status``,
        ``signal``, ``signal_name``, ``workgroups``,
        ``uninstrumented_launches``) and ``cut_short`` (the file ends
        before the run record its writer promised)."""
        return [json.loads(text) for text in self._sources["run_json"]]

    @property
    def lost_bytes(self):
        """Bytes of records lost to wrapping rings, over all files."""
        return int(self.loss["bytes_lost"].sum())

    # -- tables --------------------------------------------------------------

    @_cached
    def _kernel_names(self):
        return self._native.kernel_names()

    def _kernel_column(self, codes):
        # Names that differ only in bytes that are not UTF-8 read the same
        # in Python: one category each.
        names, codes_of_names = np.unique(np.asarray(self._kernel_names, dtype=object),
                                          return_inverse=True)
        return pd.Categorical.from_codes(codes_of_names[np.asarray(codes, dtype=np.int64)],
                                         categories=pd.Index(names, dtype=object))

    @_cached
    def kernels(self):
        """The instrumented functions of the metadata: ``file``, ``name``,
        ``target``, ``layout``, ``source`` (``None`` where the metadata has
        no such field)."""
        return Frame(self._native.functions())

    @_cached
    def sites(self):
        """Dispatch sites of the metadata: ``file``, ``site`` (its id, as
        ``wgtrace-view dump`` numbers it), ``kernel``, ``location``
        (``file:line`` of the ``wgtrace::dispatch`` call), ``direct`` (the
        site standing for direct calls of the kernel), and what the trace
        holds of it: ``workgroups`` (invocations with a surviving record),
        ``workgroups_lost`` (overwritten, per the ring trailers) and
        ``launches``."""
        columns = self._native.sites()
        columns["kernel"] = self._kernel_column(columns["kernel"])
        return Frame(columns)

    @_cached
    def access_sites(self):
        """The access expressions the rewriter numbered (wgtrace's metadata;
        empty for other files): ``file``, ``access_site`` (the id that
        ``accesses()`` rows carry), ``source_file``, ``line``, ``column``,
        ``scope`` (the function containing it), ``text`` (the expression)
        and ``kind`` (``Load``, ``Store``, ``Update``, ``Call``)."""
        return Frame(self._native.access_sites())

    @_cached
    def buffers(self):
        """The buffers accesses fall in, as the viewer's reader resolves
        them (files whose kernels' buffer parameters are recorded; empty for
        others), indexed by ``buffer`` (the number ``accesses()`` rows
        carry): ``file``, ``kernel``, ``name`` and ``type`` of the
        parameter, ``ordinal`` (its index among the kernel's buffer
        parameters), ``base`` (the address the invocation passed),
        ``extent`` (bytes, ``<NA>`` when the type does not say) and
        ``label`` (how the CLI's reports name it)."""
        columns = self._native.buffers()
        columns["kernel"] = self._kernel_column(columns["kernel"])
        columns["extent"] = pd.array(columns["extent"], dtype="UInt64")
        frame = Frame(columns)
        frame.index.name = "buffer"
        return frame

    @_cached
    def untraced(self):
        """Accesses in the source that the rewriter could not wrap, so that
        the trace does not have them: ``file``, ``source_file``, ``line``,
        ``column``, ``scope``, ``text`` and ``reason``."""
        return Frame(self._native.untraced())

    @_cached
    def workgroups(self):
        """One row per workgroup, indexed by ``workgroup`` (the number that
        ``accesses()`` rows carry): ``file``, ``site``, ``kernel``,
        ``launch`` (ordinal of the launch among its site's launches),
        ``wg_x``, ``wg_y``, ``wg_z``, ``count_x``, ``count_y``, ``count_z``
        (the grid), ``processor``, ``loads``, ``stores``, ``load_bytes``,
        ``store_bytes``, ``values``, ``prints``, ``pieces`` (copies of its
        WORKGROUP record: more than 1 when stream mode, a wrap or a nested
        kernel split it), ``beginning_lost`` (its first records were
        overwritten), ``selected`` (False for a workgroup that
        ``WGTRACE_FILTER`` left out: it ran and recorded nothing else;
        the analyses leave it out), ``chunk`` and ``ring_offset`` of its first WORKGROUP
        record, and with timing chunks ``start_ns``, ``end_ns``,
        ``duration_ns`` (``<NA>`` without)."""
        columns = self._native.workgroups()
        timed = columns.pop("timed")
        columns["kernel"] = self._kernel_column(columns["kernel"])
        for name in ("start_ns", "end_ns"):
            columns[name] = pd.arrays.IntegerArray(columns[name], ~timed)
        columns["duration_ns"] = columns["end_ns"] - columns["start_ns"]
        frame = Frame(columns)
        frame.index.name = "workgroup"
        return frame

    def _with_workgroups(self, columns, workgroup):
        """``columns`` (a dict) preceded by ``workgroup`` (the rows'
        workgroup indices) and the identity of each row's workgroup."""
        workgroups = self.workgroups
        workgroup = np.asarray(workgroup, dtype=np.int64)
        out = {"workgroup": workgroup}
        for name in _WORKGROUP_COLUMNS:
            out[name] = workgroups[name].take(workgroup).reset_index(drop=True)
        out.update(columns)
        return Frame(out)

    @_cached
    def values(self):
        """``WGTRACE_VALUE`` records: the workgroup columns, ``ordinal``,
        ``type`` (``i8``, ``u8``, ..., ``f32``, ``f64``, ``bf16``, ``ptr``),
        ``value`` (a Python int or float, exact) and ``bits`` (the raw 64
        bits), in file order."""
        columns = self._native.values()
        workgroup = columns.pop("workgroup")
        names = _wgtrace.value_type_names
        columns["type"] = pd.Categorical.from_codes(
            np.minimum(columns["type"].astype(np.int64), len(names)),
            categories=names + ["unknown"])
        columns["value"] = pd.Series(columns["value"], dtype=object)
        return self._with_workgroups(columns, workgroup)

    @_cached
    def prints(self):
        """``WGTRACE_PRINTF`` records: the workgroup columns and ``text``."""
        columns = self._native.prints()
        workgroup = columns.pop("workgroup")
        columns["text"] = pd.Series(columns["text"], dtype=object)
        return self._with_workgroups(columns, workgroup)

    @_cached
    def timing(self):
        """Timing chunk entries (``WGTRACE_TIMING=1``): the workgroup
        columns, ``start_ns``, ``end_ns`` and ``duration_ns`` (steady clock);
        ``processor`` is the entry's own. Empty without timing chunks."""
        columns = self._native.timing()
        workgroup = columns.pop("workgroup")
        processor = columns.pop("processor")
        frame = self._with_workgroups({}, workgroup)
        frame["processor"] = processor
        frame["start_ns"] = columns["start_ns"]
        frame["end_ns"] = columns["end_ns"]
        frame["duration_ns"] = columns["end_ns"] - columns["start_ns"]
        return frame

    # -- accesses ------------------------------------------------------------

    @property
    def access_count(self):
        """Loads and stores in the trace."""
        workgroups = self.workgroups
        return int(workgroups["loads"].sum() + workgroups["stores"].sum())

    def selection(self, kernel=None, dispatch=None, workgroup=None, launch=None,
                  processor=None, file=None, chunk=None):
        """A boolean mask over ``workgroups``: the workgroups that every
        given filter accepts (each takes one value or a list):
        ``kernel`` (function names or globs, as ``wgtrace-view --kernel``:
        ``"matmul*"``), ``dispatch`` (site ids, as ``--dispatch``),
        ``workgroup`` (``(x, y, z)`` or ``"x,y,z"``, as ``--workgroup``),
        ``launch`` (ordinals), ``processor``, ``file`` (indices into
        ``paths``), ``chunk`` (the chunk holding the workgroup's first
        record: ``workgroups["chunk"]``)."""
        workgroups = self.workgroups
        mask = np.ones(len(workgroups), dtype=bool)
        patterns = _as_list(kernel)
        if patterns is not None:
            names = workgroups["kernel"].cat.categories
            chosen = [n for n in names
                      if any(n == p or fnmatch.fnmatchcase(n, p) for p in patterns)]
            mask &= workgroups["kernel"].isin(chosen).to_numpy()
        for column, wanted in (("site", dispatch), ("launch", launch),
                               ("processor", processor), ("file", file), ("chunk", chunk)):
            wanted = _as_list(wanted)
            if wanted is not None:
                mask &= workgroups[column].isin(wanted).to_numpy()
        if workgroup is not None:
            ids = _workgroup_ids(workgroup)
            xyz = workgroups[["wg_x", "wg_y", "wg_z"]].to_numpy(dtype=np.int64)
            chosen = np.zeros(len(workgroups), dtype=bool)
            for x, y, z in ids:
                chosen |= (xyz[:, 0] == x) & (xyz[:, 1] == y) & (xyz[:, 2] == z)
            mask &= chosen
        return mask

    def accesses(self, kernel=None, dispatch=None, workgroup=None, launch=None,
                 processor=None, file=None, chunk=None, as_frame=False):
        """Loads and stores, in file order, as a numpy structured array
        (``wgtrace.ACCESS_DTYPE``, 48 bytes a row): ``address``,
        ``workgroup`` (index into ``workgroups``), ``site``, ``launch``,
        ``wg_x``, ``wg_y``, ``wg_z``, ``processor``, ``buffer`` (index into
        ``buffers``: the kernel parameter the access falls in; -1 for
        none), ``length``, ``access_site`` (the access expression, in
        ``access_sites``; 0 for none) and ``kind`` (``wgtrace.LOAD`` 0 or
        ``wgtrace.STORE`` 1).

        The filters are those of :meth:`selection`. The file is decoded
        again, in C++, straight into the array. ``as_frame=True`` returns a
        DataFrame instead, whose columns are views of that array (no copy),
        with ``kind`` as ``"load"``/``"store"``, ``buffer`` as the
        buffer's label (``NaN`` for none), each row's ``kernel``, ``file``
        for several files, and, where the trace numbers its access sites,
        ``source``: the ``file:line`` of the access."""
        selected = None
        if any(f is not None
               for f in (kernel, dispatch, workgroup, launch, processor, file, chunk)):
            selected = self.selection(kernel=kernel, dispatch=dispatch, workgroup=workgroup,
                                      launch=launch, processor=processor, file=file,
                                      chunk=chunk)
            selected = selected.astype(np.uint8)
        rows = self._native.accesses(selected)
        if not as_frame:
            return rows
        # Columns are views into the array (no copy of millions of rows);
        # kind, kernel, buffer and source become categoricals whose codes
        # one C++ pass writes per row (_wgtrace.frame_codes), in the width
        # pandas keeps, without numpy's int64 index temporaries.
        columns = {}
        workgroups = self.workgroups
        file_of = workgroups["file"].to_numpy()
        if len(self.paths) > 1:
            columns["file"] = _wgtrace.frame_codes(rows, "workgroup",
                                                   file_of).view(file_of.dtype)
        for name in rows.dtype.names:
            columns[name] = rows[name]
            if name == "workgroup":
                kernels = workgroups["kernel"].array
                columns["kernel"] = _categorical(
                    rows, "workgroup", np.asarray(kernels.codes), kernels.categories)
        buffers = self.buffers
        labels, codes_of_buffers = np.unique(buffers["label"].to_numpy(dtype=object),
                                             return_inverse=True)
        columns["buffer"] = _categorical(rows, "buffer", np.append(-1, codes_of_buffers),
                                         pd.Index(labels, dtype=object))
        if len(self.access_sites):
            columns["source"] = self._source_column(rows, file_of)
        columns["kind"] = _categorical(rows, "kind", np.arange(len(_KINDS)), _KINDS)
        # 0/1 bytes: the same memory read as booleans, still no copy.
        columns["atomic"] = rows["atomic"].view(np.bool_)
        columns["critical"] = rows["critical"].view(np.bool_)
        return Frame(columns, copy=False)

    def _source_column(self, rows, file_of):
        """"file:line" of each row's access site (NaN: none, or a site the
        metadata does not list)."""
        sites = self.access_sites
        places = (sites["source_file"] + ":" + sites["line"].astype(str)).to_numpy()
        names, codes_of_sites = np.unique(places, return_inverse=True)
        table = np.full((len(self.paths), 1 << 16), -1, dtype=np.int64)
        table[sites["file"].to_numpy(), sites["access_site"].to_numpy()] = codes_of_sites
        return _categorical(rows, "file_access_site", table.ravel(),
                            pd.Index(names, dtype=object), file_of)

    # -- analyses (the CLI's, as DataFrames) ---------------------------------

    def _analysis(self, kind, kernel=None, dispatch=None, workgroup=None, **options):
        """The parsed --json output of ``wgtrace-view <kind>`` with the
        CLI's filters, per file. Raises TraceError where the CLI says there
        is nothing to analyse (exit status 2)."""
        dispatch, workgroup = _analysis_filters(dispatch, workgroup)
        # The threads change how fast, never what: not part of the key.
        threads = options.pop("threads", None)
        key = (kind, kernel, dispatch, workgroup, tuple(sorted(options.items())))
        if key not in self._analyses:
            results = []
            for file, path in enumerate(self.paths):
                result = self._native.analysis(file, kind, kernel=kernel, dispatch=dispatch,
                                               workgroup=workgroup,
                                               threads=threads if kind in ("summary", "races", "footprint")
                                               else 1, **options)
                if result["nothing"]:
                    raise TraceError("%s: %s" % (path, result["nothing"]), path=path)
                results.append(analyses.parse(result["json"]))
            self._analyses[key] = results
        return self._analyses[key]

    def summary(self, by="workgroup", line_size=64, threads=None, **filters):
        """``wgtrace-view summary --json`` as a DataFrame; see
        :func:`wgtrace.summary`."""
        return analyses.summary(self, by=by, line_size=line_size, threads=threads, **filters)

    def footprint(self, table="ranges", threads=None, **filters):
        """``wgtrace-view footprint --json`` as a DataFrame; see
        :func:`wgtrace.footprint`."""
        return analyses.footprint(self, table=table, threads=threads, **filters)

    def races(self, limit=100, threads=None, **filters):
        """``wgtrace-view races --json`` as a DataFrame; see
        :func:`wgtrace.races`."""
        return analyses.races(self, limit=limit, threads=threads, **filters)

    def cache(self, l1=None, l2=None, ll=None, cold=False, by="workgroup", **options):
        """``wgtrace-view cache --json``; see :func:`wgtrace.cache`."""
        return analyses.cache(self, l1=l1, l2=l2, ll=ll, cold=cold, by=by, **options)

    def annotate(self, l1=None, l2=None, ll=None, cold=False, **options):
        """``wgtrace-view annotate --json`` per source line; see
        :func:`wgtrace.annotate`."""
        return analyses.annotate(self, l1=l1, l2=l2, ll=ll, cold=cold, **options)

    def reuse_distance(self, l1=None, cold=False, **options):
        """The reuse-distance histogram of ``wgtrace-view cache --json``;
        see :func:`wgtrace.reuse_distance`."""
        return analyses.reuse_distance(self, l1=l1, cold=cold, **options)
