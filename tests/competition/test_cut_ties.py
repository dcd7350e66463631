"""Ties at a qualification's cut: teams level on every tie-break across the line of a top-N
stage are never split by their seed. The next stage waits until a director draws a lot (kept,
with who drew it and when) or sets an order, and its cut then takes that decision."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from competition import services
from competition.cut import tie_key
from competition.errors import InvalidSettings, NotNow, NotPermitted
from competition.models import CutDecision, Stage, StandingRow
from competition.selectors import cut_explained

from .helpers import Club, make_club

pytestmark = pytest.mark.django_db


@dataclass
class TiedCut:
    """A Swiss of 4 teams (1 round of 1-bazzi matches, running difference its only
    tie-break: 0 for everyone), then the top 3 in a knockout: the two losers are level on
    everything for the 3rd place."""

    club: Club
    swiss: Stage
    knockout: Stage
    winners: list[int]
    losers: list[int]  # by seed in the Swiss, the better seed first

    @property
    def key(self) -> str:
        return tie_key(None, self.losers)


def tied_cut(slug: str = "cut-cup") -> TiedCut:
    club = make_club(4, slug=slug)
    swiss = club.stage(
        format="swiss", rounds=1, match_format={"bazzis": 1}, tiebreaks=["running_difference"]
    )
    knockout = club.stage(
        format="single_elimination", entry="top", entry_count=3, seeding="standings"
    )
    club.start(swiss)
    club.play_stage(swiss, random.Random(3))
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.COMPLETE
    rows = list(StandingRow.objects.filter(stage=swiss, as_of_round=1).order_by("rank", "team"))
    seeds = dict(swiss.entries.values_list("team_id", "seed"))
    winners = sorted((r.team_id for r in rows if r.points == 2), key=seeds.__getitem__)
    losers = sorted((r.team_id for r in rows if r.points == 0), key=seeds.__getitem__)
    assert len(winners) == len(losers) == 2  # 1-bazzi matches are never drawn
    assert {r.rank for r in rows if r.points == 0} == {3}  # level on everything
    return TiedCut(club, swiss, knockout, winners, losers)


@pytest.fixture
def cut() -> TiedCut:
    return tied_cut()


def entrants(stage: Stage) -> list[int]:
    return list(stage.entries.order_by("seed").values_list("team_id", flat=True))


def test_the_next_stage_does_not_start_while_a_tie_at_its_cut_is_undecided(cut: TiedCut) -> None:
    with pytest.raises(NotNow) as refused:
        cut.club.start(cut.knockout)
    assert refused.value.code == "cut_tie_undecided"
    names = [t.name for t in cut.club.teams if t.pk in cut.losers]
    assert all(name in refused.value.message for name in names)
    assert "place 3" in refused.value.message
    cut.knockout.refresh_from_db()
    assert cut.knockout.status == Stage.Status.PENDING
    assert not cut.knockout.entries.exists() and not cut.knockout.round_set.exists()
    # the table says so: both tied teams wait, neither is "in" by its seed
    rows = {r["team_id"]: r for r in cut_explained(stage=cut.knockout)}
    assert [rows[t]["in"] for t in cut.losers] == [None, None]
    assert rows[cut.losers[0]]["above_next_by"].startswith("undecided")
    assert all(rows[t]["in"] is True for t in cut.winners)


def test_a_drawn_lot_is_kept_with_who_drew_it_and_the_cut_takes_it(cut: TiedCut) -> None:
    decision = services.cut_draw_lot(actor=cut.club.organizer, stage=cut.knockout, tie=cut.key)
    assert decision.method == "lot" and decision.lot_seed is not None
    assert sorted(decision.order) == sorted(cut.losers)
    assert decision.decided_by == cut.club.organizer
    assert decision.decided_by_name == cut.club.organizer.get_username()
    random.Random(decision.lot_seed).shuffle(shuffled := sorted(cut.losers))
    assert shuffled == decision.order  # the seed replays the draw
    kept = CutDecision.objects.get()
    # read again, and after a second draw that is refused, it is the same draw
    with pytest.raises(NotNow) as refused:
        services.cut_draw_lot(actor=cut.club.organizer, stage=cut.knockout, tie=cut.key)
    assert refused.value.code == "cut_tie_decided"
    with pytest.raises(NotNow):
        services.cut_set_order(
            actor=cut.club.organizer, stage=cut.knockout, tie=cut.key, order=cut.losers
        )
    assert list(CutDecision.objects.values_list("pk", "order", "lot_seed")) == [
        (kept.pk, kept.order, kept.lot_seed)
    ]
    found = services.cut_for_stage(cut.knockout)
    assert found is not None and [t.decision for t in found.ties] == [kept]
    rows = {r["team_id"]: r for r in cut_explained(stage=cut.knockout)}
    drawn = services.decision_words(kept)
    assert drawn.startswith(f"lot drawn by {cut.club.organizer.get_username()} at ")
    assert rows[kept.order[0]]["above_next_by"] == drawn
    assert (rows[kept.order[0]]["in"], rows[kept.order[1]]["in"]) == (True, False)

    cut.club.start(cut.knockout)
    assert entrants(cut.knockout) == [*cut.winners, kept.order[0]]


def test_the_directors_order_decides_even_against_the_seeds(cut: TiedCut) -> None:
    worse_seed_first = list(reversed(cut.losers))
    decision = services.cut_set_order(
        actor=cut.club.organizer, stage=cut.knockout, tie=cut.key, order=worse_seed_first
    )
    assert (decision.method, decision.order, decision.lot_seed) == ("order", worse_seed_first, None)
    label = cut_explained(stage=cut.knockout)[2]["above_next_by"]
    assert label.startswith("director's order")
    cut.club.start(cut.knockout)
    assert entrants(cut.knockout) == [*cut.winners, cut.losers[1]]


@pytest.mark.parametrize(
    "order",
    [
        pytest.param("forged", id="a team not in the tie"),
        pytest.param("twice", id="a tied team twice"),
        pytest.param("short", id="a tied team left out"),
        pytest.param("longer", id="a team more"),
        pytest.param("words", id="not ids"),
    ],
)
def test_an_order_that_is_not_the_tied_teams_is_refused(cut: TiedCut, order: str) -> None:
    given: list[Any] = {
        "forged": [cut.losers[0], cut.winners[0]],
        "twice": [cut.losers[0], cut.losers[0]],
        "short": [cut.losers[1]],
        "longer": [*cut.losers, cut.winners[0]],
        "words": [str(cut.losers[0]), str(cut.losers[1])],
    }[order]
    with pytest.raises(InvalidSettings) as refused:
        services.cut_set_order(
            actor=cut.club.organizer, stage=cut.knockout, tie=cut.key, order=given
        )
    assert refused.value.code == "bad_cut_order" and refused.value.field == "order"
    assert not CutDecision.objects.exists()


def test_only_a_director_decides_and_only_a_tie_that_is_there(cut: TiedCut) -> None:
    outsider = get_user_model().objects.create_user("outsider")
    with pytest.raises(NotPermitted):
        services.cut_draw_lot(actor=outsider, stage=cut.knockout, tie=cut.key)
    with pytest.raises(NotPermitted):
        services.cut_set_order(actor=outsider, stage=cut.knockout, tie=cut.key, order=cut.losers)
    for forged in (tie_key(None, cut.winners), tie_key(0, cut.losers), "", "x" * 5000):
        with pytest.raises(NotNow) as refused:
            services.cut_draw_lot(actor=cut.club.organizer, stage=cut.knockout, tie=forged)
        assert refused.value.code == "no_such_tie"
    with pytest.raises(NotNow) as refused:
        services.cut_draw_lot(actor=cut.club.organizer, stage=cut.swiss, tie=cut.key)
    assert refused.value.code == "stage_started"
    assert not CutDecision.objects.exists()


def test_a_tie_is_decided_only_once_the_stage_before_is_complete() -> None:
    club = make_club(4, slug="early-cup")
    swiss = club.start(club.stage(format="swiss", rounds=1, match_format={"bazzis": 1}))
    knockout = club.stage(format="single_elimination", entry="top", entry_count=3)
    with pytest.raises(NotNow) as refused:
        services.cut_draw_lot(actor=club.organizer, stage=knockout, tie=tie_key(None, [1, 2]))
    assert refused.value.code == "previous_running"
    assert swiss.status == Stage.Status.RUNNING


def test_a_tie_inside_the_cut_changes_nobodys_place_and_needs_no_decision() -> None:
    club = make_club(4, slug="inside-cup")
    swiss = club.stage(format="swiss", rounds=1, match_format={"bazzis": 1}, tiebreaks=[])
    knockout = club.stage(format="single_elimination", entry="top", entry_count=2)
    club.start(swiss)
    club.play_stage(swiss, random.Random(3))
    found = services.cut_for_stage(knockout)
    assert found is not None and found.ties == []  # the two winners: both in, level
    club.start(knockout)
    winners = StandingRow.objects.filter(stage=swiss, as_of_round=1, points=2)
    assert set(entrants(knockout)) == set(winners.values_list("team_id", flat=True))


def test_starting_over_the_api_is_refused_with_its_code_and_the_ties(cut: TiedCut) -> None:
    from tests.api.conftest import CommittingClient

    client = CommittingClient()
    client.force_login(cut.club.organizer)
    response = client.post(f"/api/v1/stages/{cut.knockout.pk}/start/")
    assert response.status_code == 409, response.content[:800]
    assert response["Content-Type"] == "application/problem+json"
    body = json.loads(response.content)
    assert (body["code"], body["type"]) == (
        "cut_tie_undecided",
        "urn:seep:problem:cut_tie_undecided",
    )
    assert body["ties"] == [{"group": None, "place": 3, "teams": sorted(cut.losers), "through": 1}]
    cut.knockout.refresh_from_db()
    assert cut.knockout.status == Stage.Status.PENDING
    services.cut_set_order(
        actor=cut.club.organizer, stage=cut.knockout, tie=cut.key, order=cut.losers
    )
    response = client.post(f"/api/v1/stages/{cut.knockout.pk}/start/")
    assert response.status_code == 200, response.content[:800]
    assert entrants(cut.knockout) == [*cut.winners, cut.losers[0]]


def test_a_director_decides_over_the_api_once_and_bad_input_is_a_problem(cut: TiedCut) -> None:
    from tests.api.conftest import CommittingClient

    client = CommittingClient()
    client.force_login(cut.club.organizer)
    url = f"/api/v1/stages/{cut.knockout.pk}/cut/"
    listed = client.get(url)
    assert listed.status_code == 200
    assert json.loads(listed.content) == [
        {"tie": cut.key, "group": None, "place": 3, "teams": sorted(cut.losers), "through": 1,
         "decision": None}
    ]  # fmt: skip
    for body, status, code in (
        (
            {"tie": cut.key, "method": "order", "order": [cut.losers[0], 99999]},
            422,
            "bad_cut_order",
        ),
        ({"tie": cut.key, "method": "order"}, 400, "invalid"),
        ({"tie": cut.key, "method": "lot", "order": cut.losers}, 400, "invalid"),
        ({"tie": cut.key, "method": "coin"}, 400, "invalid"),
        ({"tie": cut.key, "method": "order", "order": ["a", "b"]}, 400, "invalid"),
        ({"tie": "1:2,3", "method": "lot"}, 409, "no_such_tie"),
        ({"tie": cut.key, "method": "lot", "extra": 1}, 400, "invalid"),
    ):
        response = client.post(url, body, format="json")
        assert response.status_code == status, (body, response.content[:400])
        assert response["Content-Type"] == "application/problem+json"
        assert json.loads(response.content)["code"] == code
    outsider = CommittingClient()
    outsider.force_login(get_user_model().objects.create_user("api-outsider"))
    assert outsider.post(url, {"tie": cut.key, "method": "lot"}, format="json").status_code in (
        403,
        404,
    )
    assert outsider.get(url).status_code in (403, 404)
    assert not CutDecision.objects.exists()

    drawn = client.post(url, {"tie": cut.key, "method": "lot"}, format="json")
    assert drawn.status_code == 201, drawn.content[:400]
    decision = json.loads(drawn.content)
    assert decision["method"] == "lot" and sorted(decision["order"]) == sorted(cut.losers)
    assert decision["decided_by"] == cut.club.organizer.get_username()
    assert decision["words"].startswith("lot drawn by ")
    again = client.post(url, {"tie": cut.key, "method": "lot"}, format="json")
    assert (again.status_code, json.loads(again.content)["code"]) == (409, "cut_tie_decided")
    assert json.loads(client.get(url).content)[0]["decision"] == decision  # as it was drawn
    assert client.post(f"/api/v1/stages/{cut.knockout.pk}/start/").status_code == 200
    assert entrants(cut.knockout) == [*cut.winners, decision["order"][0]]


def test_ties_at_each_groups_cut_are_decided_one_by_one() -> None:
    club = make_club(8, slug="groups-cut")
    groups = club.start(
        club.stage(format="groups", groups=2, match_format={"bazzis": 1}, tiebreaks=[],
                   start_matches=False)
    )  # fmt: skip
    knockout = club.stage(format="single_elimination", entry="top_per_group", entry_count=2)
    club.play_stage(groups, random.Random(9))  # matches dealt from this generator
    found = services.cut_for_stage(knockout)
    assert found is not None
    first, second = found.ties  # group A: three level for the 2nd place; group B: for both
    assert (first.group, first.rank, len(first.teams), first.through) == (0, 2, 3, 1)
    assert (second.group, second.rank, len(second.teams), second.through) == (1, 1, 3, 2)
    assert first.place == "place 2 of group A" and second.place == "place 1 of group B"
    lot = services.cut_draw_lot(actor=club.organizer, stage=knockout, tie=second.key)
    with pytest.raises(NotNow) as refused:  # group A's still waits
        club.start(knockout)
    assert "place 2 of group A" in refused.value.message
    assert "group B" not in refused.value.message
    chosen = list(reversed(first.teams))
    services.cut_set_order(actor=club.organizer, stage=knockout, tie=first.key, order=chosen)
    club.start(knockout)
    a_winner = StandingRow.objects.get(stage=groups, as_of_round=3, group=0, rank=1).team_id
    seeds = entrants(knockout)
    assert seeds[:2] == [a_winner, lot.order[0]]  # the group winners, as decided
    assert set(seeds[2:]) == {chosen[0], lot.order[1]}


class _Undo(Exception):
    """Raised to roll one example's decision back."""


