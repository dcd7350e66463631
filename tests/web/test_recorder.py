"""The recorder's page of a table played with real cards, through its forms: who may come in
(the match's score-keeper and the tournament's directors; anyone else a 404, the public the
sign-in page), CSRF on every post, the start, the bid with the floor, plays chosen among the
engine's moves, the engine's refusals in words with their rule, a breach shown with the
promising and the revealing play, the undo of the last play as a ``move_withdrawn``, a resend
written once, and valid HTML at every step."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.test import Client

import seep_core as sc
from tests.matches import assert_log_intact
from tournaments.models import Match, MatchEvent
from tournaments.selectors import match_state
from tournaments.services import match_create
from web import moves

from .checks import check_html, spoken
from .conftest import Club, CommittingClient, make_club

pytestmark = pytest.mark.django_db

BID = {"call": "bid-9", "cards": ["9S", "9H", "9D", "5C"]}


def table_match(club: Club, deals: int = 1) -> Match:
    """A table match of the club's tournament, not started, the score-keeper recording it."""
    first, second = club.matches[0].team0, club.matches[0].team1
    match = match_create(
        tournament=club.tournament, team0=first, team1=second, mode="table",
        match_format={"deal_cap": deals},
    )  # fmt: skip
    match.scorekeepers.add(club.users["scorekeeper"])
    return match


@pytest.fixture
def table(club: Club) -> Match:
    return table_match(club)


@pytest.fixture(autouse=True)
def fresh_process() -> Iterator[None]:
    """What this process keeps of matches (their states, the plays described) starts empty:
    a test's match may have the id an earlier test's had (its database rolled back)."""
    from tournaments import snapshots
    from web import recorder

    with (
        mock.patch.object(snapshots, "recent", snapshots.RecentStates()),
        mock.patch.object(recorder, "_described", recorder._PlaysByMatch()),
    ):
        yield


def post(client: Client, match: Match, step: str, data: dict[str, Any], **extra: Any) -> Any:
    match.refresh_from_db()
    body = {"expected_seq": match.last_seq, "client_id": extra.pop("client_id", None)}
    body["client_id"] = body["client_id"] or f"{step}{match.last_seq:04d}" + "0" * 24
    return client.post(f"/record/{match.pk}/{step}/", {**body, **data}, **extra)


def kinds(match: Match) -> list[str]:
    return list(
        MatchEvent.objects.filter(match=match).order_by("seq").values_list("kind", flat=True)
    )


def key_of(match: Match, card: str, action: str) -> str:
    deal = match_state(match).deal
    assert deal is not None
    return moves.key(
        next(m for m in sc.legal_moves(deal) if m["card"] == card and m["action"] == action)
    )


def test_only_the_score_keeper_and_the_directors_find_the_recorders_page(
    club: Club, table: Match
) -> None:
    url = f"/record/{table.pk}/"
    for who in ("scorekeeper", "director"):
        page = club.client(who).get(url)
        assert page.status_code == 200, who
        check_html(page.content.decode())
        assert "Who deals first?" in page.content.decode()
    player = club.player_of(table, 0)
    for who in ("outsider", player):
        assert club.client(who).get(url).status_code == 404, who
        assert post(club.client(who), table, "start", {"first_dealer": 3}).status_code == 404
    assert club.client().get(url).status_code == 302  # the public: sign in first
    assert club.client("scorekeeper").get(f"/record/{club.matches[0].pk}/").status_code == 404
    other = make_club(tag="other-")
    assert other.client("director").get(url).status_code == 404  # another tournament's
    assert kinds(table) == []
    strict = CommittingClient(enforce_csrf_checks=True)
    strict.force_login(club.users["scorekeeper"])
    assert post(strict, table, "start", {"first_dealer": 3}).status_code == 403
    assert kinds(table) == []


