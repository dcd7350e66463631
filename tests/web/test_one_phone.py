"""One phone a table: a team's phone enters a deal, and the other team confirms on the same
phone with the code on its own card (the two-person rule as with two phones: the log says
who entered and whose code confirmed); a wrong code is refused in words and counted, and a
phone that guesses is locked out until the director lets it try again. The board shows the
tables on one phone, when each table's phones were last heard from, and the silent ones."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from tournaments import links, phones
from tournaments.models import Match, MatchEvent, TablePhones, Team, TeamLink, Tournament
from tournaments.verify import verify_match
from web.views.desk import board as board_views

from .checks import check_html
from .conftest import Club, CommittingClient
from .test_team_links import command, desk, enter, link_of, phone, published_evening

pytestmark = pytest.mark.django_db
__all__ = ["desk"]  # the fixture, used by name


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    cache.clear()  # last heard is throttled in the cache: each test starts unheard
    yield
    cache.clear()  # ... and leaves none: a later test's match of the same id would read it


def code_of(desk: CommittingClient, t: Tournament, team: Team) -> str:
    """The confirmation code the team's card prints (the director's page of the team's card)."""
    page = desk.get(f"/desk/{t.slug}/teams/{team.pk}/link/").content.decode()
    found = re.search(r"<strong data-code>([0-9 ]+)</strong>", page)
    assert found is not None
    return found.group(1)


def table(desk: CommittingClient) -> tuple[Tournament, Match, CommittingClient, str, str]:
    """A published round; the first table's phone opened from its first team's link (it
    enters); the codes of both teams."""
    t, _ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    one = phone(link_of(desk, t, match.team0))
    return t, match, one, code_of(desk, t, match.team0), code_of(desk, t, match.team1)


def by_code(client: CommittingClient, match: Match, code: str, entry: int = 1) -> Any:
    return client.post(f"/keep/{match.pk}/code/", command(match, entry=entry, code=code))


def board(desk: CommittingClient, t: Tournament, match: Match) -> str:
    """The board's words about ``match``'s table."""
    page = html.unescape(desk.get(f"/desk/{t.slug}/board/").content.decode())
    found = re.search(rf'<li [^>]*id="match-{match.pk}".*?</li>', page, re.S)
    assert found is not None
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))


def attention(desk: CommittingClient, t: Tournament) -> str:
    page = html.unescape(desk.get(f"/desk/{t.slug}/board/").content.decode())
    found = re.search(r'<section aria-labelledby="attention-h".*?</section>', page, re.S)
    assert found is not None
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))


def test_the_other_team_confirms_on_the_same_phone_with_its_cards_code(
    desk: CommittingClient,
) -> None:
    t, match, one, _tigers, lotus = table(desk)
    assert enter(one, match, 60).status_code == 302
    page = one.get(f"/keep/{match.pk}/").content.decode()
    check_html(page)
    assert "data-code-form" in page  # the other team may confirm here

    done = by_code(one, match, lotus)
    assert done.status_code == 302
    message = html.unescape(one.get(f"/keep/{match.pk}/").content.decode())
    assert f"Deal 1 confirmed by {match.team1.name} with their code." in message

    tigers_link = TeamLink.objects.get(team=match.team0, revoked_at__isnull=True)
    lotus_link = TeamLink.objects.get(team=match.team1, revoked_at__isnull=True)
    entered = MatchEvent.objects.get(match=match, kind="deal_entered")
    confirmed = MatchEvent.objects.get(match=match, kind="deal_confirmed")
    # the log's authors: the phone's team entered, the code's team confirmed, on that phone
    assert entered.actor_id is None and entered.via == f"team-link:0:{tigers_link.pk}"
    assert confirmed.actor_id is None
    assert confirmed.via == f"team-link:1:{lotus_link.pk}:code-on:{tigers_link.pk}"
    ended = MatchEvent.objects.get(match=match, kind="deal_ended")
    assert ended.payload["points"] == [60, 40]
    match.refresh_from_db()
    assert verify_match(match) == []  # a replay knows the confirmer as the code's team
    # the board shows the table plays on one phone
    assert f"One phone: the table plays on {match.team0.name}'s phone" in board(desk, t, match)


