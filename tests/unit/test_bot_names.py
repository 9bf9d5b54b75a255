"""A bot the config names (``{name = "tuned", strategy = "weights", ...}``, as a bot file
pastes in) is labelled by that name in rows, reports and legends, and its parameters are
listed once, in the bots line.  Nothing here compiles: configs, labels and text only."""

from __future__ import annotations

import numpy as np
import pytest

from cli_checks import invoke, one_error
from unosim.rules.config import ConfigError, parse_config, to_params
from unosim.run.bots_text import bot_text, seating_text
from unosim.run.seating import SeatRotation, bot_label

TUNED = {"strategy": "weights", "w_wild": -3.39, "w_draw4": -1.99, "w_action": 0.94, "w_points": 0.025,
         "w_color_share": 3.08, "w_matches_number": -1.39, "w_attack_next": 4.3, "w_copies": 1.74,
         "w_next_color_odds": -3.75, "w_wild_hand": -1.37, "w_attack_leader": -1.47, "draw_score": -9.44,
         "bluff_rate": 0.0004, "challenge_rate": 0.02}


def _cfg(first):
    return parse_config({"name": "t", "table": {"players": 2}, "bots": {"seats": [first, "counter"]}})


def test_a_named_seat_is_labelled_by_its_name_and_plays_as_the_unnamed_one():
    named, plain = _cfg({"name": "tuned-2p", **TUNED}), _cfg(TUNED)
    assert np.array_equal(to_params(named), to_params(plain))  # the kernel never sees the name
    assert SeatRotation(named).labels == ["tuned-2p", "counter"]
    assert bot_label(*named.seats[0]) == "tuned-2p"
    # without a name: the full parameter list, 14 of them
    assert bot_label(*plain.seats[0]).count("=") == 14
    # the bots line says once what the name stands for
    text = seating_text(named.seats)
    assert text.startswith("tuned-2p = weights (w_wild -3.39, ") and text.endswith(", counter")
    assert bot_text(*named.seats[0], max_params=2) == "tuned-2p = weights (w_wild -3.39, w_draw4 -1.99, +12 more)"
    # the canonical TOML keeps it, so a written config plays the same bot under the same name
    again = parse_config(__import__("tomllib").loads(named.to_toml()))
    assert again.seats == named.seats


@pytest.mark.parametrize("bad", ["", "  ", 3, True])
def test_a_bad_seat_name_is_one_line(bad):
    with pytest.raises(ConfigError, match=r"^bots\.seats\[0\]\.name: expected a non-empty string"):
        _cfg({"name": bad, **TUNED})


