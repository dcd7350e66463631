"""The seat page of a digital match: each seated player sees their own hand and no one
else's, is offered exactly the engine's legal moves, and plays them through the append
service; a team's link plays the seat its holder said is theirs."""

from __future__ import annotations

import html
import itertools
import json
import random
import re
import uuid
from typing import Any

import pytest
from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seep_core as sc
from competition import demo
from tournaments import links
from tournaments.errors import NotPermitted
from tournaments.models import Match, MatchEvent
from tournaments.selectors import match_state
from tournaments.services import match_append_event, match_create
from tournaments.verify import verify_match
from web.moves import key

from .checks import check_html, spoken
from .conftest import Club, CommittingClient, make_club

pytestmark = pytest.mark.django_db

#: a move's key as the page carries it (the value of a button named "move")
MOVE = re.compile(r'name="move" value="([^"]+)"')
SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def seat_user(club: Club, seat: int) -> str:
    """The user name of the player at ``seat`` of the club's digital match."""
    return seat_user_of(club.digital, seat)


def seat_user_of(match: Match, seat: int) -> str:
    """The user name of the player at ``seat`` of ``match`` (team0 at 0 and 2)."""
    user = match.seat_players()[seat].user
    assert user is not None
    return str(user.username)


def hands_now(match: Match) -> list[list[str]]:
    deal = match_state(match).deal
    assert deal is not None
    return [deal.hand(s) for s in range(4)]


def shows_a_card(text: str, code: str) -> bool:
    """Whether ``text`` names the card ``code`` in any form a page uses: its code, as a
    label (10♦) or in words (10 of diamonds, Ace of spades)."""
    rank, suit = code[:-1], code[-1]
    spoken = f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"
    forms = (code, f"{rank}{SUIT[suit]}", f"{rank} of {SUIT_WORDS[suit]}", spoken)
    return any(re.search(rf"(?<![A-Za-z0-9]){re.escape(f)}(?![A-Za-z0-9])", text) for f in forms)


def assert_hides_the_others(text: str, match: Match, seat: int | None) -> None:
    """No card of another seat's hand, as the log stands now, in ``text``."""
    shown = html.unescape(text)
    for other, hand in enumerate(hands_now(match)):
        if other == seat:
            continue
        leaked = [c for c in hand if shows_a_card(shown, c)]
        assert not leaked, (seat, other, leaked)


def offered_moves(text: str) -> list[dict[str, Any]]:
    return [json.loads(html.unescape(k)) for k in MOVE.findall(text)]


def play(client: CommittingClient, match: Match, move_key: str, **extra: Any) -> Any:
    match.refresh_from_db()
    data = {"expected_seq": match.last_seq, "client_id": uuid.uuid4().hex, "move": move_key}
    return client.post(f"/play/{match.pk}/move/", {**data, **extra})


def test_each_seat_sees_its_own_hand_and_is_offered_exactly_the_engines_moves(
    club: Club,
) -> None:
    match = club.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    for seat in range(4):
        page = club.client(seat_user(club, seat)).get(f"/play/{match.pk}/")
        assert page.status_code == 200
        text = page.content.decode()
        assert_hides_the_others(text, match, seat)
        for code in deal.hand(seat):
            assert shows_a_card(html.unescape(text), code)
        offered = offered_moves(text)
        if seat == deal.to_play:
            assert sorted(map(key, offered)) == sorted(map(key, sc.legal_moves(deal)))
        else:
            assert offered == []
    check_html(page.content.decode())


def test_the_move_buttons_say_the_card_and_the_move_in_words(club: Club) -> None:
    match = club.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    page = club.client(seat_user(club, deal.to_play)).get(f"/play/{match.pk}/")
    doc = check_html(page.content.decode())
    buttons = [b for b in doc.iter("button") if b.get("name") == "move"]
    assert buttons
    for button in buttons:
        said = spoken(button).strip()
        assert not re.search("[♠♥♦♣]", said), said
        assert re.search(r" of (spades|hearts|diamonds|clubs)", said), said
        assert not re.search(r"(?<![A-Za-z])[AJQK] of ", said), said