def test_a_teams_own_code_confirms_nothing_and_is_not_counted(desk: CommittingClient) -> None:
    _t, match, one, tigers, _lotus = table(desk)
    enter(one, match, 60)
    own = by_code(one, match, tigers)
    assert own.status_code == 403
    assert "That is your own team's code" in html.unescape(own.content.decode())
    assert not MatchEvent.objects.filter(match=match, kind="deal_confirmed").exists()
    assert not TablePhones.objects.filter(match=match, code_failures__gt=0).exists()


def test_a_wrong_code_is_refused_in_words_and_counted(desk: CommittingClient) -> None:
    t, match, one, tigers, lotus = table(desk)
    enter(one, match, 60)
    wrong = next(c for c in ("000 000", "000 001", "000 002") if c not in (tigers, lotus))
    refused = one.post(
        f"/keep/{match.pk}/code/",
        command(match, entry=1, code=wrong),
        headers={"Accept": "application/json"},
    )
    assert refused.status_code == 403
    answer = refused.json()
    assert answer["ok"] is False and answer["code"] == "wrong_code"
    assert "That is not the other team's code: nothing was confirmed" in answer["message"]
    assert "4 more tries" in answer["message"]
    assert not MatchEvent.objects.filter(match=match, kind="deal_confirmed").exists()
    assert TablePhones.objects.get(match=match).code_failures == 1
    assert "1 wrong code typed on the table's phone" in board(desk, t, match)


def test_a_phone_that_guesses_is_locked_out_and_the_board_says_so(
    desk: CommittingClient,
) -> None:
    t, match, one, tigers, lotus = table(desk)
    enter(one, match, 60)
    wrongs = [f"{n:06d}" for n in range(20) if f"{n:06d}" not in (tigers, lotus)]
    for n, wrong in enumerate(wrongs[: phones.CODE_TRIES - 1]):
        refused = by_code(one, match, wrong)
        assert refused.status_code == 403
        left = phones.CODE_TRIES - 1 - n
        assert f"{left} more tr" in html.unescape(refused.content.decode())
    last = by_code(one, match, wrongs[phones.CODE_TRIES])
    assert "typed too many wrong codes" in html.unescape(last.content.decode())
    # locked: even the right code confirms nothing now, and the page says why
    right = by_code(one, match, lotus)
    assert right.status_code == 403
    assert "too many wrong codes" in html.unescape(right.content.decode())
    assert not MatchEvent.objects.filter(match=match, kind="deal_confirmed").exists()
    page = one.get(f"/keep/{match.pk}/").content.decode()
    assert "data-codes-locked" in page and "data-code-form" not in page

    words = board(desk, t, match)
    assert "Needs you" in words and "Locked out of codes" in words
    assert f"{phones.CODE_TRIES} wrong codes" in words
    assert "its phone is locked out of codes" in attention(desk, t)

    # another phone, or another address, is the same table: still locked
    again = phone(link_of(desk, t, match.team0))
    assert by_code(again, match, lotus).status_code == 403

    # only a director lets it try again
    stranger = CommittingClient()
    assert stranger.post(f"/desk/{t.slug}/board/matches/{match.pk}/codes/").status_code in (
        302,
        404,
    )
    someone = CommittingClient()
    someone.force_login(type(t.organizer).objects.create_user("not-a-director"))
    assert someone.post(f"/desk/{t.slug}/board/matches/{match.pk}/codes/").status_code == 404
    assert phones.locked(match.pk)
    held = one.get(f"/keep/{match.pk}/status/")["ETag"]  # the phone's live part, locked
    let = desk.post(f"/desk/{t.slug}/board/matches/{match.pk}/codes/")
    assert let.status_code == 302
    # the phone's next poll brings the code box back (its part changed: not 304)
    polled = one.get(f"/keep/{match.pk}/status/", headers={"If-None-Match": held})
    assert polled.status_code == 200 and "data-code-form" in polled.content.decode()
    assert "Locked out of codes" not in board(desk, t, match)
    assert by_code(one, match, lotus).status_code == 302
    assert MatchEvent.objects.filter(match=match, kind="deal_confirmed").exists()


