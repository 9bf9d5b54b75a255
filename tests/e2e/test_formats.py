"""Which format best crowns the better player (unosim.studies.formats): one strong bot
against B0 bots in a single hand, a match under S1, S2, S4 and a T1 tournament."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from unosim.analysis import report as rp
from unosim.studies.formats import FORMATS, format_report, formats_config, play_formats, plot_formats
from unosim.run.tournaments import tournament_outcomes


def test_formats_report_pools_every_seat_and_plots(tmp_path: Path) -> None:
    runs = play_formats("counter", "random", hands=300, matches=8, tournaments=8, seed=2, out=tmp_path)
    assert [len(runs[k]) for k in ("hands", "matches", "tournaments")] == [1, 4, 4]
    assert [formats_config("counter", at=i).seats[i][0] for i in range(4)] == ["counter"] * 4
    rep = format_report(runs, "counter")
    t = rep.table.set_index("key")
    assert list(t.index) == [name for name, *_ in FORMATS]
    assert t.loc["single hand", "n"] == 300 * 4, "every deal once per seat rotation"
    # ... so its interval is the rotated run's own, a deal one cluster (not Wilson over 1,200 hands)
    hand = rp.summarize(runs["hands"]).table
    own = hand[(hand["section"] == "bot") & (hand["figure"] == "win_share") & (hand["key"] == "counter")].iloc[0]
    assert own["clusters"] == 300
    assert (t.loc["single hand", "low"], t.loc["single hand", "high"]) == (own["low"], own["high"])
    assert (t["low"] <= t["value"]).all() and (t["value"] <= t["high"]).all() and (t["even_share"] == 0.25).all()
    # the tournament share is the strong bot's champion credit, pooled over its player numbers
    credit = sum(tournament_outcomes(p)[f"pos_win_{i}"].sum() for i, p in enumerate(runs["tournaments"]))
    assert t.loc["tournament S1", "successes"] == pytest.approx(credit) and t.loc["tournament S1", "n"] == 8
    ms = [pd.read_parquet(p) for p in runs["matches"]]
    assert sum(m.match.nunique() for m in ms) == t.loc["match S4", "n"] == 8
    assert "single hand" in rp.render(rep, "text")
    fig = plot_formats(rep, path=tmp_path / "formats.png")
    assert (tmp_path / "formats.png").stat().st_size > 0 and len(fig.axes[0].patches) == len(FORMATS)
