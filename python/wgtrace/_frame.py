"""The DataFrame every table of this module is.

Kernel, buffer, source, kind and file columns are categoricals: a million
accesses keep one byte or two per row instead of a Python string. pandas
groups categoricals by every category, seen or not, unless asked for
``observed=True`` (and pandas 2.1 and later warn when it is not given):
``frame[frame.kind == "load"].groupby("kind").size()`` would list stores
with 0, and grouping by two categoricals the product of their categories.
A table here groups by the values it holds; ``observed=False`` still asks
for every category.
"""

import pandas as pd


class Series(pd.Series):
    """A column of a wgtrace table (see Frame)."""

    @property
    def _constructor(self):
        return Series

    @property
    def _constructor_expanddim(self):
        return Frame

    def groupby(self, *args, observed=True, **kwargs):
        return super().groupby(*args, observed=observed, **kwargs)


class Frame(pd.DataFrame):
    """A DataFrame whose groupby (and its columns') groups by the values
    present: observed=True by default."""

    @property
    def _constructor(self):
        return Frame

    @property
    def _constructor_sliced(self):
        return Series

    def groupby(self, *args, observed=True, **kwargs):
        return super().groupby(*args, observed=observed, **kwargs)

    def pivot_table(self, *args, observed=True, **kwargs):
        return super().pivot_table(*args, observed=observed, **kwargs)
