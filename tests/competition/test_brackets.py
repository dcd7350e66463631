"""Brackets that advance by themselves: every winner placed once, the next match made when both
teams are known, byes and forfeits sent on, and the tree readable as it stands."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from competition import draw, formats, services
from competition.models import Fixture, Notice, Stage
from competition.selectors import bracket_for_stage, standings_for_stage
from tests.scoring.helpers import committed
from tournaments.models import Match

from .helpers import Club, make_club

pytestmark = pytest.mark.django_db


def losses(stage: Stage) -> Counter[int]:
    out: Counter[int] = Counter()
    for fixture in Fixture.objects.filter(stage=stage).select_related("team_a", "team_b"):
        loser = fixture.loser()
        if loser is not None:
            out[loser.pk] += 1
    return out


def test_a_single_elimination_with_byes_runs_to_its_champion() -> None:
    club = make_club(6)
    stage = club.start(club.stage(format="single_elimination", third_place=True))
    first = stage.round_set.order_by("number").first()
    assert first is not None and first.status == "draft"
    assert not Match.objects.filter(fixture__stage=stage).exists()  # a draft: no matches yet
    club.publish(first)
    # 6 teams in a bracket of 8: seeds 1 and 2 have byes, so 2 first-round matches are made,
    # and the two quarter-finals waiting on them already hold seeds 1 and 2.
    assert Match.objects.filter(fixture__stage=stage).count() == 2
    tree = bracket_for_stage(stage=stage)
    waiting = [f for r in tree["rounds"] for f in r["fixtures"] if f["status"] == "waiting"]
    assert {f["a"]["team"] for f in waiting if f["a"] and f["a"]["team"]} >= {
        club.teams[0].pk,
        club.teams[1].pk,
    }
    club.play_stage(stage, random.Random(7))
    stage.refresh_from_db()
    assert stage.status == "complete"
    tree = bracket_for_stage(stage=stage)
    champion = tree["champion"]["team"]
    lost = losses(stage)
    assert champion not in lost
    assert sum(lost.values()) == 5 + 1  # 5 knocked out, and the third-place match's loser
    assert Match.objects.filter(fixture__stage=stage).count() == 6
    assert all(f["status"] in ("decided", "void") for r in tree["rounds"] for f in r["fixtures"])


def test_a_double_elimination_sends_everybody_home_after_two_losses() -> None:
    club = make_club(5)
    stage = club.start(club.stage(format="double_elimination", grand_final_reset=True))
    club.play_stage(stage, random.Random(8))
    stage.refresh_from_db()
    assert stage.status == "complete"
    champion = bracket_for_stage(stage=stage)["champion"]["team"]
    lost = losses(stage)
    assert all(lost[t.pk] == 2 for t in club.teams if t.pk != champion)
    assert lost[champion] <= 1
    reset = Fixture.objects.get(stage=stage, key="GF2")
    first_final = Fixture.objects.get(stage=stage, key="GF1")
    assert (reset.result == "void") == (first_final.result == "a")  # played only if needed


def misplaced(stage: Stage) -> list[str]:
    """Return every stored slot that holds another team than its stored source names (the
    winner or loser of a decided fixture)."""
    fixtures = {f.key: f for f in Fixture.objects.filter(stage=stage).select_related()}
    wrong = []
    for f in fixtures.values():
        for side in "ab":
            kind, _, key = getattr(f, f"source_{side}").partition(" of ")
            if kind not in ("winner", "loser") or not fixtures[key].decided:
                continue
            source = fixtures[key]
            team = source.winner() if kind == "winner" else source.loser()
            if getattr(f, f"team_{side}_id") != (team.pk if team else None):
                wrong.append(f"{f.key}:{side} is not the {kind} of {key}")
    return wrong


def test_a_double_elimination_is_drawn_with_the_measured_drop_orders_and_says_so() -> None:
    club = make_club(9)
    stage = club.start(club.stage(format="double_elimination"))
    stage.refresh_from_db()
    assert stage.drop_orders == "measured"
    stored = {f.key: f.source_b for f in Fixture.objects.filter(stage=stage, round__part="losers")}
    seeds = [t.pk for t in club.teams]
    for rule, same in (("measured", True), ("fewest_possible", False)):
        bracket = formats.double_elimination(seeds, drop_orders=rule)  # type: ignore[arg-type]
        drawn = {f.key: draw.slot_text(f.slot_b) for f in bracket.fixtures}
        assert all(drawn[key] == text for key, text in stored.items()) is same


def test_a_bracket_drawn_before_the_measured_table_is_played_out_by_its_own_orders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stage that migration 0005 found drawn says "fewest_possible": its results are placed
    by the orders it was drawn with, not the table's (9 teams: they differ in losers' round 4)."""
    club = make_club(9)
    monkeypatch.setattr(draw, "DRAW_DROP_ORDERS", "fewest_possible")
    stage = club.start(club.stage(format="double_elimination"))
    monkeypatch.undo()
    stage.refresh_from_db()
    assert stage.drop_orders == "fewest_possible"
    club.play_stage(stage, random.Random(12))
    stage.refresh_from_db()
    assert stage.status == "complete"
    assert misplaced(stage) == []
    assert not Notice.objects.filter(stage=stage).exists()
    assert all(n <= 2 for n in losses(stage).values())


