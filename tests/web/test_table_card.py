"""One phone a table, opened from the table card the round's cards page prints (issue 43): the
table link shows the table's match and acts for no team; a deal is entered with the entering
team's code and confirmed with the other team's (its own refused in words), so the log names
the two teams as with two phones; wrong codes are counted and lock the table out as on a
team's phone. A stranger without the link gets nothing, and a link out of date (a team given
a new link, a tournament over) is refused in words."""

from __future__ import annotations

import html
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache

from competition.models import Round, Stage
from deploy.logs import redact
from tournaments import links, phones
from tournaments.models import Match, MatchEvent, TablePhones, Team, Tournament
from tournaments.verify import verify_match

from .checks import check_html
from .conftest import CommittingClient
from .test_link_keys import planted, the_log
from .test_one_phone import board, code_of
from .test_team_links import desk, link_of, phone, published_evening

pytestmark = pytest.mark.django_db
__all__ = ["desk"]  # the fixture, used by name


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """A clean cache before each test, and after it: the table page writes last heard times
    (kept in the cache by match id), which a later test's match of the same id would read."""
    cache.clear()
    yield
    cache.clear()


def table_cards(desk: CommittingClient, t: Tournament, round_: Round) -> dict[int, str]:
    """The round's cards page's table cards: each one's table link path, by its match's id."""
    page = desk.get(f"/desk/{t.slug}/rounds/{round_.pk}/cards/")
    assert page.status_code == 200
    text = page.content.decode()
    check_html(text)
    found = {}
    for card in re.findall(r"<section [^>]*data-table-card.*?</section>", text, re.S):
        path = re.search(r"https?://[^/\s<]+(/tc/([0-9]+)\.[A-Za-z0-9_-]{43}/)", card)
        assert path is not None
        found[int(path.group(2))] = path.group(1)
    return found


def send(client: CommittingClient, match: Match, action: str, **fields: Any) -> Any:
    match.refresh_from_db()
    data = {"expected_seq": match.last_seq, "client_id": uuid.uuid4().hex, **fields}
    return client.post(f"/table/{match.pk}/{action}/", data)


def numbers(a: int, code: str = "", **more: Any) -> dict[str, Any]:
    return {"points_a": a, "points_b": 100 - a, "sweeps_a": 0, "sweeps_b": 0, "code": code, **more}


def words(response: Any) -> str:
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


def table_phone(desk: CommittingClient) -> tuple[Tournament, Round, Match, CommittingClient]:
    """A published round, and the first table's phone opened from its table card."""
    t, round_ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    path = table_cards(desk, t, round_)[match.pk]
    client = CommittingClient()
    opened = client.get(path)
    assert opened.status_code == 302 and opened["Location"] == f"/table/{match.pk}/"
    assert opened["Cache-Control"] == "private, no-store"
    assert opened["Referrer-Policy"] == "no-referrer"
    return t, round_, match, client


def live_link(team: Team) -> Any:
    return team.links.get(revoked_at__isnull=True)


def test_the_rounds_cards_page_prints_a_table_card_per_table_with_no_code(
    desk: CommittingClient,
) -> None:
    t, round_ = published_evening(desk)
    matches = list(Match.objects.filter(tournament=t))
    cards = table_cards(desk, t, round_)
    assert set(cards) == {m.pk for m in matches}  # one a table, each for its table's match
    page = desk.get(f"/desk/{t.slug}/rounds/{round_.pk}/cards/").content.decode()
    codes = {team.pk: code_of(desk, t, team) for team in Team.objects.filter(tournament=t)}
    for card in re.findall(r"<section [^>]*data-table-card.*?</section>", page, re.S):
        assert not any(code in card or code.replace(" ", "") in card for code in codes.values())
    # printable alone, with the same link
    match = matches[0]
    alone = desk.get(f"/desk/{t.slug}/matches/{match.pk}/table-card/")
    assert alone.status_code == 200 and cards[match.pk] in alone.content.decode()
    check_html(alone.content.decode())
    # the table's phone shows the match, and neither team's code
    client = CommittingClient()
    assert client.get(cards[match.pk]).status_code == 302
    shown = client.get(f"/table/{match.pk}/")
    assert shown.status_code == 200 and shown["Cache-Control"] == "private, no-store"
    text = shown.content.decode()
    check_html(text)
    assert html.escape(match.team0.name) in text and "data-table-enter" in text
    for team in (match.team0, match.team1):
        code = codes[team.pk]
        assert code not in text and code.replace(" ", "") not in text


