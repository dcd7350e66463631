"""A team's token over the API: made by a director, it enters and answers its team's results
through the team's link (the two-person rule as for accounts), plays its team's seats in a
digital match, with none of its maker's powers, and stops with the link."""

from __future__ import annotations

from typing import Any

import pytest

import seep_core as sc
from tournaments import links, seats
from tournaments.access import SYSTEM
from tournaments.models import Match, MatchEvent
from tournaments.selectors import match_state
from tournaments.services import match_append_event

from .conftest import League

pytestmark = pytest.mark.django_db

DEAL = {"points": [70, 30], "sweeps": [[], []]}


@pytest.fixture
def confirmed(league: League) -> Match:
    """A score match of tournament A where the other team confirms each entry."""
    a = league.teams_a
    match = Match.objects.create(
        tournament=league.a, team0=a[1], team1=a[2], mode="score", rules=league.a.rules,
        match_format={"bazzis": 3}, confirmation="other_team",
    )  # fmt: skip
    match_append_event(
        match=match, expected_seq=0, kind="match_started", payload={"first_dealer": 0},
        actor=SYSTEM,
    )  # fmt: skip
    return match


def team_token(league: League, team: Any, who: str = "organizer_a") -> str:
    made = league.client(who).post(f"/api/v1/teams/{team.pk}/token/", {}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["team"] == team.pk
    return str(made.json()["token"])


def as_team(league: League, token: str) -> Any:
    client = league.client()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def append(client: Any, match: Match, kind: str, payload: dict[str, Any]) -> Any:
    match.refresh_from_db()
    return client.post(
        f"/api/v1/matches/{match.pk}/events/",
        {"expected_seq": match.last_seq, "kind": kind, "payload": payload},
        format="json",
    )


def test_two_teams_tokens_enter_and_confirm_and_never_their_own(
    league: League, confirmed: Match
) -> None:
    ours = as_team(league, team_token(league, confirmed.team0))
    theirs = as_team(league, team_token(league, confirmed.team1))
    entered = append(ours, confirmed, "deal_entered", DEAL)
    assert entered.status_code == 201, entered.content
    own = append(ours, confirmed, "deal_confirmed", {"entry": 1})
    assert own.status_code == 403 and own.json()["code"] == "own_entry"
    player = league.client(confirmed.team0.first_player.user.username)  # the same team
    again = append(player, confirmed, "deal_confirmed", {"entry": 1})
    assert again.status_code == 403 and again.json()["code"] == "own_team_entry"
    done = append(theirs, confirmed, "deal_confirmed", {"entry": 1})
    assert done.status_code == 201, done.content
    vias = dict(MatchEvent.objects.filter(match=confirmed).values_list("kind", "via"))
    assert vias["deal_entered"].startswith("team-link:0:")
    assert vias["deal_confirmed"].startswith("team-link:1:")
    assert vias["deal_ended"].startswith("team-link:1:")


def test_a_teams_token_has_none_of_its_makers_powers(league: League, confirmed: Match) -> None:
    ours = as_team(league, team_token(league, confirmed.team0))
    other = append(ours, league.score, "deal_entered", DEAL)  # teams 2 v 3: not ours
    assert other.status_code == 403 and other.json()["code"] == "not_your_match"
    adjusted = append(ours, confirmed, "score_adjusted", {"team": 0, "points": 5, "reason": "x"})
    assert adjusted.status_code == 403
    withdraw = ours.post(f"/api/v1/teams/{confirmed.team1_id}/withdraw/")
    assert withdraw.status_code == 403 and withdraw.json()["code"] == "token_scope"
    made = ours.post(f"/api/v1/teams/{confirmed.team0_id}/token/", {}, format="json")
    assert made.status_code == 403
    # reads as the public does: no deck of the digital match's deal in play
    events = ours.get(f"/api/v1/matches/{league.digital.pk}/events/").json()
    started = [e for e in events["results"] if e["kind"] == "deal_started"]
    assert started and all(e["payload"].get("deck") is None for e in started)
    maker = league.client("organizer_a").get(f"/api/v1/matches/{league.digital.pk}/events/")
    assert any(e["payload"].get("deck") for e in maker.json()["results"])  # its maker sees it
    # and nothing of another tournament
    assert ours.get(f"/api/v1/matches/{league.private_match.pk}/").status_code == 404
    assert not MatchEvent.objects.filter(match=league.score, kind="deal_entered").exists()


def test_a_new_link_or_a_new_token_ends_the_one_before(league: League, confirmed: Match) -> None:
    first = team_token(league, confirmed.team0)
    second = team_token(league, confirmed.team0)
    assert as_team(league, first).get("/api/v1/tournaments/").status_code == 401
    links.team_link_reissue(actor=league.users["organizer_a"], team=confirmed.team0)
    stopped = append(as_team(league, second), confirmed, "deal_entered", DEAL)
    assert stopped.status_code == 403 and stopped.json()["code"] == "team_link_stopped"
    assert not MatchEvent.objects.filter(match=confirmed, kind="deal_entered").exists()


def test_only_a_director_makes_a_teams_token_and_it_is_outside_their_cap(
    league: League, confirmed: Match, settings: Any
) -> None:
    refused = league.client("outsider").post(f"/api/v1/teams/{confirmed.team0_id}/token/")
    assert refused.status_code in (403, 404)
    reader = league.client(token="a_read").post(f"/api/v1/teams/{confirmed.team0_id}/token/")
    assert reader.status_code == 403
    settings.API_TOKENS_PER_ACCOUNT = 1
    for team in league.teams_a:
        team_token(league, team)
    bad = league.client("organizer_a").post(
        f"/api/v1/teams/{confirmed.team0_id}/token/", {"expires_in_days": 99}, format="json"
    )
    assert bad.status_code == 400 and bad["Content-Type"] == "application/problem+json"


def test_a_teams_token_made_by_a_token_goes_with_it(league: League, confirmed: Match) -> None:
    from api.models import ApiToken

    maker = league.client(token="a_write")
    made = maker.post(f"/api/v1/teams/{confirmed.team0_id}/token/", {}, format="json")
    assert made.status_code == 201
    team_token = ApiToken.objects.get(team_link__team=confirmed.team0)
    maker_token = ApiToken.objects.get(name="a_write")
    assert team_token.made_by == maker_token and team_token.expiry <= maker_token.expiry
    maker_token.delete()  # the maker revoked: the team's token with it
    assert not ApiToken.objects.filter(team_link__team=confirmed.team0).exists()
    ours = as_team(league, made.json()["token"])
    assert append(ours, confirmed, "deal_entered", DEAL).status_code == 401


def test_a_teams_token_plays_its_own_seats_of_a_digital_match_and_no_other(
    league: League,
) -> None:
    match = league.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    side = deal.to_play % 2
    ours = as_team(league, team_token(league, (match.team0, match.team1)[side]))
    seen = ours.get(f"/api/v1/matches/{match.pk}/state/").json()
    assert seen["seat"] is None and seen["legal_moves"] is None
    assert all(hand is None for hand in seen["position"]["hands"])  # no hand, not even ours
    after = deal
    while after.to_play % 2 == side:  # the bid, and the bidder's opening play after it
        played = append(ours, match, "move_played", {"move": sc.legal_moves(after)[0]})
        assert played.status_code == 201, played.content
        now = match_state(match).deal
        assert now is not None and now.to_play is not None
        after = now
    refused = append(ours, match, "move_played", {"move": sc.legal_moves(after)[0]})
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_seat"
    last = MatchEvent.objects.filter(match=match).order_by("-seq").first()
    assert last is not None and last.via.startswith(f"team-link:{side}:")


def test_a_teams_token_plays_no_seat_a_phone_holds(league: League) -> None:
    """A seat claimed by a phone through the team's link is played on that phone only: the
    team's token is refused (409 ``seat_held``, nothing written) until a director releases it."""
    match = league.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    side, seat = deal.to_play % 2, deal.to_play
    team = (match.team0, match.team1)[side]
    ours = as_team(league, team_token(league, team))
    link = links.actor_for(links.team_link(actor=league.users["organizer_a"], team=team)[0])
    seats.seat_claim(actor=link, match=match, seat=seat, claim_id=seats.new_claim_id())
    move = {"move": sc.legal_moves(deal)[0]}
    match.refresh_from_db()
    head = match.last_seq
    refused = append(ours, match, "move_played", move)
    assert refused.status_code == 409 and refused.json()["code"] == "seat_held"
    assert str(match.seat_players()[seat].name) in refused.json()["detail"]
    match.refresh_from_db()
    assert match.last_seq == head
    seats.seat_release(actor=league.users["organizer_a"], match=match, seat=seat)
    assert append(ours, match, "move_played", move).status_code == 201
