"""A director's corrections follow through: the fixture, the standings and the bracket change,
a correction of a result a later round was built on shows its consequences first and needs a
confirmation, and what cannot follow by itself is put before the directors."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from competition.corrections import ConfirmationRequired, apply_correction, preview_correction
from competition.errors import CompetitionRefused
from competition.models import Fixture, Notice, Round, Stage, StandingRow
from scoring.models import MatchResult
from tests.scoring.helpers import committed
from tournaments.access import SYSTEM
from tournaments.errors import CommandRefused, NotPermitted
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event

from .helpers import Club, make_club

pytestmark = pytest.mark.django_db

MISCOUNTED = "the score-keeper swapped the columns"


def score(match: Match, *team0_points: int) -> None:
    """Enter a deal per number (team 0's card points, no sweeps); start the match if need be."""
    match.refresh_from_db()
    if match.status == Match.Status.SCHEDULED:
        with committed():
            match_append_event(match=match, expected_seq=0, kind="match_started",
                               payload={"first_dealer": 0}, actor=SYSTEM)  # fmt: skip
    for points in team0_points:
        match.refresh_from_db()
        with committed():
            match_append_event(
                match=match, expected_seq=match.last_seq, kind="deal_ended",
                payload={"points": [points, 100 - points], "sweeps": [[], []]}, actor=SYSTEM,
            )  # fmt: skip


def flip(deal: int, team0_points: int) -> dict[str, Any]:
    return {"deal": deal, "points": [team0_points, 100 - team0_points], "sweeps": [[], []],
            "reason": MISCOUNTED}  # fmt: skip


def correct(club: Club, match: Match, payload: dict[str, Any], **options: Any) -> Any:
    match.refresh_from_db()
    with committed():
        return apply_correction(
            actor=club.organizer, match=match, kind="deal_corrected", payload=payload,
            expected_seq=match.last_seq, **options,
        )  # fmt: skip


def void(club: Club, match: Match, deal: int) -> Any:
    """Void a deal of ``match`` as its director would (a short deck)."""
    match.refresh_from_db()
    with committed():
        return apply_correction(
            actor=club.organizer, match=match, kind="deal_voided",
            payload={"deal": deal, "reason": "played with a short deck"},
            expected_seq=match.last_seq,
        )  # fmt: skip


def points_of(stage: Stage) -> dict[int, int]:
    latest = StandingRow.objects.filter(stage=stage).order_by("-as_of_round").first()
    assert latest is not None
    rows = StandingRow.objects.filter(stage=stage, as_of_round=latest.as_of_round)
    return dict(rows.values_list("team_id", "points"))


def round_one_played(slug: str) -> tuple[Club, Stage, Round, Fixture]:
    """Four teams in a Swiss of 3 rounds, round 1 played (team a wins every match 130 to 70);
    the first table's fixture."""
    club = make_club(4, slug=slug)
    stage = club.start(club.stage(format="swiss", rounds=3))
    first = club.publish(club.pair(stage))
    for fixture in Fixture.objects.filter(round=first):
        assert fixture.match is not None
        score(fixture.match, 60, 70)
    first.refresh_from_db()
    fixture = Fixture.objects.filter(round=first).order_by("table").first()
    assert fixture is not None and fixture.match is not None and fixture.result == "a"
    fixture.match.refresh_from_db()
    return club, stage, first, fixture


def swiss_after_round_one(slug: str) -> tuple[Club, Stage, Fixture]:
    """As ``round_one_played``, with round 2 paired on its results and published."""
    club, stage, _, fixture = round_one_played(slug)
    club.publish(club.pair(stage))
    return club, stage, fixture


def test_the_preview_shows_the_consequences_and_changes_nothing() -> None:
    club, stage, fixture = swiss_after_round_one("preview-cup")
    match = fixture.match
    assert match is not None
    events, standings = MatchEvent.objects.count(), points_of(stage)
    preview = preview_correction(
        actor=club.organizer, match=match, kind="deal_corrected", payload=flip(1, 10)
    )
    assert preview.result_before["winner"] == 0 and preview.result_after["winner"] == 1
    assert preview.result_before["fixture"] == "a" and preview.result_after["fixture"] == "b"
    assert preview.fed_later and preview.needs_confirmation
    moved = {line["team"]: line for line in preview.standings}
    a, b = fixture.team_a_id, fixture.team_b_id
    assert moved[a]["after"]["points"] == moved[a]["before"]["points"] - stage.points_win
    assert moved[b]["after"]["points"] == moved[b]["before"]["points"] + stage.points_win
    # Nothing was written: the log, the projection, the fixture and the standings are as they were.
    assert MatchEvent.objects.count() == events
    assert MatchResult.objects.get(match=match).winner == 0
    fixture.refresh_from_db()
    assert fixture.result == "a"
    assert points_of(stage) == standings


def test_a_result_a_later_round_was_paired_on_changes_only_when_confirmed() -> None:
    club, stage, fixture = swiss_after_round_one("confirm-cup")
    match = fixture.match
    assert match is not None
    before = points_of(stage)
    with pytest.raises(ConfirmationRequired) as refused:
        correct(club, match, flip(1, 10))
    assert refused.value.code == "confirmation_required"
    assert refused.value.preview.result_after["winner"] == 1
    assert not MatchEvent.objects.filter(match=match, kind="deal_corrected").exists()

    result, preview = correct(club, match, flip(1, 10), confirm=True)
    assert result.events[0]["kind"] == "deal_corrected"
    assert preview is not None and preview.needs_confirmation
    fixture.refresh_from_db()
    assert fixture.result == "b"
    after = points_of(stage)
    assert after[fixture.team_b_id] == before[fixture.team_b_id] + stage.points_win
    assert after[fixture.team_a_id] == before[fixture.team_a_id] - stage.points_win
    notice = Notice.objects.get(stage=stage, fixture=fixture)
    assert notice.code == "paired_on_old_result" and "round(s) 2" in notice.message


def test_a_correction_nothing_was_built_on_applies_at_once() -> None:
    club = make_club(4, slug="plain-cup")
    stage = club.start(club.stage(format="swiss", rounds=3))
    first = club.publish(club.pair(stage))
    fixture = Fixture.objects.filter(round=first).order_by("table").first()
    assert fixture is not None and fixture.match is not None
    score(fixture.match, 60, 70)
    _, preview = correct(club, fixture.match, flip(2, 80))  # a bigger win, same winner
    assert preview is not None and not preview.fed_later and not preview.needs_confirmation
    assert MatchResult.objects.get(match=fixture.match).difference == 20 + 60


def test_a_voided_deal_reopens_a_finished_match_and_its_round() -> None:
    club, _, first, fixture = round_one_played("void-cup")
    assert first.status == Round.Status.COMPLETE
    match = fixture.match
    assert match is not None
    void(club, match, 2)
    match.refresh_from_db()
    fixture.refresh_from_db()
    first.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert fixture.result == "" and first.status == Round.Status.PUBLISHED
    assert MatchResult.objects.get(match=match).completed_at is None
    score(match, 45)  # the deal played again
    fixture.refresh_from_db()
    first.refresh_from_db()
    assert fixture.result == "a" and first.status == Round.Status.COMPLETE
    match.refresh_from_db()
    receipt = next(r for r in first.receipts if r["match"] == match.pk)
    assert (receipt["events"], receipt["head_hash"]) == (match.last_seq, match.last_hash)


def knockout(slug: str, *, start_matches: bool) -> tuple[Club, Stage, Fixture, Fixture]:
    """Four teams in a single elimination; both semi-finals published."""
    club = make_club(4, slug=slug)
    stage = club.start(club.stage(format="single_elimination", start_matches=start_matches))
    first = stage.round_set.order_by("number").first()
    assert first is not None
    club.publish(first)
    semis = list(Fixture.objects.filter(round=first).order_by("key"))
    assert len(semis) == 2 and all(f.match_id for f in semis)
    return club, stage, semis[0], semis[1]


def final_of(stage: Stage) -> Fixture:
    final = Fixture.objects.filter(stage=stage).order_by("-round__number").first()
    assert final is not None
    return final


def test_a_corrected_semi_final_sends_the_other_team_to_a_final_not_yet_begun() -> None:
    club, stage, one, two = knockout("ko-cup", start_matches=False)
    assert one.match is not None and two.match is not None
    score(one.match, 60, 70)
    final = final_of(stage)
    side = "a" if final.team_a_id == one.team_a_id else "b"
    assert getattr(final, f"team_{side}_id") == one.team_a_id
    # The final has one team from this semi-final: a confirmation is needed, then it moves.
    with pytest.raises(ConfirmationRequired) as refused:
        correct(club, one.match, flip(1, 10))
    assert any(c["fixture"] == final.key for c in refused.value.preview.bracket)
    correct(club, one.match, flip(1, 10), confirm=True)
    final.refresh_from_db()
    assert getattr(final, f"team_{side}_id") == one.team_b_id

    score(two.match, 60, 70)  # the final's match is made (not started: the stage says so)
    final.refresh_from_db()
    assert final.match is not None and final.match.last_seq == 0
    made = final.match.pk
    correct(club, one.match, flip(1, 60), confirm=True)  # and back: team a won after all
    final.refresh_from_db()
    assert final.match is not None and final.match.pk == made
    assert getattr(final, f"team_{side}_id") == one.team_a_id
    seated = {final.match.team0_id, final.match.team1_id}
    assert seated == {one.team_a_id, two.team_a_id}
    assert not Notice.objects.filter(stage=stage).exists()


def test_a_final_that_has_begun_keeps_its_teams_and_the_directors_are_told() -> None:
    club, stage, one, two = knockout("begun-cup", start_matches=True)
    assert one.match is not None and two.match is not None
    score(one.match, 60, 70)
    score(two.match, 60, 70)
    final = final_of(stage)
    assert final.match is not None and final.match.status == Match.Status.IN_PROGRESS
    seated = (final.team_a_id, final.team_b_id)
    correct(club, one.match, flip(1, 10), confirm=True)
    one.refresh_from_db()
    final.refresh_from_db()
    assert one.result == "b"  # the semi-final's result is corrected...
    assert (final.team_a_id, final.team_b_id) == seated  # ...the final's teams stay
    notice = Notice.objects.get(stage=stage, fixture=final, resolved_at__isnull=True)
    assert notice.code == "bracket_entrant_fixed" and "has begun" in notice.message


@pytest.mark.parametrize("who", ["scorekeeper", "player", "anonymous"])
def test_only_a_director_corrects_and_a_refusal_writes_nothing(who: str) -> None:
    _, _, fixture = swiss_after_round_one(f"who-cup-{who}")
    match = fixture.match
    assert match is not None
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    if who == "scorekeeper":
        actor: Any = users.create_user("keeper-" + who)
        match.scorekeepers.add(actor)
    elif who == "player":
        actor = users.create_user("player-" + who)
        player = fixture.team_a.first_player  # type: ignore[union-attr]
        player.user = actor
        player.save()
    else:
        actor = AnonymousUser()
    events = MatchEvent.objects.count()
    with pytest.raises(NotPermitted):
        preview_correction(actor=actor, match=match, kind="deal_corrected", payload=flip(1, 10))
    match.refresh_from_db()
    with pytest.raises(NotPermitted):
        apply_correction(actor=actor, match=match, kind="deal_corrected", payload=flip(1, 10),
                         expected_seq=match.last_seq, confirm=True)  # fmt: skip
    assert MatchEvent.objects.count() == events


def test_what_is_not_a_correction_or_lacks_a_reason_is_refused() -> None:
    club, _, fixture = swiss_after_round_one("refused-cup")
    match = fixture.match
    assert match is not None
    events = MatchEvent.objects.count()
    with pytest.raises(CompetitionRefused) as refused:
        preview_correction(actor=club.organizer, match=match, kind="deal_ended",
                           payload={"points": [50, 50], "sweeps": [[], []]})  # fmt: skip
    assert refused.value.code == "not_a_correction"
    without_reason = {k: v for k, v in flip(1, 10).items() if k != "reason"}
    with pytest.raises(CommandRefused):
        correct(club, match, without_reason, confirm=True)
    assert MatchEvent.objects.count() == events


def test_a_forfeit_declared_by_a_director_is_the_fixtures_forfeit_in_the_standings() -> None:
    club = make_club(4, slug="forfeit-cup")
    stage = club.start(club.stage(format="swiss", rounds=3, points_forfeit=0, points_win=3))
    first = club.publish(club.pair(stage))
    fixture = Fixture.objects.filter(round=first).order_by("table").first()
    assert fixture is not None and fixture.match is not None
    match = fixture.match
    score(match, 60)  # under way, team a ahead
    match.refresh_from_db()
    with committed():
        apply_correction(
            actor=club.organizer, match=match, kind="match_forfeited",
            payload={"team": 0, "reason": "team a left the club"}, expected_seq=match.last_seq,
        )  # fmt: skip
    fixture.refresh_from_db()
    assert fixture.result == Fixture.Result.FORFEIT_A
    assert MatchResult.objects.get(match=match).forfeited_by == 0
    points = points_of(stage)
    assert points[fixture.team_a_id] == 0 and points[fixture.team_b_id] == 3