def test_entering_needs_a_teams_code_and_a_wrong_one_is_counted(desk: CommittingClient) -> None:
    t, _round, match, client = table_phone(desk)
    tigers = code_of(desk, t, match.team0)
    none = send(client, match, "enter", **numbers(60))
    assert none.status_code == 400
    wrong = send(client, match, "enter", **numbers(60, "000 000" if tigers != "000 000" else "1"))
    assert wrong.status_code == 403
    assert "That is neither team's code: nothing was entered." in words(wrong)
    assert "4 more tries" in words(wrong)
    assert not MatchEvent.objects.filter(match=match, kind="deal_entered").exists()
    assert TablePhones.objects.get(match=match).code_failures == 1
    done = send(client, match, "enter", **numbers(60, tigers))
    assert done.status_code == 302
    page = words(client.get(f"/table/{match.pk}/"))
    assert f"Deal 1 entered by {match.team0.name}" in page
    entered = MatchEvent.objects.get(match=match, kind="deal_entered")
    assert entered.actor_id is None
    assert entered.via == f"team-link:0:{live_link(match.team0).pk}:code-on:table-{match.pk}"
    assert TablePhones.objects.get(match=match).code_failures == 0  # the right one forgives


def test_confirming_needs_the_other_teams_code_and_the_log_names_both_teams(
    desk: CommittingClient,
) -> None:
    t, _round, match, client = table_phone(desk)
    tigers, lotus = code_of(desk, t, match.team0), code_of(desk, t, match.team1)
    assert send(client, match, "enter", **numbers(65, lotus)).status_code == 302  # Lotus enters
    page = client.get(f"/table/{match.pk}/")
    assert "data-table-confirm" in page.content.decode()
    assert "data-table-enter" not in page.content.decode()
    own = send(client, match, "confirm", entry=1, code=lotus)
    assert own.status_code == 403
    assert "That is the code of the team that entered this deal" in words(own)
    assert TablePhones.objects.get(match=match).code_failures == 0  # not counted
    wrong = send(client, match, "confirm", entry=1, code="123456" if tigers != "123 456" else "1")
    assert wrong.status_code == 403 and "That is not the other team's code" in words(wrong)
    assert TablePhones.objects.get(match=match).code_failures == 1
    assert not MatchEvent.objects.filter(match=match, kind="deal_confirmed").exists()
    done = send(client, match, "confirm", entry=1, code=tigers)
    assert done.status_code == 302
    assert f"Deal 1 confirmed by {match.team0.name} with their code." in words(
        client.get(f"/table/{match.pk}/")
    )
    entered = MatchEvent.objects.get(match=match, kind="deal_entered")
    confirmed = MatchEvent.objects.get(match=match, kind="deal_confirmed")
    lotus_link, tigers_link = live_link(match.team1), live_link(match.team0)
    assert entered.via == f"team-link:1:{lotus_link.pk}:code-on:table-{match.pk}"
    assert confirmed.via == f"team-link:0:{tigers_link.pk}:code-on:table-{match.pk}"
    ended = MatchEvent.objects.get(match=match, kind="deal_ended")
    assert ended.payload["points"] == [65, 35]
    match.refresh_from_db()
    assert verify_match(match) == []
    said = board(desk, t, match)
    assert "One phone: the table plays on its table card's phone" in said
    # the table card's phone is the table's phone of both teams: both heard from
    assert f"{match.team0.name} less than a minute ago" in said
    assert f"{match.team1.name} less than a minute ago" in said


def test_a_table_phone_that_guesses_is_locked_out(desk: CommittingClient) -> None:
    t, _round, match, client = table_phone(desk)
    tigers = code_of(desk, t, match.team0)
    guesses = [f"{n:06d}" for n in range(10) if f"{n:06d}" != tigers.replace(" ", "")][:5]
    for guess in guesses:
        assert send(client, match, "enter", **numbers(60, guess)).status_code == 403
    locked = send(client, match, "enter", **numbers(60, tigers))  # the right one, too late
    assert locked.status_code == 403 and "too many wrong codes" in words(locked)
    assert not MatchEvent.objects.filter(match=match, kind="deal_entered").exists()
    assert "data-codes-locked" in client.get(f"/table/{match.pk}/").content.decode()
    phones.codes_unlock(actor=_director(t), match=match)
    assert send(client, match, "enter", **numbers(60, tigers)).status_code == 302


def _director(t: Tournament) -> Any:
    assert t.club is not None
    return t.club.directors.first()


def test_a_stranger_or_a_teams_phone_without_the_table_link_gets_nothing(
    desk: CommittingClient,
) -> None:
    t, _round, match, _client = table_phone(desk)
    tigers = code_of(desk, t, match.team0)
    stranger = CommittingClient()
    assert stranger.get(f"/table/{match.pk}/").status_code == 404
    assert send(stranger, match, "enter", **numbers(60, tigers)).status_code == 404
    team_phone = phone(link_of(desk, t, match.team0))  # a team's own link opens no table page
    assert team_phone.get(f"/table/{match.pk}/").status_code == 404
    assert stranger.get(f"/tc/{match.pk}.{'x' * 43}/").status_code == 404  # a made-up key
    assert stranger.get("/tc/nonsense/").status_code == 404
    other = Match.objects.filter(tournament=t).exclude(pk=match.pk).first()
    assert other is not None  # the key of one table opens no other
    path = table_cards(desk, t, Round.objects.get(stage__tournament=t))[match.pk]
    assert stranger.get(path.replace(f"/tc/{match.pk}.", f"/tc/{other.pk}.")).status_code == 404
    assert not MatchEvent.objects.filter(match=match, kind="deal_entered").exists()


