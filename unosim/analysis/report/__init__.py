"""Summaries of simulation results: loading, reports, comparisons and renderers.

Parquet results -> per-source aggregates (:mod:`.sources`, :mod:`.stream`) -> figures ->
a long table (:class:`Report`) -> reports -> renderers and plots.  The choices that change
numbers: docs/design.md, "Reports".
"""

from unosim.analysis.report.balance import BALANCE_SORTS, balance_report, sort_balance
from unosim.analysis.report.compare import compare
from unosim.analysis.report.model import (BASE_COUNTERS, HOUSE_COUNTERS, LENGTH_COLUMNS, TABLE_COLUMNS,
                                          Report)
from unosim.analysis.report.render import render, to_csv, to_json, to_markdown, to_text
from unosim.analysis.report.sources import Result, load
from unosim.analysis.report.stream import hist_quantile
from unosim.analysis.report.summary import hand_report, match_report, summarize
from unosim.run.schema import RunInfo

# ``print(report)`` shows the text table.  The method is attached here, where the model and
# its renderers meet, so that model.py (which every renderer imports) imports none of them:
# importing any module of this package runs this file first, so every Report has it.
Report.__str__ = to_text  # type: ignore[method-assign]

__all__ = [
    "RunInfo",
    "Result",
    "Report",
    "load",
    "hand_report",
    "match_report",
    "summarize",
    "compare",
    "balance_report",
    "sort_balance",
    "BALANCE_SORTS",
    "to_text",
    "to_markdown",
    "to_csv",
    "to_json",
    "render",
    "hist_quantile",
    "LENGTH_COLUMNS",
    "BASE_COUNTERS",
    "HOUSE_COUNTERS",
    "TABLE_COLUMNS",
]
