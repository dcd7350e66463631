"""The phone page settles a dispute at the table (issue 38): the team that entered a deal
withdraws its entry or accepts the other team's numbers, in words a player understands; the
other team, and anyone else, is offered neither and refused both; the director's board shows
what the table did. Bad input gets words, never a 500."""

from __future__ import annotations

import html
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import DealResult
from tests.scoring.helpers import committed
from tournaments.models import Match
from tournaments.selectors import match_state
from tournaments.services import match_append_event
from tournaments.verify import verify_match

from .checks import check_html
from .conftest import Club, make_club

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def command(match: Match, **fields: Any) -> dict[str, Any]:
    match.refresh_from_db()
    return {"expected_seq": match.last_seq, "client_id": uuid.uuid4().hex, **fields}


def enter(club: Club, who: str, match: Match, a: int = 60) -> None:
    response = club.client(who).post(
        f"/keep/{match.pk}/enter/",
        command(match, points_a=a, points_b=100 - a, sweeps_a=0, sweeps_b=0),
    )
    assert response.status_code == 302, response.content.decode()


def reject(club: Club, who: str, match: Match, entry: int = 1, a: int | None = 45) -> None:
    fields: dict[str, Any] = {"action": "reject", "entry": entry, "reason": "We counted again"}
    if a is not None:
        fields.update(points_a=a, points_b=100 - a, sweeps_a=0, sweeps_b=0)
    response = club.client(who).post(f"/keep/{match.pk}/answer/", command(match, **fields))
    assert response.status_code == 302, response.content.decode()


def page_of(club: Club, who: str, match: Match) -> str:
    return html.unescape(club.client(who).get(f"/keep/{match.pk}/").content.decode())


def points(match: Match) -> list[tuple[int, int]]:
    return list(DealResult.objects.filter(match=match).values_list("points0", "points1"))


def test_the_entering_team_accepts_the_other_teams_numbers_and_the_deal_counts_with_them(
    club: Club,
) -> None:
    match = club.matches[0]
    a0, a1, b0 = club.player_of(match, 0), club.player_of(match, 0, 1), club.player_of(match, 1)
    enter(club, a0, match, 60)
    reject(club, b0, match, a=45)
    check_html(club.client(a1).get(f"/keep/{match.pk}/").content.decode())
    partner = page_of(club, a1, match)
    assert "Accept their numbers" in partner and "Withdraw our entry" in partner
    assert f"{match.team0.name} 45, {match.team1.name} 55" in partner
    # the team that rejected is offered neither
    other = page_of(club, b0, match)
    assert "Accept their numbers" not in other and "Withdraw our entry" not in other
    phone = club.client(a1)
    done = phone.post(f"/keep/{match.pk}/accept/", command(match, entry=1))
    assert done.status_code == 302
    assert points(match) == [(45, 55)]
    kinds = list(match.events.order_by("seq").values_list("kind", flat=True))
    assert kinds[-3:] == ["version_accepted", "deal_ended", "match_ended"]
    assert "You accepted their numbers" in phone.get(f"/keep/{match.pk}/").content.decode()
    assert verify_match(match) == []


def test_withdraw_an_unanswered_entry_then_the_other_team_enters_the_deal(club: Club) -> None:
    match = club.matches[0]
    a0, b1 = club.player_of(match, 0), club.player_of(match, 1, 1)
    enter(club, a0, match, 60)
    mine = page_of(club, a0, match)
    assert "Withdraw our entry" in mine and "Accept their numbers" not in mine
    withdrawn = club.client(a0).post(f"/keep/{match.pk}/withdraw/", command(match, entry=1), **JSON)
    assert withdrawn.status_code == 200 and withdrawn.json()["ok"]
    assert match_state(match).entries == ()
    assert "Send deal 1" in page_of(club, b1, match)
    enter(club, b1, match, 70)
    answered = club.client(a0).post(
        f"/keep/{match.pk}/answer/", command(match, action="confirm", entry=2)
    )
    assert answered.status_code == 302
    assert points(match) == [(70, 30)]
    assert verify_match(match) == []