def test_a_table_card_out_of_date_is_refused_in_words(desk: CommittingClient) -> None:
    t, round_, match, client = table_phone(desk)
    path = table_cards(desk, t, round_)[match.pk]
    links.team_link_reissue(actor=_director(t), team=match.team1)  # a lost card: a new link
    again = CommittingClient().get(path)
    assert again.status_code == 403 and "This table card no longer works" in words(again)
    held = client.get(f"/table/{match.pk}/")  # the phone that opened it
    assert held.status_code == 403 and "This table card no longer works" in words(held)
    lotus = code_of(desk, t, match.team1)
    assert send(client, match, "enter", **numbers(60, lotus)).status_code == 403
    assert not MatchEvent.objects.filter(match=match, kind="deal_entered").exists()
    new = table_cards(desk, t, round_)[match.pk]  # printed again, it works
    assert new != path and CommittingClient().get(new).status_code == 302


def test_a_table_card_of_a_tournament_over_is_refused_in_words(desk: CommittingClient) -> None:
    t, round_, match, client = table_phone(desk)
    path = table_cards(desk, t, round_)[match.pk]
    Stage.objects.filter(tournament=t).update(status=Stage.Status.COMPLETE)
    late = CommittingClient().get(path)
    assert late.status_code == 403 and "This table card's match is over" in words(late)
    tigers = code_of(desk, t, match.team0)
    refused = send(client, match, "enter", **numbers(60, tigers))
    assert refused.status_code == 409 and "The tournament is over" in words(refused)
    assert not MatchEvent.objects.filter(match=match, kind="deal_entered").exists()


def test_where_both_sides_enter_each_team_enters_with_its_own_code(
    desk: CommittingClient,
) -> None:
    t, round_ = published_evening(desk, confirmation="both_enter")
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    client = CommittingClient()
    assert client.get(table_cards(desk, t, round_)[match.pk]).status_code == 302
    tigers, lotus = code_of(desk, t, match.team0), code_of(desk, t, match.team1)
    assert send(client, match, "enter", **numbers(70, tigers)).status_code == 302
    page = words(client.get(f"/table/{match.pk}/"))
    assert f"{match.team0.name} has entered its numbers for deal 1." in page
    assert "data-table-enter" in page  # the other team's turn, on the same phone
    again = send(client, match, "enter", **numbers(70, tigers))  # Tigers cannot enter twice
    assert again.status_code in (403, 409)
    assert send(client, match, "enter", **numbers(70, lotus)).status_code == 302
    entered = MatchEvent.objects.filter(match=match, kind="deal_entered").order_by("seq")
    assert [e.via for e in entered] == [
        f"team-link:0:{live_link(match.team0).pk}:code-on:table-{match.pk}",
        f"team-link:1:{live_link(match.team1).pk}:code-on:table-{match.pk}",
    ]
    ended = MatchEvent.objects.get(match=match, kind="deal_ended")
    assert ended.payload["points"] == [70, 30]
    match.refresh_from_db()
    assert verify_match(match) == []


def test_no_log_line_carries_a_table_cards_key(desk: CommittingClient) -> None:
    t, round_ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    path = table_cards(desk, t, round_)[match.pk]
    key = path.split("/")[2]
    assert redact(f"GET {path} HTTP/1.1") == "GET /tc/[redacted]/ HTTP/1.1"
    with the_log("plain") as log:
        assert CommittingClient().get(path).status_code == 302
        assert CommittingClient().get(f"/tc/{match.pk}.{'u' * 43}/").status_code == 404
    written = log.getvalue()
    assert key not in written and "u" * 43 not in written
    assert "/tc/[redacted]/" in written


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("hi", "टेबल का एक फ़ोन, दोनों टीमों के लिए"),
        ("ur", "ٹیبل کا ایک فون، دونوں ٹیموں کے لیے"),
    ],
)
def test_the_table_cards_phone_speaks_the_phones_language(
    desk: CommittingClient, language: str, said: str
) -> None:
    _t, _round, match, client = table_phone(desk)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(f"/table/{match.pk}/").content.decode()
    assert said in page and "the table's one phone" not in page
    wrong = send(client, match, "enter", **numbers(60, "1"))
    assert "nothing was entered" not in words(wrong)  # the refusal in the phone's language too


def test_opening_a_table_card_gives_the_browser_a_new_session_id(desk: CommittingClient) -> None:
    t, round_ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    client = CommittingClient()
    fixed = planted(client)
    assert client.get(table_cards(desk, t, round_)[match.pk]).status_code == 302
    assert client.cookies[settings.SESSION_COOKIE_NAME].value != fixed
    assert client.get(f"/table/{match.pk}/").status_code == 200  # the phone holds the link
    attacker = CommittingClient()
    attacker.cookies[settings.SESSION_COOKIE_NAME] = fixed
    assert attacker.get(f"/table/{match.pk}/").status_code == 404  # the planted id holds nothing
