"""A seat of a digital match claimed once through a team's link (docs/links.md, "Playing a
digital match"): the first browser to claim a seat holds it, a second browser is refused in
words and sees no hand, a browser holds one seat of a match, and only a director releases a
seat (asked first), after which the next browser to claim it holds it and the old one is told
so. Each client here is its own browser (its own session)."""

from __future__ import annotations

import html

import pytest

from competition import services as competition
from competition.models import Stage
from tournaments import links
from tournaments.models import Match, Player, SeatClaim, Tournament

from .checks import check_html
from .conftest import Club, CommittingClient
from .test_seat import assert_hides_the_others, hands_now, shows_a_card

pytestmark = pytest.mark.django_db

HELD = "seat is already held by another phone; ask the director to release it"


def phone(club: Club, side: int) -> CommittingClient:
    """A new browser that opened the team's link (side 0: the digital match's team0)."""
    match = club.digital
    team = (match.team0, match.team1)[side]
    _, key = links.team_link(actor=club.users["director"], team=team)
    browser = CommittingClient()
    assert browser.get(f"/l/{key}/").status_code == 302
    return browser


def name_at(match: Match, seat: int) -> str:
    return str(match.seat_players()[seat].name)


def claim(browser: CommittingClient, match: Match, seat: int) -> tuple[int, str]:
    answer = browser.post(f"/play/{match.pk}/seat/", {"seat": str(seat)})
    return answer.status_code, html.unescape(answer.content.decode())


def page(browser: CommittingClient, match: Match, part: str = "") -> tuple[int, str]:
    answer = browser.get(f"/play/{match.pk}/{part}")
    return answer.status_code, html.unescape(answer.content.decode())


def shows_the_hand(text: str, match: Match, seat: int) -> bool:
    return all(shows_a_card(text, card) for card in hands_now(match)[seat])


def release(club: Club, who: str | None, match: Match, seat: int, confirmed: bool = True) -> int:
    browser = club.client(who)
    data = {"seat": str(seat), **({"confirmed": "yes"} if confirmed else {})}
    url = f"/desk/{club.tournament.slug}/matches/{match.pk}/seats/release/"
    return int(browser.post(url, data).status_code)


def test_a_second_browser_claiming_a_held_seat_is_refused_in_words_and_sees_no_hand(
    club: Club,
) -> None:
    match = club.digital
    first, second = phone(club, 1), phone(club, 1)
    assert claim(first, match, 3)[0] == 302
    status, text = claim(second, match, 3)
    assert status == 409
    assert f"{name_at(match, 3)}'s {HELD}" in text
    assert_hides_the_others(text, match, None)
    status, text = page(second, match)
    assert status == 200 and "I am" in text
    assert f"{name_at(match, 3)}'s seat is held by another phone" in text
    assert_hides_the_others(text, match, None)
    assert page(second, match, "live/")[0] == 404
    check_html(second.get(f"/play/{match.pk}/").content.decode())
    # the first browser keeps the seat, and its hand
    status, text = page(first, match)
    assert status == 200 and shows_the_hand(text, match, 3)
    assert_hides_the_others(text, match, 3)


def test_one_browser_cannot_hold_both_seats_of_its_team(club: Club) -> None:
    match = club.digital
    browser = phone(club, 0)
    assert claim(browser, match, 0)[0] == 302
    status, text = claim(browser, match, 2)
    assert status == 409
    assert f"This phone holds {name_at(match, 0)}'s seat at this match" in text
    assert_hides_the_others(text, match, 0)
    for part in ("", "live/"):
        assert_hides_the_others(page(browser, match, part)[1], match, 0)
    # the partner's seat is still free for the partner's own phone
    partner = phone(club, 0)
    assert claim(partner, match, 2)[0] == 302
    status, text = page(partner, match)
    assert shows_the_hand(text, match, 2)
    assert_hides_the_others(text, match, 2)
    # claiming the seat it holds again changes nothing
    assert claim(browser, match, 0)[0] == 302
    assert shows_the_hand(page(browser, match)[1], match, 0)


