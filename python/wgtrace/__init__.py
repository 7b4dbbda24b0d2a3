"""wgtrace traces in numpy and pandas.

    import wgtrace
    t = wgtrace.open("trace.bin")          # or a list of files
    t.workgroups                           # DataFrame, one row per workgroup
    a = t.accesses(kernel="transpose")     # numpy structured array
    wgtrace.summary(t, by="kernel")        # wgtrace-view summary --json

The decoding is the viewer's (wgtrace-view), in C++: what the CLI shows,
this module shows. docs/PYTHON.md in the wgtrace repository describes every
table and column.
"""

from ._errors import TraceError, TraceWarning
from ._wgtrace import __version__
from .analyses import annotate, cache, footprint, races, reuse_distance, summary
from .trace import ACCESS_DTYPE, LOAD, STORE, Trace, open

__all__ = [
    "__version__", "ACCESS_DTYPE", "LOAD", "STORE", "Trace", "TraceError", "TraceWarning",
    "annotate", "cache", "footprint", "open", "races", "reuse_distance", "summary",
]