def test_cli_bad_seat_name(tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text('[table]\nplayers = 2\n[bots]\nseats = [{name = 3, strategy = "counter"}, "random"]\n')
    one_error(invoke("run", cfg, "--hands", "10", "--out", tmp_path / "out"), "bots.seats[0].name",
              "non-empty string")


def test_one_name_for_two_different_bots_is_refused():
    """Reports count a bot's wins by its label, so two seats called "tuned" that are not the
    same bot would be one bot winning every hand: the config is refused, naming both seats;
    one name for one bot at several seats is fine, and so are two unnamed bots."""
    with pytest.raises(ConfigError, match=r"^bots\.seats\[1\]: called 'x' like bots\.seats\[0\], but a different "
                                          r"bot \(counter / greedy\); give them different names"):
        parse_config({"table": {"players": 2}, "bots": {"seats": [{"name": "x", "strategy": "counter"},
                                                                  {"name": "x", "strategy": "greedy"}]}})
    with pytest.raises(ConfigError, match=r"^bots\.seats\[2\]: called 'tuned' like bots\.seats\[0\], but a "
                                          r"different bot \(other parameters\)"):
        parse_config({"table": {"players": 3}, "bots": {"seats": [{"name": "tuned", **TUNED}, "counter",
                                                                  {"name": "tuned", **TUNED, "w_wild": 1.0}]}})
    # a search is labelled by its rollout bot's name: two searches over two bots of one name clash too
    inner = [{"strategy": "search", "rollout_bot": {"name": "t", **TUNED, "w_wild": w}} for w in (1.0, 2.0)]
    with pytest.raises(ConfigError, match=r"called 'search\(rollout_bot=t\)'"):
        parse_config({"table": {"players": 2}, "bots": {"seats": inner}})
    same = parse_config({"table": {"players": 3}, "bots": {"seats": [{"name": "tuned", **TUNED}, "counter",
                                                                     {"name": "tuned", **TUNED}]}})
    assert SeatRotation(same).labels == ["tuned", "counter", "tuned"]


def test_cli_one_name_for_two_bots(tmp_path):
    cfg = tmp_path / "clash.toml"
    cfg.write_text('[table]\nplayers = 2\n[bots]\nseats = [{name = "x", strategy = "counter"}, '
                   '{name = "x", strategy = "greedy"}]\n')
    one_error(invoke("run", cfg, "--hands", "10", "--out", tmp_path / "out"), "bots.seats[1]", "called 'x'",
              "give them different names")


def test_tuned_bots_are_named_by_field_and_objective():
    """unosim tune's default name: two bots tuned for another field or objective never share one."""
    from unosim.rules.botfile import resolve_bot
    from unosim.rules.config import default_config
    from unosim.studies.tune import default_name

    cfg = default_config(players=4)
    assert default_name(cfg, [resolve_bot("random")]) == "tuned-standard-4p"
    assert default_name(cfg, [resolve_bot("counter")]) == "tuned-standard-4p-vs-counter"
    assert default_name(cfg, [resolve_bot("counter"), resolve_bot("greedy"), resolve_bot("counter")],
                        "points") == "tuned-standard-4p-vs-counter+greedy-points"
    assert default_name(cfg, [resolve_bot("random")], "matches:s2") == "tuned-standard-4p-matches-s2"


def test_a_league_refuses_two_bots_of_one_name(tmp_path):
    from unosim.rules.botfile import Bot, dump_bot
    from unosim.rules.strategies import STRATEGIES

    params = {p: d for p, (d, _) in STRATEGIES["weights"][1].items()}
    for stem, w in (("a", 1.0), ("b", 2.0)):
        (tmp_path / f"{stem}.toml").write_text(dump_bot(Bot("tuned", "weights", {**params, "w_wild": w})))
    res = invoke("league", "standard", "--players", 2, "--bots", f"{tmp_path / 'a.toml'},{tmp_path / 'b.toml'},counter",
                 "--out", tmp_path / "lg")
    one_error(res, "--bots: two different bots are both called tuned", "give one another name")
    res = invoke("league", "standard", "--players", 2, "--bots", f"{tmp_path / 'a.toml'},{tmp_path / 'a.toml'},counter",
                 "--out", tmp_path / "lg")
    one_error(res, "--bots: tuned listed twice")


def test_unrotated_reports_label_bots_as_rotated_rows_do(tmp_path):
    """Without ``bot_<s>`` columns the report labels each seat's bot from the metadata: by
    its name, and two bots of one strategy with different parameters stay apart (they
    were both ``weights``)."""
    import json

    import pyarrow.parquet as pq
    from result_files import ten_hands, write_result
    from unosim.analysis import report as rp

    f = write_result(tmp_path / "u.parquet", ten_hands(), bots=["weights", "weights", "counter", "random"])
    table = pq.read_table(f)
    meta = dict(table.schema.metadata)
    meta[b"unosim.bot_params"] = json.dumps([{"name": "tuned-2p", **{k: v for k, v in TUNED.items() if k != "strategy"}},
                                                {"draw_score": 0.5}, {}, {}]).encode()
    pq.write_table(table.replace_schema_metadata(meta), f)
    t = rp.hand_report(f).table
    bots = t[(t["section"] == "bot") & (t["figure"] == "win_share")].set_index("key")["successes"]
    # winners by seat over the 9 decided hands: seat 0 once, 1 three times, 2 three, 3 twice
    assert bots.to_dict() == {"counter": 3, "random": 2, "tuned-2p": 1, "weights(draw_score=0.5)": 3}
    assert "tuned-2p = weights (w_wild -3.39" in rp.to_text(rp.hand_report(f), width=400)


def test_legends_cut_an_unnamed_tuned_bot_as_the_run_lines_do():
    """An unnamed tuned bot's 14-parameter label overflowed the legend and pushed the axes
    aside; legends cut it to ``weights(...)`` (the bots caption lists the parameters)."""
    from unosim.analysis import plots
    from unosim.analysis import report as rp
    from unosim.run.bots_text import short_label

    long = bot_label(*_cfg(TUNED).seats[0])
    assert short_label(long) == "weights(...)" and short_label("counter(suspicion=0.5)") == "counter(suspicion=0.5)"
    rows = [{"label": "t", "section": "bot", "figure": "win_per_seat", "key": k, "stat": "share", "value": v,
             "low": v - 0.01, "high": v + 0.01, "n": 100.0, "successes": 100 * v, "sd": float("nan")}
            for k, v in ((long, 0.52), ("counter", 0.48))]
    import pandas as pd
    rep = rp.Report(kind="summary", table=pd.DataFrame(rows), sources={"t": {"players": "2"}})
    fig = plots.plot_bot_win_share(rep)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["counter", "weights(...)"]