def test_a_deal_is_recorded_card_by_card_and_a_breach_is_shown_with_its_rule(
    club: Club, table: Match
) -> None:
    keeper = club.client("scorekeeper")
    assert post(keeper, table, "start", {"first_dealer": 3}).status_code == 302
    assert kinds(table) == ["match_started", "deal_started"]
    page = keeper.get(f"/record/{table.pk}/").content.decode()
    check_html(page)
    assert "Record the bid" in page and "Bid 13" in page

    assert post(keeper, table, "bid", BID).status_code == 302
    page = keeper.get(f"/record/{table.pk}/").content.decode()
    check_html(page)
    assert 'class="card-seen"' in page and page.count('class="card-seen"') == 4
    chosen = keeper.get(f"/record/{table.pk}/?card=4H").content.decode()
    check_html(chosen)
    build = key_of(table, "4H", "build")
    assert "North (South 1) plays 4♥" in chosen and "Build a house of 9 with 5♣" in chosen
    assert post(keeper, table, "play", {"move": build}).status_code == 302
    capture = key_of(table, "9C", "capture")
    assert post(keeper, table, "play", {"move": capture}).status_code == 302
    page = keeper.get(f"/record/{table.pk}/").content.decode()
    # what a screen reader reads: the plays, the breaches and the houses with cards in words
    said = " ".join(spoken(check_html(page).find(".//main")).split())
    assert 'role="alert"' in page and 'data-breach="B1"' in page and 'data-breach="H5"' in page
    assert "Promised at play 0: North (South 1), Bid 9; the floor turned up: 5 of clubs" in said
    assert "Shown broken by play 2: West (" in said
    assert "all four 9s had been seen by play 2" in said
    assert "Build a house of 9 with 5 of clubs" in said
    assert not re.search("[♠♥♦♣]", said), said
    assert_log_intact(table)


def test_refusals_come_back_in_words_with_the_rule_and_write_nothing(
    club: Club, table: Match
) -> None:
    keeper = club.client("scorekeeper")
    post(keeper, table, "start", {"first_dealer": 3})
    before = kinds(table)
    # B2: a throw-in shows no card above 8
    high = post(keeper, table, "bid", {"call": "redeal", "cards": ["KS", "2H", "3D", "4C"]})
    assert high.status_code == 422
    assert "(B2)" in high.content.decode()
    check_html(high.content.decode())
    # the engine's refusal as JSON, for the page's script
    floor = ["2S", "3H", "4D", "5C"]
    bad = post(
        keeper, table, "bid", {"call": "bid-9", "cards": floor[:3]},
        HTTP_ACCEPT="application/json",
    )  # fmt: skip
    assert bad.status_code == 422 and bad.json()["ok"] is False and bad.json()["message"]
    assert kinds(table) == before
    assert post(keeper, table, "bid", {"call": "bid-9", "cards": floor}).status_code == 302
    # T1: a card that could capture is not thrown loose (the seat's 9 could take 4D + 5C)
    thrown = post(keeper, table, "play", {"throw": "9S"}, HTTP_ACCEPT="application/json")
    assert thrown.status_code == 422 and thrown.json()["rule"] == "T1"
    assert "(T1)" in thrown.json()["message"]
    # a move the engine does not list now (a stale or forged page) is refused in words
    forged = moves.key({"seat": 1, "action": "throw", "card": "KD"})
    stale = post(keeper, table, "play", {"move": forged})
    assert stale.status_code == 409 and "not one the table can make now" in stale.content.decode()
    assert kinds(table) == [*before, "move_played"]