@given(st.lists(st.sampled_from(["l0", "l1", "w0", "w1", 0, -1, 2**40, "x"]), max_size=4))
@examples(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_an_order_is_taken_exactly_when_it_names_each_tied_team_once(
    cut: TiedCut, names: list[Any]
) -> None:
    ids = {"l0": cut.losers[0], "l1": cut.losers[1], "w0": cut.winners[0], "w1": cut.winners[1]}
    order = [ids.get(n, n) for n in names]
    whole = [o for o in order if type(o) is int]
    permutation = len(whole) == len(order) and sorted(whole) == sorted(cut.losers)
    try:
        with transaction.atomic():
            try:
                decision = services.cut_set_order(
                    actor=cut.club.organizer, stage=cut.knockout, tie=cut.key, order=order
                )
            except InvalidSettings as refused:
                assert not permutation and refused.code == "bad_cut_order"
                assert not CutDecision.objects.exists()
            else:
                assert permutation and decision.order == order
            raise _Undo
    except _Undo:
        pass
    assert not CutDecision.objects.exists()


def test_teams_a_second_head_to_head_split_are_never_said_to_be_split_by_their_seed() -> None:
    """Head-to-head is a mini-table among the teams level at that point, and again among those
    it leaves level (competition/formats/standings.py); a team's line keeps its first mini-table's
    value. Two teams at different places with the same values on their lines were split by the
    second mini-table: the cut says so, never "seed" (which is for teams sharing a place)."""
    from competition.formats.standings import standings
    from competition.formats.tiebreaks import Match, Side

    club = make_club(8, slug="mini-tables")
    swiss = club.stage(format="swiss", rounds=3, tiebreaks=["head_to_head"])
    knockout = club.stage(
        format="single_elimination", entry="top", entry_count=4, seeding="standings"
    )
    won = {"win": "loss", "loss": "win", "draw": "draw"}
    played = [  # (round, team, its outcome, opponent), teams 1..8
        (1, 7, "loss", 3), (1, 6, "win", 8), (1, 4, "win", 5), (1, 2, "loss", 1),
        (2, 7, "draw", 5), (2, 8, "loss", 2), (2, 1, "win", 3), (2, 4, "draw", 6),
        (3, 1, "win", 6), (3, 8, "loss", 5), (3, 7, "win", 4), (3, 2, "win", 3),
    ]  # fmt: skip
    table = standings(
        [Match(r, Side(a, how), Side(b, won[how])) for r, a, how, b in played],
        tiebreaks=["head_to_head"],
    )
    # the projection the cut reads, as the standings computed it: teams 7, 4, 5 and 6 have 3
    # points; the mini-table of the four puts 7 and 4 (3 each) above 5 and 6 (1 each), and the
    # mini-table of 7 and 4 puts 7 (who beat 4) above it; both lines keep the first value, 3
    lines = {row.entrant: row for row in table.rows}
    assert (lines[7].rank, lines[4].rank) == (3, 4)
    assert lines[7].tiebreaks == lines[4].tiebreaks == (("head_to_head", 3),)
    for row in table.rows:
        StandingRow.objects.create(
            stage=swiss,
            as_of_round=0,
            team=club.teams[row.entrant - 1],
            rank=row.rank,
            points=row.points,
            played=row.played,
            won=row.won,
            drawn=row.drawn,
            lost=row.lost,
            byes=row.byes,
            tiebreaks=[list(pair) for pair in row.tiebreaks],
        )
    explained = {r["team_id"]: r for r in cut_explained(stage=knockout)}
    seventh, fourth = club.teams[6].pk, club.teams[3].pk
    assert explained[seventh]["above_next_by"] == "head-to-head among the teams still level"
    assert explained[fourth]["above_next_by"] == "head-to-head"  # 3 to the next one's 1
    assert [explained[t.pk]["in"] for t in club.teams] == [
        True, True, False, True, False, False, True, False
    ]  # fmt: skip
