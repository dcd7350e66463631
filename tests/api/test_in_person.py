"""In-person tables through the API: entries the other team confirms, disputes the director
settles, corrections with their dry run and their confirmation, the director's history of a
match, and a table device resending what it is not sure arrived."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from competition.models import Fixture
from tests.competition.helpers import make_club
from tournaments.access import SYSTEM
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event
from tournaments.verify import verify_match

from .conftest import CommittingClient, League

pytestmark = pytest.mark.django_db

DEAL = {"points": [60, 40], "sweeps": [[], []]}


def confirmed_match(league: League, confirmation: str = "other_team") -> Match:
    """A score match of tournament A whose deals the other team confirms (a2x v a3x)."""
    match = Match.objects.create(
        tournament=league.a, team0=league.teams_a[2], team1=league.teams_a[3], mode="score",
        rules=league.a.rules, match_format={"bazzis": 3}, confirmation=confirmation,
    )  # fmt: skip
    match.scorekeepers.add(league.users["keeper_a"])
    match_append_event(match=match, expected_seq=0, kind="match_started",
                       payload={"first_dealer": 0}, actor=SYSTEM)  # fmt: skip
    return match


def send(client: Any, match: Match, kind: str, payload: dict[str, Any], **extra: Any) -> Any:
    match.refresh_from_db()
    body = {"expected_seq": match.last_seq, "kind": kind, "payload": payload}
    body.update(extra.pop("body", {}))
    return client.post(f"/api/v1/matches/{match.pk}/events/{extra.pop('query', '')}", body,
                       format="json", **extra)  # fmt: skip


def deals(league: League, match: Match) -> list[dict[str, Any]]:
    response = league.client("outsider").get(f"/api/v1/matches/{match.pk}/deals/")
    assert response.status_code == 200
    return list(response.json()["deals"])


def test_an_entry_counts_only_when_someone_of_the_other_team_confirms_it(league: League) -> None:
    match = confirmed_match(league)
    entered = send(league.client("a20"), match, "deal_entered", DEAL)
    assert entered.status_code == 201, entered.json()
    state = league.client("a30").get(f"/api/v1/matches/{match.pk}/state/").json()
    (pending,) = state["entries"]  # the other team sees what awaits its answer
    assert pending["points"] == [60, 40] and pending["side"] == 0
    entry = pending["entry"]
    assert deals(league, match) == []  # provisional: not counted

    for who, code in (("a20", "own_entry"), ("a21", "own_team_entry")):
        refused = send(league.client(who), match, "deal_confirmed", {"entry": entry})
        assert refused.status_code == 403, refused.json()
        assert refused["Content-Type"] == "application/problem+json"
        assert refused.json()["code"] == code
    outsider = send(league.client("outsider"), match, "deal_confirmed", {"entry": entry})
    assert outsider.status_code == 403
    match.refresh_from_db()
    assert MatchEvent.objects.filter(match=match).count() == match.last_seq == 2  # nothing more

    confirmed = send(league.client("a31"), match, "deal_confirmed", {"entry": entry})
    assert confirmed.status_code == 201, confirmed.json()
    assert [e["kind"] for e in confirmed.json()["events"]] == ["deal_confirmed", "deal_ended"]
    (deal,) = deals(league, match)
    assert (deal["points0"], deal["points1"]) == (60, 40)


def test_a_rejection_sends_both_versions_to_the_director_who_settles_the_deal(
    league: League,
) -> None:
    match = confirmed_match(league)
    assert send(league.client("keeper_a"), match, "deal_entered", DEAL).status_code == 201
    rejected = send(league.client("a30"), match, "deal_rejected", {
        "entry": 1, "reason": "we had the last sweep", "points": [55, 45],
        "sweeps": [[], []],
    })  # fmt: skip
    assert rejected.status_code == 201, rejected.json()
    assert [e["kind"] for e in rejected.json()["events"]] == ["deal_rejected"]
    assert rejected.json()["events"][0]["payload"]["points"] == [55, 45]
    state = league.client("director_a").get(f"/api/v1/matches/{match.pk}/state/").json()
    assert state["disputed"] and state["entries"][0]["points"] == [60, 40]  # both versions
    desk = league.client("director_a").get(f"/api/v1/tournaments/{league.a.pk}/disputes/")
    assert desk.status_code == 200, desk.json()
    (dispute,) = desk.json()
    assert dispute["match"] == match.pk and dispute["deal"] == 1
    assert dispute["entries"][0]["points"] == [60, 40]
    assert dispute["rejections"][0]["points"] == [55, 45]
    assert dispute["rejections"][0]["reason"] == "we had the last sweep"
    for who in ("a30", "keeper_a"):
        assert (
            league.client(who).get(f"/api/v1/tournaments/{league.a.pk}/disputes/").status_code
            == 403
        )
    again = send(league.client("a20"), match, "deal_entered", DEAL)
    assert again.status_code == 409 and again.json()["code"] == "deal_disputed"
    # The director decides: their deal_ended settles it.
    settled = send(league.client("director_a"), match, "deal_ended",
                   {"points": [55, 45], "sweeps": [[], []]})  # fmt: skip
    assert settled.status_code == 201, settled.json()
    (deal,) = deals(league, match)
    assert (deal["points0"], deal["points1"]) == (55, 45)


def test_both_sides_entering_the_same_result_confirm_each_other(league: League) -> None:
    match = confirmed_match(league, "both_enter")
    first = send(league.client("a20"), match, "deal_entered", DEAL)
    assert first.status_code == 201
    twice = send(league.client("a21"), match, "deal_entered", DEAL)  # the same side again
    assert twice.status_code == 409 and twice.json()["code"] == "already_entered"
    second = send(league.client("a30"), match, "deal_entered", DEAL)
    assert second.status_code == 201, second.json()
    assert [e["kind"] for e in second.json()["events"]] == ["deal_entered", "deal_ended"]
    assert len(deals(league, match)) == 1


def test_a_correction_has_a_dry_run_and_is_for_directors_only(league: League) -> None:
    match = league.score
    send(league.client("keeper_a"), match, "deal_ended", DEAL)
    before = MatchEvent.objects.filter(match=match).count()
    correction = {"deal": 1, "points": [30, 70], "sweeps": [[], []], "reason": "columns swapped"}

    keeper = send(league.client("keeper_a"), match, "deal_corrected", correction)
    assert keeper.status_code == 403 and keeper.json()["code"] == "director_only"
    state_url = f"/api/v1/matches/{match.pk}/state/"
    state_before = league.client("director_a").get(state_url)
    assert state_before.status_code == 200
    dry = send(league.client(token="a_write"), match, "deal_corrected", correction,
               query="?dry_run=true")  # fmt: skip
    assert dry.status_code == 200, dry.json()
    assert dry.json()["result_before"]["difference"] == 20
    assert dry.json()["result_after"]["difference"] == -40
    assert MatchEvent.objects.filter(match=match).count() == before
    # The dry run's append was rolled back, and what this process kept of it is not shown: the
    # state read is the one before it (deal 1 at 20, not the dry run's -40), the log verifies.
    state_after = league.client("director_a").get(state_url)
    assert state_after.status_code == 200
    assert state_after.json() == state_before.json()
    assert verify_match(match) == []

    bad = send(league.client(token="a_write"), match, "deal_ended", DEAL, query="?dry_run=1")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_dry_run"
    bad = send(league.client(token="a_write"), match, "deal_ended", DEAL, body={"confirm": True})
    assert bad.status_code == 400
    unreasoned = {k: v for k, v in correction.items() if k != "reason"}
    bad = send(league.client(token="a_write"), match, "deal_corrected", unreasoned)
    assert bad.status_code == 400
    assert MatchEvent.objects.filter(match=match).count() == before

    applied = send(league.client(token="a_write"), match, "deal_corrected", correction)
    assert applied.status_code == 201, applied.json()
    assert applied.json()["consequences"]["result_after"]["difference"] == -40
    assert deals(league, match)[0]["points0"] == 30
    assert verify_match(match) == []


def test_a_correction_a_later_round_was_built_on_needs_confirm(db: None) -> None:
    club = make_club(4, slug="api-confirm")
    stage = club.start(club.stage(format="swiss", rounds=3))
    client = CommittingClient()
    client.force_login(club.organizer)
    first = club.publish(club.pair(stage))
    for fixture in Fixture.objects.filter(round=first):
        assert fixture.match is not None
        for _ in range(2):
            assert send(client, fixture.match, "deal_ended", DEAL).status_code == 201
    club.publish(club.pair(stage))
    fixture = Fixture.objects.filter(round=first).order_by("table").first()
    assert fixture is not None and fixture.match is not None and fixture.result == "a"
    correction = {"deal": 1, "points": [20, 80], "sweeps": [[], []], "reason": "misread"}
    refused = send(client, fixture.match, "deal_corrected", correction)
    assert refused.status_code == 409 and refused.json()["code"] == "confirmation_required"
    consequences = refused.json()["consequences"]
    assert consequences["fed_later"] and consequences["result_after"]["fixture"] == "b"
    changed = {line["team"] for line in consequences["standings"]}
    assert {fixture.team_a_id, fixture.team_b_id} <= changed
    applied = send(client, fixture.match, "deal_corrected", correction, body={"confirm": True})
    assert applied.status_code == 201, applied.json()
    fixture.refresh_from_db()
    assert fixture.result == "b"


def test_the_director_reads_who_did_what_when_and_how(league: League) -> None:
    match = confirmed_match(league)
    token_id = league.client(token="a_write")  # the organizer's token, with write
    assert send(league.client("a20"), match, "deal_entered", DEAL).status_code == 201
    assert send(token_id, match, "deal_confirmed", {"entry": 1}).status_code == 201
    history = league.client("director_a").get(f"/api/v1/matches/{match.pk}/history/")
    assert history.status_code == 200, history.json()
    lines = {line["kind"]: line for line in history.json()["results"]}
    assert lines["match_started"]["via"] == "" and lines["match_started"]["actor"] is None
    assert lines["deal_entered"]["via"] == "session"
    assert lines["deal_entered"]["actor_name"] == "a20"
    from api.models import ApiToken

    token = ApiToken.objects.get(name="a_write")
    assert lines["deal_confirmed"]["via"] == f"token:{token.pk}"
    assert lines["deal_confirmed"]["actor_name"] == "organizer_a"
    for who in ("a20", "keeper_a", "outsider"):
        assert league.client(who).get(f"/api/v1/matches/{match.pk}/history/").status_code == 403
    assert league.client().get(f"/api/v1/matches/{match.pk}/history/").status_code in (401, 403)
    private = league.client("director_a").get(f"/api/v1/matches/{league.private_match.pk}/history/")
    assert private.status_code == 404


def test_a_device_that_lost_its_connection_resends_everything_in_order(league: League) -> None:
    match = league.score
    device = league.client("keeper_a")
    match.refresh_from_db()
    start = match.last_seq
    queue = [
        ({"points": [60 + i, 40 - i], "sweeps": [[], []]}, f"tablet-7-{i}", start + i)
        for i in range(3)
    ]

    def post(payload: dict[str, Any], key: str, seq: int) -> Any:
        body = {"expected_seq": seq, "kind": "deal_ended", "payload": payload}
        return device.post(f"/api/v1/matches/{match.pk}/events/", body, format="json",
                           HTTP_IDEMPOTENCY_KEY=key)  # fmt: skip

    sent = [post(*queue[0]), post(*queue[1])]  # the answers were lost on the way back
    assert [r.status_code for r in sent] == [201, 201]
    again = [post(*item) for item in queue]  # the device resends its whole queue, in order
    assert [r.status_code for r in again] == [200, 200, 201]
    assert again[0].json()["events"] == sent[0].json()["events"]
    assert len(deals(league, match)) == 3  # nothing doubled, nothing lost

    # Someone else appended meanwhile: a resend of a new entry is a conflict, not an overwrite.
    send(league.client("director_a"), match, "deal_ended", DEAL)
    late = post({"points": [10, 90], "sweeps": [[], []]}, "tablet-7-9", start + 3)
    assert late.status_code == 409 and late.json()["code"] == "stale_expected_seq"
    match.refresh_from_db()
    assert late.json()["current_seq"] == match.last_seq
    assert len(deals(league, match)) == 4


def test_an_outsider_cannot_enter_or_confirm(league: League) -> None:
    match = confirmed_match(league)
    stranger = get_user_model().objects.create_user("stranger")
    client = CommittingClient()
    client.force_login(stranger)
    refused = send(client, match, "deal_entered", DEAL)
    assert refused.status_code == 403
    assert not MatchEvent.objects.filter(match=match, kind="deal_entered").exists()