def test_the_last_play_is_undone_as_a_new_event_and_a_resend_is_written_once(
    club: Club, table: Match
) -> None:
    keeper = club.client("scorekeeper")
    post(keeper, table, "start", {"first_dealer": 3})
    post(keeper, table, "bid", BID)
    build = key_of(table, "4H", "build")
    sent = post(
        keeper, table, "play", {"move": build}, client_id="a" * 32, HTTP_ACCEPT="application/json"
    )
    assert sent.json()["ok"] is True
    # the connection dropped before the answer: the phone sends the same command again
    again = keeper.post(
        f"/record/{table.pk}/play/",
        {"expected_seq": table.last_seq, "client_id": "a" * 32, "move": build},
        HTTP_ACCEPT="application/json",
    )
    assert again.json()["ok"] is True
    assert kinds(table).count("move_played") == 2
    page = keeper.get(f"/record/{table.pk}/").content.decode()
    assert "Undo this play" in page and "Last recorded: play 1, North (South 1)" in page
    assert post(keeper, table, "undo", {"move": build}).status_code == 302
    assert kinds(table)[-2:] == ["move_played", "move_withdrawn"]
    page = keeper.get(f"/record/{table.pk}/").content.decode()
    check_html(page)
    assert "Undo this play" not in page  # one play only: the bid stays
    assert match_state(table).deal.plays == 0
    refused = post(keeper, table, "undo", {"move": build})
    assert refused.status_code == 409 and "Only the last play" in refused.content.decode()
    assert_log_intact(table)


def test_the_match_picker_lists_the_tables_to_record_and_sends_the_recorder_there(
    club: Club, table: Match
) -> None:
    for who in ("scorekeeper", "director"):
        picker = club.client(who).get("/keep/").content.decode()
        check_html(picker)
        assert f'href="/record/{table.pk}/"' in picker, who
        sent = club.client(who).get(f"/keep/{table.pk}/")
        assert sent.status_code == 302 and sent["Location"] == f"/record/{table.pk}/"
    assert f"/record/{table.pk}/" not in club.client("outsider").get("/keep/").content.decode()
    assert club.client("outsider").get(f"/keep/{table.pk}/").status_code == 404  # no hint


def test_the_page_reads_as_many_rows_after_twenty_plays_as_after_one(
    club: Club, table: Match
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    keeper = club.client("scorekeeper")
    post(keeper, table, "start", {"first_dealer": 3})
    post(keeper, table, "bid", {"call": "bid-9", "cards": ["2S", "3H", "4D", "5C"]})

    def counted() -> int:
        keeper.get(f"/record/{table.pk}/")  # warm: the session and the templates
        with CaptureQueriesContext(connection) as captured:
            assert keeper.get(f"/record/{table.pk}/?card=KD").status_code == 200
        return len(captured)

    early = counted()
    for _ in range(20):
        deal = match_state(table).deal
        assert deal is not None
        post(keeper, table, "play", {"move": moves.key(sc.legal_moves(deal)[0])})
    assert match_state(table).deal.plays == 20
    assert counted() == early <= 12


def test_the_page_describes_each_play_once_and_what_it_keeps_is_what_a_fresh_process_reads(
    club: Club, table: Match
) -> None:
    from web import recorder

    keeper = club.client("scorekeeper")
    post(keeper, table, "start", {"first_dealer": 3})
    post(keeper, table, "bid", BID)
    url = f"/record/{table.pk}/"

    def described(path: str = url) -> int:
        with mock.patch.object(recorder, "_describe", wraps=recorder._describe) as spy:
            assert keeper.get(path).status_code == 200
        return spy.call_count

    def fresh_plays() -> list[recorder.Play]:
        table.refresh_from_db()
        with mock.patch.object(recorder, "_described", recorder._PlaysByMatch()):
            return recorder.recorder_page(table, match_state(table)).plays

    described()
    assert described() == described(f"{url}?card=4H") == 0  # shown again: nothing replayed
    for card, action in (("4H", "build"), ("9C", "capture")):
        post(keeper, table, "play", {"move": key_of(table, card, action)})
        assert described() == 2  # the new play only, in glyphs and in words
    last = match_state(table).last_play
    assert last is not None
    post(keeper, table, "undo", {"move": moves.key(last.move)})
    assert described() == 0  # a withdrawal goes back to the position kept before the play
    table.refresh_from_db()
    kept = recorder.recorder_page(table, match_state(table)).plays
    assert kept == fresh_plays() and len(kept) == 2
