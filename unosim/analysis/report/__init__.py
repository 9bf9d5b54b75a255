"""Summaries of simulation results: loading, reports, comparisons and renderers.

Data flows one way: Parquet result files -> per-source aggregates -> a long table of
figures (:class:`Report`) -> renderers (text, markdown, CSV, JSON) and plots.

Design choices (documented here because they change numbers):

* **One pass, only the needed columns.** Reports stream each file one record batch at
  a time (pyarrow column projection, at most one row group per batch) and keep only
  exact integer histograms and counts, so a 10-million-row file reports in a few seconds
  and a few hundred MB. Means, standard deviations and quantiles are computed exactly
  from those histograms (every summarised column is a small non-negative integer).
  Quantiles use numpy's default ("linear") definition.
* **Sources and labels.** A *source* is one Parquet file, or one leaf directory of a
  dataset (a sweep's point): each is a different config. Its label is the
  config's ``name`` from the metadata; names that clash are suffixed with the file stem
  (or the partition path): ``standard:run2``.
* **Denominators.** Win shares (per seat, relative to the dealer, per team, per bot)
  are over *decided* hands (stalled hands have no winner, R13), so they sum to 1; the
  stalled share is reported separately over all hands. Game length and the counters are
  over all hands: a stall is a real outcome of a config and costs ``max_turns`` turns.
* **Bots.** A per-bot section appears when the bots differ across seats or the file has
  ``bot_<s>`` columns. ``win_share`` is wins / decided hands; ``win_per_seat`` is wins per
  seat held (seat-hands), whose fair value is 1 / players whatever the seat allocation.
  A bot's key is its label (``unosim.run.seating.bot_label``): the name its config seat
  gives it (``name = "tuned"``, as a bot file has), else its strategy and changed
  parameters; the report's ``bots:`` line says once what a name stands for.
* **Matches (S1-S3).** One row per match and system is taken where ``pos_end`` /
  ``neg_end`` is true. The match winner under S1 is every side at the highest total,
  under S2 every side at the lowest; a k-way tie gives each tied seat 1/k (team members
  show the team total, so a winning team of two gives each member 1/2 and the team 1).
  Hands per match counts every hand played up to the end, stalled ones included.
  S2 is skipped under ``finish = "last_standing"``, where docs/rules.md leaves it undefined.
* **Seat-rotated runs** (``rotation`` column): the rotations of one deal (match,
  tournament) play the same cards, so every share and mean of such a run treats the deal
  (the ``hand`` index; in match and tournament runs the match or tournament) as one
  cluster: the hand shares (stalled, seat, after the dealer, team, bot, wins per seat
  held), the match shares (seat, team, bot, agreement), the champion shares and the means
  (game length, counters, hands per match, final totals) are totals over all plays, their
  interval the cluster-robust one (``unosim.analysis.stats.clustered_share``,
  ``clustered_mean``), the number of clusters in the row's ``clusters`` column.  The hand
  figures keep per-cluster counts and sums for it (:class:`.stream.ClusterSums`: one byte
  per deal and share, about 180 MB for 10 million deals of 4 seats and 4 bots, and four
  bytes per deal and mean column).
* **Intervals.** 95% by default: Wilson for shares, Student t for means (clustered in
  rotated runs, above); comparisons use Newcombe's hybrid score interval and Welch's
  interval (a rotated run's figures: their clustered intervals combined,
  ``unosim.analysis.stats.diff_intervals``; two hand runs with the same hand indices, as
  one seed gives and every sweep point has: paired hand by hand, :mod:`.paired`), with
  Cohen's h (shares) and Cohen's d (means) as effect sizes, all ``other - baseline``
  (see ``unosim.analysis.stats``).

Modules, in the order data flows through them: :mod:`.model` (the table columns and
:class:`Report`), :mod:`.sources` (discovery, labels, :func:`load`), :mod:`.stream` (the
one pass over the needed columns), :mod:`.hands` and :mod:`.matches` (the figures),
:mod:`.paired` (two runs on the same deals, hand by hand), :mod:`.summary`,
:mod:`.compare` and :mod:`.balance` (the report functions) and
:mod:`.render` (text, markdown, CSV, JSON). The names below are the public API: the CLI,
the plots and the notebooks import them from ``unosim.analysis.report``.
"""

from unosim.analysis.report.balance import balance_report
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