def test_groups_then_a_knockout_keeps_group_winners_apart() -> None:
    club = make_club(8)
    # (the random draw last: no tie at the cut, which would wait for a director)
    groups = club.start(
        club.stage(format="groups", groups=2, tiebreaks=["points_difference", "random"],
                   tiebreak_seed=3)
    )  # fmt: skip
    assert sorted(groups.entries.values_list("group", flat=True)) == [0] * 4 + [1] * 4
    knockout = club.stage(format="single_elimination", entry="top_per_group", entry_count=2)
    club.play_stage(groups, random.Random(9))
    club.start(knockout)
    winners = {
        g: standings_for_stage(stage=groups).filter(group=g, rank=1).first().team_id for g in (0, 1)
    }
    seeds = list(knockout.entries.order_by("seed").values_list("team_id", flat=True))
    assert set(seeds[:2]) == set(winners.values())  # group winners are the top two seeds...
    semis = list(Fixture.objects.filter(stage=knockout, round__number=1))
    assert all({f.team_a_id, f.team_b_id} != set(winners.values()) for f in semis)  # ...apart


def test_a_withdrawn_team_forfeits_its_next_bracket_match_and_its_opponent_goes_on() -> None:
    club = make_club(4)
    stage = club.start(club.stage(format="single_elimination", start_matches=False))
    first = stage.round_set.order_by("number").first()
    assert first is not None
    club.publish(first)
    semi = Fixture.objects.filter(stage=stage, round__number=1).order_by("key").first()
    assert semi is not None and semi.match is not None
    with committed():
        services.team_withdraw(actor=club.organizer, team=semi.team_b)
    semi.refresh_from_db()
    assert semi.result == "forfeit_b" and semi.match is None
    final = Fixture.objects.get(stage=stage, winner_to="")
    assert semi.team_a_id in (final.team_a_id, final.team_b_id)


def test_a_completion_told_twice_places_the_winner_once_and_makes_one_match(club: Club) -> None:
    stage = club.start(club.stage(format="single_elimination"))
    first = stage.round_set.order_by("number").first()
    assert first is not None
    club.publish(first)
    semis = list(Fixture.objects.filter(stage=stage, round__number=1).select_related("match"))
    rng = random.Random(10)
    for fixture in semis:
        assert fixture.match is not None
        with committed():
            from competition import demo

            demo.play(fixture.match, rng)
        for _ in range(3):  # the signal delivered again, and again
            services.fixture_match_completed(match_id=fixture.match.pk)
    final = Fixture.objects.get(stage=stage, winner_to="")
    assert {final.team_a_id, final.team_b_id} == {
        f.winner().pk for f in Fixture.objects.filter(pk__in=[s.pk for s in semis])
    }
    assert Match.objects.filter(fixture__stage=stage).count() == 3


@pytest.fixture
def club() -> Club:
    return make_club(4)
