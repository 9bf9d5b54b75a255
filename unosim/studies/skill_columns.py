"""Every column of a skill folder's table: its type, unit and meaning (docs/data.md's
skill block is generated from here)."""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

import pyarrow as pa

from unosim.run.columns import type_text
from unosim.studies.skill_index import SkillPoint, skill_frame

__all__ = ["SKILL_ABOUT", "describe_skill", "skill_markdown", "skill_schema"]


# The skill table (skill.parquet, `unosim skill`): column -> (unit, meaning).  ``<f>`` stands
# for share, low, high, norm, norm_low, norm_high: the figures of share .. norm_high.
SKILL_ABOUT: dict[str, tuple[str, str]] = {
    "label": ("text", "the sweep point: what it changes from the base, with its table size"),
    "rules": ("text", "what the point changes, without its table size (base: the sweep's base rules)"),
    "players": ("seats", "the table size"),
    "is_base": ("flag", "the point is the sweep's base rules at its table size"),
    "partition": ("JSON", "the point's varied keys and their values"),
    "even": ("share", "an even share, 1/n (1/teams under H12)"),
    "share": ("share", "the tuned bot's win share at a table of B0 bots, every deal once per rotation (the mean "
              "over the replicates)"),
    "low": ("share", "share's 95% interval, low end (with several replicates the search's noise included)"),
    "high": ("share", "share's 95% interval, high end"),
    "skill": ("share", "share - even"),
    "skill_low": ("share", "low - even"),
    "skill_high": ("share", "high - even"),
    "skill_norm": ("fraction", "the skill index: (share - even) / (1 - even); 0 a game of luck, 1 the tuned bot "
                   "always wins"),
    "norm_low": ("fraction", "skill_norm's 95% interval, low end"),
    "norm_high": ("fraction", "skill_norm's 95% interval, high end"),
    "edge_tuned": ("share", "the first player's win share - even, every seat the tuned bot"),
    "edge_tuned_low": ("share", "edge_tuned's 95% interval, low end"),
    "edge_tuned_high": ("share", "edge_tuned's 95% interval, high end"),
    "edge_b0": ("share", "the first player's win share - even, every seat B0"),
    "edge_b0_low": ("share", "edge_b0's 95% interval, low end"),
    "edge_b0_high": ("share", "edge_b0's 95% interval, high end"),
    "bot": ("path", "the tuned bot's file (_points/<point>/replicate=<r>/bot.toml with several), or the --bot"),
    "settings": ("JSON", "budget, deals, check_deals, seed, replicates and --bot: what resuming compares"),
    "seconds": ("seconds", "time spent on the point (its replicates added)"),
    "replicates": ("count", "tunings combined"),
    "replicate_sd": ("fraction", "skill_norm's standard deviation over the replicates"),
    "norm_se": ("fraction", "skill_norm's standard error, the search's noise included"),
    "df": ("count", "the intervals' Student t degrees of freedom (NaN: normal)"),
    "ceiling_<f>": ("share, fraction", "share .. norm_high of the search player (no tuning) at a table of B0 bots"),
    "counter_<f>": ("share, fraction", "share .. norm_high of the tuned bot at a table of counter bots"),
    "ceiling_counter_<f>": ("share, fraction", "share .. norm_high of the search player at a table of counter bots"),
    "ceiling_bot": ("text", "the search player measured"),
    "ceiling_deals": ("deals", "deals per field measuring the search"),
    "ceiling_seconds": ("seconds", "time spent measuring the point's ceiling"),
    "ceiling_diff_se": ("fraction", "the standard error of ceiling_norm minus the base point's, paired by deal "
                        "(NaN for the base point)"),
}


def describe_skill(name: str) -> tuple[str, tuple[str, str]]:
    """(the catalogue's name, its entry) of a skill table column; KeyError for one it lacks."""
    if name in SKILL_ABOUT:
        return name, SKILL_ABOUT[name]
    m = re.fullmatch(r"(ceiling_counter|ceiling|counter)_(share|low|high|norm|norm_low|norm_high)", name)
    if m is not None:
        return f"{m.group(1)}_<f>", SKILL_ABOUT[f"{m.group(1)}_<f>"]
    raise KeyError(f"column {name!r} is not described in unosim.studies.skill_columns.SKILL_ABOUT")


def skill_schema(ceiling: bool = True) -> pa.Schema:
    """The schema of skill.parquet as `unosim skill` writes it (``ceiling``: with --ceiling)."""
    blank = {"str": "", "int": 0, "bool": False, "float": 0.0, "str | None": "search" if ceiling else None}
    point = SkillPoint(**{f.name: blank[str(f.type)] for f in fields(SkillPoint)})
    return pa.Table.from_pandas(skill_frame([point]), preserve_index=False).schema.remove_metadata()


def skill_markdown() -> str:
    """docs/data.md's table of the skill table's columns."""
    plain = set(skill_schema(ceiling=False).names)
    rows: dict[str, list[Any]] = {}
    for f in skill_schema():
        name, (unit, meaning) = describe_skill(f.name)
        rows.setdefault(name, [type_text(f.type), unit, meaning, "" if f.name in plain else "with --ceiling"])
    out = ["| column | type | unit | meaning | written |", "|---|---|---|---|---|"]
    out += [f"| `{name}` | {kind} | {unit} | {meaning} | {when} |" for name, (kind, unit, meaning, when) in rows.items()]
    return "\n".join(out)
