"""A team's token bound to one of its players (a bot at a seat): it sees that seat's hand and
legal moves in ``state/``, plays that seat only, and holds it as a phone would (one holder a
seat, released by a director on the board)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seep_core as sc
from api.models import ApiToken
from tests.matches import deal_in_play
from tournaments import links, seats
from tournaments.models import Match, MatchEvent, SeatClaim, Team

from .conftest import League

pytestmark = pytest.mark.django_db

PLAYERS = ("first", "second")


def bound_token(league: League, team: Team, player: str | None) -> Any:
    body = {} if player is None else {"player": player}
    made = league.client("organizer_a").post(f"/api/v1/teams/{team.pk}/token/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["player"] == player
    client = league.client()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {made.json()['token']}")
    return client


def to_play(match: Match) -> tuple[Team, str, int]:
    """The team, player ("first", "second") and seat to play now in ``match``."""
    seat = deal_in_play(match).to_play
    assert seat is not None
    return (match.team0, match.team1)[seat % 2], PLAYERS[seat // 2], seat


def append(client: Any, match: Match, move: dict[str, Any]) -> Any:
    match.refresh_from_db()
    return client.post(
        f"/api/v1/matches/{match.pk}/events/",
        {"expected_seq": match.last_seq, "kind": "move_played", "payload": {"move": move}},
        format="json",
    )


def test_a_bound_token_sees_its_players_hand_and_moves_and_no_other_card(league: League) -> None:
    match = league.digital
    team, player, seat = to_play(match)
    partner = PLAYERS[1 - PLAYERS.index(player)]
    deal = deal_in_play(match)
    for who, at in ((player, seat), (partner, (seat + 2) % 4)):
        answer = bound_token(league, team, who).get(f"/api/v1/matches/{match.pk}/state/")
        assert answer.status_code == 200, answer.content
        state = answer.json()
        assert state["seat"] == at
        assert state["position"]["hands"][at] == list(deal.hand(at))
        hidden = {c for s in range(4) if s != at for c in deal.hand(s)}
        hidden |= set(deal.to_dict()["stock"])
        assert not [c for c in hidden if f'"{c}"' in answer.content.decode()]
        if at == seat:
            assert state["legal_moves"] == sc.legal_moves(deal)
        else:
            assert state["legal_moves"] is None


def test_a_bound_token_plays_its_seat_and_not_its_partners(league: League) -> None:
    match = league.digital
    team, player, seat = to_play(match)
    partner = bound_token(league, team, PLAYERS[1 - PLAYERS.index(player)])
    move = sc.legal_moves(deal_in_play(match))[0]
    match.refresh_from_db()
    head = match.last_seq
    refused = append(partner, match, move)
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_seat"
    match.refresh_from_db()
    assert match.last_seq == head and not SeatClaim.objects.filter(match=match).exists()
    played = append(bound_token(league, team, player), match, move)
    assert played.status_code == 201, played.content
    assert SeatClaim.objects.get(match=match, released_at__isnull=True).seat == seat
    last = MatchEvent.objects.filter(match=match).order_by("-seq").first()
    assert last is not None and last.via.startswith(f"team-link:{seat % 2}:")


def test_a_seat_a_phone_holds_is_refused_to_the_bot_until_a_director_releases_it(
    league: League,
) -> None:
    match = league.digital
    team, player, seat = to_play(match)
    bot = bound_token(league, team, player)
    link = links.actor_for(links.team_link(actor=league.users["organizer_a"], team=team)[0])
    seats.seat_claim(actor=link, match=match, seat=seat, claim_id=seats.new_claim_id())
    read = bot.get(f"/api/v1/matches/{match.pk}/state/")
    assert read.status_code == 409 and read.json()["code"] == "seat_held"
    refused = append(bot, match, sc.legal_moves(deal_in_play(match))[0])
    assert refused.status_code == 409 and refused.json()["code"] == "seat_held"
    seats.seat_release(actor=league.users["organizer_a"], match=match, seat=seat)
    assert bot.get(f"/api/v1/matches/{match.pk}/state/").json()["seat"] == seat


def test_a_seat_a_bot_holds_is_refused_to_a_phone_and_to_the_teams_token(league: League) -> None:
    match = league.digital
    team, player, seat = to_play(match)
    bot = bound_token(league, team, player)
    assert bot.get(f"/api/v1/matches/{match.pk}/state/").status_code == 200  # it holds it
    teams_token = bound_token(league, team, None)  # made after: the bot's token lives on
    refused = append(teams_token, match, sc.legal_moves(deal_in_play(match))[0])
    assert refused.status_code == 409 and refused.json()["code"] == "seat_held"
    link = links.actor_for(links.team_link(actor=league.users["organizer_a"], team=team)[0])
    with pytest.raises(seats.SeatRefused) as phone:
        seats.seat_claim(actor=link, match=match, seat=seat, claim_id=seats.new_claim_id())
    assert phone.value.code == "seat_held"
    # released on the board, the seat is the next claimer's: here a phone's, and the bot waits
    seats.seat_release(actor=league.users["organizer_a"], match=match, seat=seat)
    seats.seat_claim(actor=link, match=match, seat=seat, claim_id=seats.new_claim_id())
    assert bot.get(f"/api/v1/matches/{match.pk}/state/").status_code == 409


def test_a_new_token_for_the_same_player_ends_the_old_and_keeps_the_seat(league: League) -> None:
    match = league.digital
    team, player, seat = to_play(match)
    old = bound_token(league, team, player)
    partner = bound_token(league, team, PLAYERS[1 - PLAYERS.index(player)])
    assert old.get(f"/api/v1/matches/{match.pk}/state/").status_code == 200
    new = bound_token(league, team, player)
    assert old.get(f"/api/v1/matches/{match.pk}/state/").status_code == 401
    assert new.get(f"/api/v1/matches/{match.pk}/state/").json()["seat"] == seat
    assert partner.get(f"/api/v1/matches/{match.pk}/state/").json()["seat"] == (seat + 2) % 4
    assert ApiToken.objects.filter(team_link__team=team).count() == 2
    assert SeatClaim.objects.filter(match=match, released_at__isnull=True).count() == 2


def test_a_bound_token_of_a_team_not_in_the_match_sees_the_public_view(league: League) -> None:
    bot = bound_token(league, league.teams_a[2], "first")
    state = bot.get(f"/api/v1/matches/{league.digital.pk}/state/").json()
    assert state["seat"] is None and state["legal_moves"] is None
    assert all(hand is None for hand in state["position"]["hands"])
    assert not SeatClaim.objects.exists()


#: a value a JSON body may hold, of the kinds a client could send by mistake
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=8),
                   st.sampled_from(PLAYERS))  # fmt: skip


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=st.dictionaries(st.sampled_from(["player", "seat", "match"]), VALUES, min_size=1))
def test_a_team_token_is_bound_to_first_or_second_and_nothing_else(
    league: League, body: dict[str, Any]
) -> None:
    team = league.teams_a[0]
    made = league.client("organizer_a").post(f"/api/v1/teams/{team.pk}/token/", body, format="json")
    if set(body) == {"player"} and body["player"] in PLAYERS:
        assert made.status_code == 201
    else:
        assert made.status_code == 400, made.content
        assert made.json()["code"] == "invalid"


def test_a_bound_tokens_state_is_never_the_publics_cached_answer(league: League) -> None:
    """The public's ETag, sent by the bot, is not its own version: it gets its hand, not 304."""
    match = league.digital
    team, player, seat = to_play(match)
    url = f"/api/v1/matches/{match.pk}/state/"
    public = league.client().get(url)
    bot = bound_token(league, team, player)
    mine = bot.get(url, HTTP_IF_NONE_MATCH=public["ETag"])
    assert mine.status_code == 200 and mine.json()["position"]["hands"][seat]
    again = bot.get(url, HTTP_IF_NONE_MATCH=mine["ETag"])
    assert again.status_code == 304