def test_the_code_is_on_its_own_card_only_and_a_new_link_has_a_new_code(
    desk: CommittingClient,
) -> None:
    t, match, one, tigers, lotus = table(desk)
    cards = html.unescape(desk.get(f"/desk/{t.slug}/cards/").content.decode())
    assert tigers in cards and lotus in cards
    # neither team's phone shows a code, its own or the other's
    other = phone(link_of(desk, t, match.team1))
    enter(one, match, 60)
    for client in (one, other):
        for path in ("/keep/", f"/keep/{match.pk}/", f"/keep/{match.pk}/status/"):
            shown = html.unescape(client.get(path).content.decode())
            for code in (tigers, lotus):
                assert code not in shown and code.replace(" ", "") not in shown
    # a link given anew prints a new code; the old one confirms nothing
    desk.post(f"/desk/{t.slug}/teams/{match.team1_id}/link/reissue/", {"confirmed": "yes"})
    new = code_of(desk, t, match.team1)
    assert new != lotus
    assert by_code(one, match, lotus).status_code == 403
    assert by_code(one, match, new).status_code == 302


def test_the_other_team_may_scan_its_own_card_on_the_phone_instead(
    desk: CommittingClient,
) -> None:
    t, match, one, _tigers, _lotus = table(desk)
    enter(one, match, 60)
    scanned = one.get(link_of(desk, t, match.team1))  # the same phone opens Lotus's card
    assert scanned.status_code == 302
    page = html.unescape(one.get(f"/keep/{match.pk}/").content.decode())
    assert "Confirm deal 1" in page and "data-code-form" not in page
    answered = one.post(f"/keep/{match.pk}/answer/", command(match, action="confirm", entry=1))
    assert answered.status_code == 302
    lotus_link = TeamLink.objects.get(team=match.team1, revoked_at__isnull=True)
    confirmed = MatchEvent.objects.get(match=match, kind="deal_confirmed")
    assert confirmed.via == f"team-link:1:{lotus_link.pk}"


def test_a_signed_in_phone_or_a_phone_of_neither_team_takes_no_code(
    desk: CommittingClient,
) -> None:
    t, match, one, _tigers, lotus = table(desk)
    enter(one, match, 60)
    others = Match.objects.filter(tournament=t).exclude(pk=match.pk).order_by("pk").first()
    assert others is not None
    stranger = phone(link_of(desk, t, others.team0))
    assert by_code(stranger, match, lotus).status_code == 404
    # the director's own phone confirms on the board, not with a code
    refused = by_code(desk, match, lotus)
    assert refused.status_code == 422
    assert not MatchEvent.objects.filter(match=match, kind="deal_confirmed").exists()