def test_the_directors_release_lets_a_new_browser_claim_the_seat_and_the_old_one_loses_it(
    club: Club,
) -> None:
    match, name = club.digital, name_at(club.digital, 1)
    old, new = phone(club, 1), phone(club, 1)
    assert claim(old, match, 1)[0] == 302
    desk = club.client("director")
    check_html(desk.get(f"/desk/{club.tournament.slug}/matches/{match.pk}/").content.decode())
    text = html.unescape(
        desk.get(f"/desk/{club.tournament.slug}/matches/{match.pk}/").content.decode()
    )
    assert f"Release {name}'s seat" in text
    # asked first: nothing is released until the director confirms
    asked = desk.post(
        f"/desk/{club.tournament.slug}/matches/{match.pk}/seats/release/", {"seat": "1"}
    )
    assert asked.status_code == 200 and f"Release {name}'s seat?" in html.unescape(
        asked.content.decode()
    )
    assert claim(new, match, 1)[0] == 409
    assert release(club, "director", match, 1) == 302
    released = SeatClaim.objects.get(match=match, seat=1)
    assert released.released_by == club.users["director"] and released.released_at is not None
    # the old browser is told, on the page and in its live part, and shows no hand
    for part in ("", "live/"):
        status, text = page(old, match, part)
        assert status == 200 and f"{name}'s seat was released by the director" in text
        assert_hides_the_others(text, match, None)
    check_html(old.get(f"/play/{match.pk}/").content.decode())
    # the next browser to claim it holds it
    assert claim(new, match, 1)[0] == 302
    status, text = page(new, match)
    assert shows_the_hand(text, match, 1)
    assert_hides_the_others(text, match, 1)
    assert claim(old, match, 1)[0] == 409
    # releasing a seat no phone holds says so, and changes nothing
    assert release(club, "director", match, 3) == 302
    assert SeatClaim.objects.filter(match=match, released_at__isnull=True).count() == 1


def test_only_a_director_may_release_a_seat(club: Club) -> None:
    match = club.digital
    holder = phone(club, 0)
    assert claim(holder, match, 2)[0] == 302
    player = str(match.seat_players()[0].user.username)  # type: ignore[union-attr]
    assert release(club, player, match, 2) == 403
    assert release(club, "outsider", match, 2) == 403
    assert release(club, "scorekeeper", match, 2) == 403
    assert release(club, None, match, 2) == 302  # to sign in
    assert shows_the_hand(page(holder, match)[1], match, 2)
    assert claim(phone(club, 0), match, 2)[0] == 409


def digital_table(club: Club) -> Match:
    """A match in play at a table of a digital stage's published round, on the board of a
    tournament the club's director runs."""
    director = club.users["director"]
    t = Tournament.objects.create(name="Digital night", slug="digital-night", organizer=director)
    teams = [
        competition.team_register(
            actor=director, tournament=t, name=name, checked_in=True,
            first_player=Player.objects.create(name=f"{name} 1"),
            second_player=Player.objects.create(name=f"{name} 2"),
        )
        for name in ("Lotus", "Tigers")
    ]  # fmt: skip
    assert len(teams) == 2
    stage = competition.stage_create(
        actor=director, tournament=t, name="Digital", mode="digital",
        format=Stage.Format.ROUND_ROBIN, match_format={"bazzis": 1, "deal_cap": 1},
    )  # fmt: skip
    competition.stage_start(actor=director, stage=stage)
    round_ = competition.round_pair(actor=director, stage=stage)
    competition.round_publish(actor=director, round=round_)
    match = Match.objects.filter(fixture__stage=stage, status=Match.Status.IN_PROGRESS).first()
    assert match is not None
    return match


def test_the_board_shows_a_held_seat_and_releases_it_back_to_the_board(club: Club) -> None:
    """A digital stage's table on the director's board: the seat a phone holds there has its
    "Release …'s seat" button, which asks first and comes back to the board."""
    director, match = club.users["director"], digital_table(club)
    slug = match.tournament.slug
    holder = CommittingClient()
    _, key = links.team_link(actor=director, team=match.team1)
    holder.get(f"/l/{key}/")
    assert claim(holder, match, 1)[0] == 302
    name, board = name_at(match, 1), f"/desk/{slug}/board/"
    desk = club.client("director")
    shown = desk.get(board).content.decode()
    assert f"Release {name}'s seat" in html.unescape(shown)
    check_html(shown)
    url = f"/desk/{slug}/matches/{match.pk}/seats/release/"
    asked = desk.post(url, {"seat": "1", "from": "board"})
    assert asked.status_code == 200 and 'name="from" value="board"' in asked.content.decode()
    done = desk.post(url, {"seat": "1", "from": "board", "confirmed": "yes"})
    assert done.status_code == 302 and done["Location"] == f"{board}#match-{match.pk}"
    assert f"Release {name}'s seat" not in html.unescape(desk.get(board).content.decode())
    assert "seat was released by the director" in page(holder, match)[1]
