"""The shapes of an evening a Seep club plays, as the stages each one is made of.

A preset is a name and a few numbers ("a Swiss of 3 rounds, then the top 4 in a knockout");
``stages_for`` turns it into the settings of each stage, in order, for ``stage_create``. Pure:
no database; the services check every setting again when the stages are saved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: (key, what the desk calls it)
PRESETS: tuple[tuple[str, str], ...] = (
    ("swiss", "a Swiss of N rounds"),
    ("round_robin", "a round robin (everyone plays everyone)"),
    ("swiss_knockout", "a Swiss of N rounds, then the top K in a knockout"),
    ("groups_knockout", "groups, then the top K of each group in a knockout"),
    ("single_elimination", "a single-elimination knockout"),
    ("double_elimination", "a double-elimination knockout"),
)
PRESET_KEYS = frozenset(key for key, _ in PRESETS)
#: the tie-breaks a Swiss uses unless the director says otherwise (docs/competition.md, "The
#: presets' tie-breaks"): who a team met, then by how much it outscored them over the deals
#: (a figure that is almost never level, even in matches of 1 bazzi, where the running
#: difference ends at 0 for everyone and bazzis won only count the wins again), then whom it
#: beat, and head-to-head last (level teams of a Swiss have rarely met)
SWISS_TIEBREAKS = ("buchholz", "points_difference", "sonneborn_berger", "head_to_head")
#: the tie-breaks of a round robin and of groups: everyone has met, so head-to-head first;
#: Buchholz is left out (in a complete round robin it is everyone else's points, the same
#: for every team level on points)
ROUND_ROBIN_TIEBREAKS = ("head_to_head", "points_difference", "sonneborn_berger", "deals_won")
#: the tie-breaks of the league stage each preset makes (a knockout's stage has none: a
#: bracket has no table)
PRESET_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "swiss": SWISS_TIEBREAKS,
    "swiss_knockout": SWISS_TIEBREAKS,
    "round_robin": ROUND_ROBIN_TIEBREAKS,
    "groups_knockout": ROUND_ROBIN_TIEBREAKS,
    "single_elimination": (),
    "double_elimination": (),
}


@dataclass(frozen=True)
class Preset:
    """What the director chose: the shape, its numbers, and what every stage shares."""

    kind: str
    rounds: int | None = None  # a Swiss's rounds
    groups: int | None = None  # groups' count
    top: int | None = None  # K of the top K (per group) going through to the knockout
    mode: str = "score"
    confirmation: str = "other_team"
    match_format: dict[str, Any] = field(default_factory=dict)
    points: tuple[int, int, int, int] = (2, 1, 0, 2)  # win, draw, loss, bye
    tiebreaks: tuple[str, ...] | None = None  # None: the preset's own (PRESET_TIEBREAKS)
    third_place: bool = False
    seeding: str = "manual"


def stages_for(preset: Preset) -> list[dict[str, Any]]:
    """Return the settings of each stage the preset is made of, in order.

    >>> [s["format"] for s in stages_for(Preset("swiss_knockout", rounds=3, top=4))]
    ['swiss', 'single_elimination']
    >>> stages_for(Preset("swiss_knockout", rounds=3, top=4))[1]["entry_count"]
    4
    >>> stages_for(Preset("round_robin"))[0]["tiebreaks"][0]
    'head_to_head'
    """
    if preset.kind not in PRESET_KEYS:
        raise ValueError(f"unknown preset {preset.kind!r}")
    confirmation = preset.confirmation if preset.mode == "score" else "none"
    win, draw, loss, bye = preset.points
    common: dict[str, Any] = {
        "mode": preset.mode,
        "confirmation": confirmation,
        "match_format": dict(preset.match_format),
        "start_matches": True,
    }
    league = {
        **common,
        "points_win": win,
        "points_draw": draw,
        "points_loss": loss,
        "points_bye": bye,
        "tiebreaks": list(
            PRESET_TIEBREAKS[preset.kind] if preset.tiebreaks is None else preset.tiebreaks
        ),
        "seeding": preset.seeding,
    }
    knockout = {
        **common,
        "match_format": {**preset.match_format, "draws": False},
        "third_place": preset.third_place,
        "review_draw": True,  # the desk opens the drawn bracket for review on the start
    }
    if preset.kind == "swiss":
        return [{**league, "name": "Swiss", "format": "swiss", "rounds": preset.rounds}]
    if preset.kind == "round_robin":
        return [{**league, "name": "Round robin", "format": "round_robin"}]
    if preset.kind in ("single_elimination", "double_elimination"):
        name = "Knockout" if preset.kind == "single_elimination" else "Double knockout"
        extra = {"third_place": preset.third_place} if preset.kind == "single_elimination" else {}
        ko = {k: v for k, v in knockout.items() if k != "third_place"}
        return [{**ko, **extra, "name": name, "format": preset.kind, "seeding": preset.seeding}]
    # a league, then a knockout of its top N (of each group)
    if preset.kind == "swiss_knockout":
        first = {**league, "name": "Swiss", "format": "swiss", "rounds": preset.rounds}
        entry = "top"
    else:
        first = {**league, "name": "Groups", "format": "groups", "groups": preset.groups}
        entry = "top_per_group"
    return [
        first,
        {
            **knockout,
            "name": "Knockout",
            "format": "single_elimination",
            "entry": entry,
            "entry_count": preset.top,
            "seeding": "standings",
        },
    ]