def test_the_other_team_and_outsiders_are_refused_in_words_and_nothing_is_written(
    club: Club,
) -> None:
    match = club.matches[0]
    a0, b0 = club.player_of(match, 0), club.player_of(match, 1)
    enter(club, a0, match, 60)
    reject(club, b0, match, a=45)
    match.refresh_from_db()
    head = match.last_seq
    for path, code, words in (
        ("accept", "own_version", "your own team's numbers"),
        ("withdraw", "not_your_entry", "Only the team that entered"),
    ):
        refused = club.client(b0).post(f"/keep/{match.pk}/{path}/", command(match, entry=1), **JSON)
        assert refused.status_code == 403
        assert refused.json()["code"] == code and words in refused.json()["message"]
    # a player of another match, an outsider: no such match for them
    other_match = club.matches[1]
    for who in ("outsider", club.player_of(other_match, 0)):
        response = club.client(who).post(f"/keep/{match.pk}/accept/", command(match, entry=1))
        assert response.status_code == 404
    assert club.client().post(
        f"/keep/{match.pk}/withdraw/", command(match, entry=1)
    ).status_code in (
        302,
        404,
    )  # anonymous: to the sign-in, or no such match
    match.refresh_from_db()
    assert match.last_seq == head and match_state(match).disputed


def test_a_director_decides_and_the_table_can_no_longer_settle_it(club: Club) -> None:
    match = club.matches[0]
    a0, b0 = club.player_of(match, 0), club.player_of(match, 1)
    enter(club, a0, match, 60)
    reject(club, b0, match, a=45)
    stale = command(match, entry=1)
    with committed():
        match_append_event(
            match=match, expected_seq=match.last_seq, kind="deal_ended",
            payload={"points": [50, 50], "sweeps": [[], []]}, actor=club.users["director"],
        )  # fmt: skip
    refused = club.client(a0).post(f"/keep/{match.pk}/accept/", stale, **JSON)
    assert refused.status_code == 409
    assert points(match) == [(50, 50)]
    assert "Accept their numbers" not in page_of(club, a0, match)


@pytest.fixture
def longer(db: None, django_capture_on_commit_callbacks: Any) -> Club:
    """The club evening with matches of three bazzis: a deal counted, the match goes on."""
    with django_capture_on_commit_callbacks(execute=True):
        club = make_club(start_matches=False, tag="l-")
        for match in club.matches:
            Match.objects.filter(pk=match.pk).update(match_format={"bazzis": 3})
            match_append_event(
                match=match, expected_seq=0, kind="match_started", payload={"first_dealer": 0},
                actor=club.users["director"],
            )  # fmt: skip
            match.refresh_from_db()
    return club


def test_the_board_shows_what_the_table_settled(longer: Club) -> None:
    club = longer
    first, second = club.matches
    enter(club, club.player_of(first, 0), first, 60)
    reject(club, club.player_of(first, 1), first, a=45)
    withdrawn = club.client(club.player_of(first, 0, 1)).post(
        f"/keep/{first.pk}/withdraw/", command(first, entry=1)
    )
    assert withdrawn.status_code == 302
    enter(club, club.player_of(second, 0), second, 60)
    reject(club, club.player_of(second, 1), second, a=45)
    accepted = club.client(club.player_of(second, 0)).post(
        f"/keep/{second.pk}/accept/", command(second, entry=1)
    )
    assert accepted.status_code == 302
    board = club.client("director").get(f"/desk/{club.tournament.slug}/board/")
    check_html(board.content.decode())
    text = html.unescape(board.content.decode())
    assert f"Deal 1: entry withdrawn by {first.team0.name}" in text
    # the withdrawn entry's rejection is no longer a dispute on the board
    assert "Rejected by" not in text and "Needs you" in text
    assert "disputed" not in text.split("board-tables", 1)[1]
    t0, t1 = second.team0.name, second.team1.name
    assert f"Deal 1: {t0} accepted {t1}'s version ({t0} 45, {t1} 55)" in text


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    path=st.sampled_from(["withdraw", "accept"]),
    data=st.dictionaries(
        st.sampled_from(["expected_seq", "client_id", "entry", "deal"]),
        st.one_of(st.text(max_size=30), st.integers(-(2**70), 2**70).map(str)),
        max_size=4,
    ),
    as_json=st.booleans(),
)
def test_any_form_gets_words_and_never_a_500(
    club: Club, path: str, data: dict[str, str], as_json: bool
) -> None:
    match = club.matches[1]
    who = club.player_of(match, 0)
    headers = JSON if as_json else {}
    response = club.client(who).post(f"/keep/{match.pk}/{path}/", data, **headers)
    assert response.status_code in (200, 302, 403, 409, 422, 503), response.status_code
    assert verify_match(match) == []