def test_only_the_seated_players_reach_a_seat_page(club: Club) -> None:
    match = club.digital
    assert club.client("outsider").get(f"/play/{match.pk}/").status_code == 404
    assert club.client("director").get(f"/play/{match.pk}/").status_code == 404
    anonymous = club.client().get(f"/play/{match.pk}/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    score_match = club.matches[0]
    player = club.player_of(score_match, 0)
    assert club.client(player).get(f"/play/{score_match.pk}/").status_code == 404
    assert club.client(seat_user(club, 0)).get("/play/999999/").status_code == 404


def test_a_move_the_engine_did_not_offer_is_refused_and_nothing_is_written(club: Club) -> None:
    match = club.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    mover = club.client(seat_user(club, deal.to_play))
    waiting = club.client(seat_user(club, (deal.to_play + 1) % 4))
    legal = sc.legal_moves(deal)
    head = match.last_seq
    other_seat_move = dict(legal[0], seat=(deal.to_play + 1) % 4)
    for client, posted in (
        (waiting, key(legal[0])),  # not their turn: nothing is offered to them
        (mover, key(other_seat_move)),
        (mover, '{"seat": 0, "action": "throw", "card": "ZZ"}'),
        (mover, "not json"),
        (mover, "x" * 5000),
    ):
        answer = play(
            client,
            match,
            posted,
        )
        assert answer.status_code == 409, posted
        assert "not open any more" in answer.content.decode()
    assert play(mover, match, key(legal[0]), client_id="!").status_code == 422
    assert play(mover, match, key(legal[0]), expected_seq="x").status_code == 422
    match.refresh_from_db()
    assert match.last_seq == head


def test_a_move_sent_again_after_a_lost_answer_is_written_once(club: Club) -> None:
    match = club.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    mover = club.client(seat_user(club, deal.to_play))
    match.refresh_from_db()
    data = {
        "expected_seq": match.last_seq,
        "client_id": uuid.uuid4().hex,
        "move": key(sc.legal_moves(deal)[0]),
    }
    json_accept = {"HTTP_ACCEPT": "application/json"}
    first = mover.post(f"/play/{match.pk}/move/", data, **json_accept)
    again = mover.post(f"/play/{match.pk}/move/", data, **json_accept)
    assert first.json()["ok"] and again.json()["ok"]
    assert (
        MatchEvent.objects.filter(match=match, idempotency_key=f"web-{data['client_id']}").count()
        == 1
    )


def test_the_live_part_is_each_seats_own_and_answers_304_until_the_log_moves(
    club: Club,
) -> None:
    match = club.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    clients = [club.client(seat_user(club, s)) for s in range(4)]
    parts = [c.get(f"/play/{match.pk}/live/") for c in clients]
    tags = {p["ETag"] for p in parts}
    assert len(tags) == 4
    for seat, part in enumerate(parts):
        assert part.status_code == 200 and part["Cache-Control"].startswith("private")
        assert_hides_the_others(part.content.decode(), match, seat)
    again = clients[0].get(f"/play/{match.pk}/live/", HTTP_IF_NONE_MATCH=parts[0]["ETag"])
    assert again.status_code == 304
    # another seat's tag is no use to this one
    other = clients[0].get(f"/play/{match.pk}/live/", HTTP_IF_NONE_MATCH=parts[1]["ETag"])
    assert other.status_code == 200
    played = play(clients[deal.to_play], match, key(sc.legal_moves(deal)[0]))
    assert played.status_code == 302
    moved = clients[0].get(f"/play/{match.pk}/live/", HTTP_IF_NONE_MATCH=parts[0]["ETag"])
    assert moved.status_code == 200


def _link_phone(club: Club, side: int) -> CommittingClient:
    team = (club.digital.team0, club.digital.team1)[side]
    _, link_key = links.team_link(actor=club.users["director"], team=team)
    phone = CommittingClient()
    assert phone.get(f"/l/{link_key}/").status_code == 302
    return phone


def test_a_team_link_plays_the_seat_its_holder_chose_and_never_shows_the_partners_hand(
    club: Club,
) -> None:
    match = club.digital
    phone = _link_phone(club, 1)
    asked = phone.get(f"/play/{match.pk}/")
    assert asked.status_code == 200 and "I am" in asked.content.decode()
    assert_hides_the_others(asked.content.decode(), match, None)
    assert phone.get(f"/play/{match.pk}/live/").status_code == 404
    assert phone.post(f"/play/{match.pk}/seat/", {"seat": "0"}).status_code == 422  # not theirs
    assert phone.post(f"/play/{match.pk}/seat/", {"seat": "3"}).status_code == 302
    page = phone.get(f"/play/{match.pk}/").content.decode()
    assert_hides_the_others(page, match, 3)
    # the choice is kept: the partner's seat stays closed to this phone
    phone.post(f"/play/{match.pk}/seat/", {"seat": "1"})
    assert_hides_the_others(phone.get(f"/play/{match.pk}/").content.decode(), match, 3)
    assert_hides_the_others(phone.get(f"/play/{match.pk}/live/").content.decode(), match, 3)
    # the other team's link reaches only its own team's seats
    assert _link_phone(club, 0).post(f"/play/{match.pk}/seat/", {"seat": "3"}).status_code == 422


#: a new tag for each club a hypothesis example makes (they share the test's database)
CLUBS = itertools.count()


def _deal_through_pages(
    club: Club, rng: random.Random, phones: dict[int, CommittingClient]
) -> None:
    """Play the deal in play to its end through the seat pages, each move chosen at random
    among those offered, asserting on every answer that no other seat's card shows."""
    match = club.digital
    deal_no = match_state(match).deal_no
    played: list[dict[str, Any]] = []
    first = match_state(match).deal
    assert first is not None
    while True:
        state = match_state(match)
        if state.deal_no != deal_no or state.deal is None or state.deal.to_play is None:
            break
        seat = state.deal.to_play
        pages = {s: phones[s].get(f"/play/{match.pk}/live/").content.decode() for s in range(4)}
        for s, text in pages.items():
            assert_hides_the_others(text, match, s)
        offered = offered_moves(pages[seat])
        assert offered and all(not offered_moves(pages[s]) for s in range(4) if s != seat)
        move = rng.choice(offered)
        answer = play(phones[seat], match, key(move))
        assert answer.status_code == 302, answer.content.decode()[:500]
        played.append(move)
        match.refresh_from_db()
    events = MatchEvent.objects.filter(match=match, kind="deal_ended", payload__deal=deal_no)
    ended = events.get().payload
    replayed = sc.replay(first, played)
    assert replayed.phase == "over"
    score = sc.score(replayed)
    assert ended["points"] == score["points"] and ended["sweeps"] == score["sweeps"]
    assert verify_match(match) == []


@pytest.mark.slow  # three whole deals played move by move through the pages
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_a_whole_deal_played_through_the_pages_scores_as_the_engine_says(seed: int) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        club = make_club(tag=f"h{next(CLUBS)}-")
    rng = random.Random(seed)
    phones = {s: club.client(seat_user(club, s)) for s in range(4)}
    _deal_through_pages(club, rng, phones)


def test_the_pick_list_leads_each_player_to_their_seat_page(club: Club) -> None:
    match = club.digital
    text = club.client(seat_user(club, 1)).get("/keep/").content.decode()
    assert f"/play/{match.pk}/" in text
    assert f"/play/{match.pk}/" not in club.client("east1").get("/keep/").content.decode()
    assert f"/play/{match.pk}/" in _link_phone(club, 0).get("/keep/").content.decode()


def test_the_store_lets_a_link_play_only_its_own_teams_seats(club: Club) -> None:
    match = club.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    move = sc.legal_moves(deal)[0]
    side = deal.to_play % 2
    theirs = links.actor_for(
        links.team_link(actor=club.users["director"], team=(match.team1, match.team0)[side])[0]
    )
    ours = links.actor_for(
        links.team_link(actor=club.users["director"], team=(match.team0, match.team1)[side])[0]
    )
    match.refresh_from_db()
    with pytest.raises(NotPermitted) as refused:
        match_append_event(
            match=match, expected_seq=match.last_seq, kind="move_played",
            payload={"move": move}, actor=theirs,
        )  # fmt: skip
    assert refused.value.code == "not_your_seat"
    match_append_event(
        match=match, expected_seq=match.last_seq, kind="move_played", payload={"move": move},
        actor=ours,
    )  # fmt: skip
    played = MatchEvent.objects.filter(match=match).order_by("-seq").first()
    assert played is not None and played.kind == "move_played" and played.actor_id is None
    assert played.via.startswith(f"team-link:{side}:")
    assert verify_match(match) == []


def test_a_seat_page_before_the_start_and_after_the_end_says_so(club: Club) -> None:
    teams = list(club.tournament.teams.order_by("pk"))
    match = match_create(
        tournament=club.tournament, team0=teams[2], team1=teams[3], mode="digital",
        match_format={"bazzis": 1, "deal_cap": 1, "draws": False},
    )  # fmt: skip
    player = club.client(club.player_of(match, 1, 1))
    waiting = player.get(f"/play/{match.pk}/")
    assert waiting.status_code == 200 and "has not started" in waiting.content.decode()
    check_html(waiting.content.decode())
    demo.start(match, random.Random(3))
    deal = match_state(match).deal
    assert deal is not None and deal.phase == "bid" and deal.to_play is not None
    bidder = club.client(seat_user_of(match, deal.to_play)).get(f"/play/{match.pk}/")
    text = bidder.content.decode()
    assert sorted(map(key, offered_moves(text))) == sorted(map(key, sc.legal_moves(deal)))
    assert "Face down until the bid" in text
    check_html(text)
    demo.play(match, random.Random(3))
    match.refresh_from_db()
    assert match.status == "finished"
    over = player.get(f"/play/{match.pk}/").content.decode()
    assert "The match is over" in over and not offered_moves(over)
    check_html(over)
    refused = play(player, match, '{"seat": 1, "action": "throw", "card": "2C"}')
    assert refused.status_code == 409
