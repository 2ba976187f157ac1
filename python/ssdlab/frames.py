"""Tables: pandas DataFrames where pandas is installed, lists of dicts
where it is not.  pandas is imported on first use, never at import: a
module without pandas loads and works the same."""

_pd = None


def have_pandas():
    """Whether pandas can be imported."""
    global _pd
    if _pd is None:
        try:
            import pandas
            _pd = pandas
        except ImportError:
            _pd = False
    return _pd is not False


def frame(rows, index=None):
    """rows (a list of dicts) as a DataFrame indexed by `index`, or the
    list itself without pandas."""
    if not have_pandas():
        return rows
    df = _pd.DataFrame(rows)
    if index is not None and index in df.columns:
        df = df.set_index(index)
    return df