def test_the_board_shows_when_each_tables_phones_were_last_heard_and_the_silent_ones(
    desk: CommittingClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t, match, one, _tigers, _lotus = table(desk)
    assert "Phones last heard:" in board(desk, t, match)
    assert f"{match.team0.name} not yet" in board(desk, t, match)

    # the phone polls, saying it holds two entries it could not send
    polled = one.get(f"/keep/{match.pk}/status/", headers={"X-Unsent-Entries": "2"})
    assert polled.status_code == 200
    words = board(desk, t, match)
    assert f"{match.team0.name} less than a minute ago (2 entries not sent yet)" in words
    assert f"{match.team1.name} not yet" in words
    assert "Silent" not in words

    # nothing heard for 4 minutes: the table is silent, and needs the director (the board's
    # version has moved on with its clock's minute: its kept part is not shown again)
    long_ago = timezone.now() - timedelta(minutes=4)
    TablePhones.objects.filter(match=match).update(heard0=long_ago)
    later = time.time() + 240
    monkeypatch.setattr(board_views, "time", SimpleNamespace(time=lambda: later))
    words = board(desk, t, match)
    assert "Silent" in words and "Needs you" in words
    assert f"{match.team0.name} 4 min ago" in words
    assert "no phone heard for 4 min" in attention(desk, t)

    # within the throttle a poll writes nothing; a new count of unsent entries is written
    one.get(f"/keep/{match.pk}/status/", headers={"X-Unsent-Entries": "2"})
    assert TablePhones.objects.get(match=match).heard0 == long_ago
    one.get(f"/keep/{match.pk}/status/", headers={"X-Unsent-Entries": "0"})
    row = TablePhones.objects.get(match=match)
    assert row.unsent0 == 0 and row.heard0 is not None and row.heard0 > long_ago
    words = board(desk, t, match)
    assert "Silent" not in words and "not sent yet" not in words


def test_a_nonsense_unsent_header_is_left_out(desk: CommittingClient) -> None:
    _t, match, one, _tigers, _lotus = table(desk)
    for said in ("-3", "two", "9" * 40, "²"):
        assert one.get(f"/keep/{match.pk}/", headers={"X-Unsent-Entries": said}).status_code == 200
    row = TablePhones.objects.get(match=match)
    assert row.unsent0 == 0 and row.heard0 is not None


@given(
    spaces=st.lists(st.integers(min_value=0, max_value=6), max_size=3),
    other=st.text(alphabet="0123456789 ", max_size=12),
)
def test_a_code_is_taken_with_any_spaces_and_no_other_code_is(
    spaces: list[int], other: str
) -> None:
    link = TeamLink(nonce="a-fixed-nonce-for-the-test")
    code = links.link_code(link)
    assert len(code) == links.CODE_DIGITS and code.isdigit()
    spaced = code
    for at in sorted(spaces, reverse=True):
        spaced = spaced[:at] + " " + spaced[at:]
    assert links.code_matches(link, spaced)
    assert links.code_matches(link, other) == ("".join(other.split()) == code)


@pytest.mark.django_db(transaction=True)
def test_a_poll_outside_any_test_transaction_writes_last_heard_after_its_read(
    desk: CommittingClient,
) -> None:
    """The page and its poll read in one snapshot (on PostgreSQL a READ ONLY transaction):
    last heard is written after it, and the poll answers 200."""
    _t, match, one, _tigers, _lotus = table(desk)
    for path in (f"/keep/{match.pk}/", f"/keep/{match.pk}/status/"):
        cache.clear()
        TablePhones.objects.filter(match=match).update(heard0=None)
        answer = one.get(path, headers={"X-Unsent-Entries": "1"})
        assert answer.status_code == 200
        row = TablePhones.objects.get(match=match)
        assert row.heard0 is not None and row.unsent0 == 1


def test_a_seated_players_phone_is_heard_on_the_keep_and_the_seat_pages(club: Club) -> None:
    score, digital = club.matches[0], club.digital
    club.client(club.player_of(score, 1)).get(f"/keep/{score.pk}/status/")
    row = TablePhones.objects.get(match=score)
    assert row.heard1 is not None and row.heard0 is None
    seated = club.client(club.player_of(digital, 0))
    assert seated.get(f"/play/{digital.pk}/", headers={"X-Unsent-Entries": "3"}).status_code == 200
    row = TablePhones.objects.get(match=digital)
    assert row.heard0 is not None and row.unsent0 == 3
    # the public, and a director who is not at the table, are no table's phone
    club.client("director").get(f"/keep/{score.pk}/status/")
    club.client().get(f"/t/{club.tournament.slug}/")
    assert TablePhones.objects.get(match=score).heard0 is None


# --- both sides enter: the other team enters its own numbers on the phone, with its code ---


def both_enter_table(desk: CommittingClient) -> tuple[Match, CommittingClient, str, str]:
    """A published round of a match whose sides both enter; the first table's phone opened
    from its first team's link; the codes of both teams."""
    t, _ = published_evening(desk, confirmation="both_enter")
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None and match.confirmation == "both_enter"
    one = phone(link_of(desk, t, match.team0))
    return match, one, code_of(desk, t, match.team0), code_of(desk, t, match.team1)


def enter_by_code(client: CommittingClient, match: Match, a: int, code: str) -> Any:
    fields = {"points_a": a, "points_b": 100 - a, "sweeps_a": 0, "sweeps_b": 0, "code": code}
    return client.post(f"/keep/{match.pk}/code-enter/", command(match, **fields))


def test_where_both_sides_enter_the_other_team_enters_its_own_numbers_with_its_code(
    desk: CommittingClient,
) -> None:
    match, one, _tigers, lotus = both_enter_table(desk)
    assert enter(one, match, 60).status_code == 302
    page = one.get(f"/keep/{match.pk}/").content.decode()
    check_html(page)
    assert f'action="/keep/{match.pk}/code-enter/"' in page  # the box for their numbers
    assert lotus not in page and lotus.replace(" ", "") not in page  # never their code

    assert enter_by_code(one, match, 60, lotus).status_code == 302
    message = html.unescape(one.get(f"/keep/{match.pk}/").content.decode())
    assert f"Deal 1 entered by {match.team1.name} with their code." in message
    tigers_link = TeamLink.objects.get(team=match.team0, revoked_at__isnull=True)
    lotus_link = TeamLink.objects.get(team=match.team1, revoked_at__isnull=True)
    entries = MatchEvent.objects.filter(match=match, kind="deal_entered").order_by("seq")
    assert [e.via for e in entries] == [
        f"team-link:0:{tigers_link.pk}",
        f"team-link:1:{lotus_link.pk}:code-on:{tigers_link.pk}",
    ]
    ended = MatchEvent.objects.get(match=match, kind="deal_ended")  # the two agree: counted
    assert ended.payload["points"] == [60, 40]
    match.refresh_from_db()
    assert verify_match(match) == []


def test_their_numbers_that_differ_make_a_dispute_and_a_wrong_code_enters_nothing(
    desk: CommittingClient,
) -> None:
    match, one, tigers, lotus = both_enter_table(desk)
    enter(one, match, 60)
    own = enter_by_code(one, match, 55, tigers)
    assert own.status_code == 403 and "your own team's code" in html.unescape(own.content.decode())
    wrong = next(c for c in ("000 000", "000 001", "000 002") if c not in (tigers, lotus))
    assert enter_by_code(one, match, 55, wrong).status_code == 403
    assert MatchEvent.objects.filter(match=match, kind="deal_entered").count() == 1
    assert TablePhones.objects.get(match=match).code_failures == 1
    bad = one.post(  # not adding up to 100: refused before the code is judged
        f"/keep/{match.pk}/code-enter/",
        command(match, points_a=55, points_b=40, sweeps_a=0, sweeps_b=0, code=lotus),
    )
    assert bad.status_code == 422 and "must add up to 100" in html.unescape(bad.content.decode())
    assert MatchEvent.objects.filter(match=match, kind="deal_entered").count() == 1
    assert enter_by_code(one, match, 45, lotus).status_code == 302
    assert MatchEvent.objects.filter(match=match, kind="deal_disputed").exists()
    assert not MatchEvent.objects.filter(match=match, kind="deal_ended").exists()


def test_the_box_for_their_numbers_is_on_the_entering_phone_only_while_they_have_not_entered(
    desk: CommittingClient,
) -> None:
    match, one, _tigers, lotus = both_enter_table(desk)
    box = f'action="/keep/{match.pk}/code-enter/"'
    assert box not in one.get(f"/keep/{match.pk}/").content.decode()  # nothing entered yet
    enter(one, match, 60)
    other = phone(link_of(desk, match.tournament, match.team1))
    assert box not in other.get(f"/keep/{match.pk}/").content.decode()  # their own phone
    enter_by_code(one, match, 60, lotus)
    assert box not in one.get(f"/keep/{match.pk}/").content.decode()  # both entered
