"""The exception and warning that wgtrace raises about trace files."""


class TraceError(Exception):
    """A trace file is damaged, or changed since it was opened.

    ``str(error)`` is the viewer's message: ``<path>: offset 0x<file
    offset>: chunk <N> (<type>): <problem>``. The attributes say the same
    apart (``None`` where they do not apply):

    - ``path``: the file;
    - ``offset``: file offset of the damaged bytes;
    - ``chunk``: index of the damaged chunk (0 is the first);
    - ``chunk_type``: ``"metadata"``, ``"ring"``, ``"timing"``, ``"type N"``
      or ``"unknown"`` (the header itself is unreadable);
    - ``problem``: what is wrong there;
    - ``trace``: when raised by :func:`wgtrace.open`, the
      :class:`wgtrace.Trace` of everything decoded before the damage (what
      ``wgtrace.open(path, partial=True)`` returns).
    """

    def __init__(self, message, path=None, offset=None, chunk=None, chunk_type=None,
                 problem=None, trace=None):
        super().__init__(message)
        self.path = path
        self.offset = offset
        self.chunk = chunk
        self.chunk_type = chunk_type
        self.problem = problem
        self.trace = trace


class TraceWarning(UserWarning):
    """Something is missing from a trace that opened: records lost when a
    ring wrapped, or (with ``partial=True``) everything after damage."""
