"""The director's live board and the wall screen: each table shown as it stands, a tap that
confirms or decides through the same service as the desk, who may see each, the 304 of an
unchanged poll, and a bounded number of queries whatever the round's size."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import matchlog
from tournaments.models import Match, MatchEvent, Tournament
from tournaments.selectors import match_state
from tournaments.services import match_append_event
from web import board as live_board
from web import pages
from web.views.common import CSRF_MARK

from .checks import check_html
from .conftest import Club, make_club

pytestmark = pytest.mark.django_db
BIG = [f"Team {n:02d}" for n in range(16)]


def enter(club: Club, match: Match, a: int = 60, sweeps_a: int = 0) -> None:
    match.refresh_from_db()
    response = club.client("scorekeeper").post(
        f"/keep/{match.pk}/enter/",
        {
            "expected_seq": match.last_seq,
            "client_id": f"enter-{match.pk}-{match.last_seq}",
            "points_a": a,
            "points_b": 100 - a,
            "sweeps_a": sweeps_a,
            "sweeps_b": 0,
        },
    )
    assert response.status_code == 302


def reject(club: Club, match: Match, version: list[int] | None = None) -> None:
    """The other team rejects the entry (with its own version of the deal, if given)."""
    match.refresh_from_db()
    payload: dict[str, Any] = {"entry": 1, "reason": "We had 45"}
    if version is not None:
        payload.update(points=version, sweeps=[[], []])
    match_append_event(
        match=match,
        expected_seq=match.last_seq,
        kind=matchlog.Kind.DEAL_REJECTED,
        payload=payload,
        actor=club.users[club.player_of(match, 1)],
    )


def confirm(club: Club, match: Match) -> None:
    match.refresh_from_db()
    response = club.client(club.player_of(match, 1)).post(
        f"/keep/{match.pk}/answer/",
        {
            "expected_seq": match.last_seq,
            "client_id": f"confirm-{match.pk}",
            "entry": 1,
            "action": "confirm",
        },
    )
    assert response.status_code == 302


def table(page: str, match: Match) -> str:
    """Return the board's card of ``match``: its HTML, then its text as read."""
    start = page.index(f'id="match-{match.pk}"')
    html = page[start : page.index("</li>", start)]
    return html + "\n" + words(html)


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def board_url(club: Club) -> str:
    return f"/desk/{club.tournament.slug}/board/"


@pytest.fixture
def big(db: None, django_capture_on_commit_callbacks: Any) -> Club:
    with django_capture_on_commit_callbacks(execute=True):
        return make_club(teams=BIG, tag="big-")


def test_the_board_shows_each_table_as_it_stands(big: Club) -> None:
    awaiting, disputed, finished, playing = big.matches[:4]
    enter(big, awaiting)
    enter(big, disputed)
    reject(big, disputed, version=[45, 55])
    enter(big, finished)
    confirm(big, finished)
    page = big.client("director").get(board_url(big)).content.decode()
    check_html(page)
    card = table(page, awaiting)
    assert 'data-state="awaiting"' in card and "Awaiting confirmation: deal 1" in card
    assert "waiting for <time" in card and "less than a minute" in card
    assert "Needs you" not in card  # not late yet
    assert f"Entered by the score-keeper: {awaiting.team0.name} 60" in card
    card = table(page, disputed)
    assert 'data-state="disputed"' in card and "Disputed: deal 1" in card
    assert "Needs you" in card and "We had 45" in card
    assert f"Count {disputed.team1.name}'s version" in card
    card = table(page, finished)
    assert 'data-state="finished"' in card
    assert f"{finished.team0.name} won: 0 \N{EN DASH} 0 bazzis" in card
    card = table(page, playing)
    assert 'data-state="playing"' in card and "Being played" in card
    assert "8 tables: 5 being played, 1 awaiting confirmation, 1 disputed, 1 finished." in words(
        page
    )


def test_a_table_that_waits_too_long_stands_out_in_words(big: Club) -> None:
    match = big.matches[0]
    enter(big, match)
    later = timezone.now() + live_board.LATE_AFTER + timedelta(minutes=2)
    data = live_board.live_board(big.tournament, now=later)
    late = [t for s in data.stages for t in s.tables if t.late]
    assert [(t.fixture.match_id, t.state, t.minutes) for t in late] == [(match.pk, "awaiting", 7)]
    assert data.attention == late


def test_tables_not_started_are_shown_and_stand_out_once_late(
    db: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        club = make_club(start_matches=False)
    page = club.client("director").get(board_url(club)).content.decode()
    assert page.count('data-state="not_started"') == 2
    assert "2 tables: 2 not started." in words(page)
    later = timezone.now() + live_board.LATE_AFTER
    data = live_board.live_board(club.tournament, now=later)
    assert [t.late for s in data.stages for t in s.tables] == [True, True]


def test_a_director_confirms_an_entry_from_the_board(big: Club) -> None:
    match = big.matches[0]
    enter(big, match)
    director = big.client("director")
    page = director.get(board_url(big)).content.decode()
    assert "Confirm deal 1" in table(page, match)
    match.refresh_from_db()
    response = director.post(
        f"{board_url(big)}matches/{match.pk}/confirm/",
        {"expected_seq": match.last_seq, "client_id": "board-confirm-1", "entry": 1},
    )
    assert response.status_code == 302
    assert response["Location"] == f"{board_url(big)}#match-{match.pk}"
    confirmed = MatchEvent.objects.get(match=match, kind="deal_confirmed")
    assert confirmed.actor == big.users["director"]
    page = director.get(response["Location"]).content.decode()
    assert "the entry is confirmed and counted" in page
    assert 'data-state="finished"' in table(page, match)


def test_a_director_counts_a_disputed_deals_version_from_the_board(big: Club) -> None:
    match = big.matches[1]
    enter(big, match, a=60)
    reject(big, match, version=[45, 55])
    director = big.client("director")
    page = director.get(board_url(big)).content.decode()
    assert 'name="version" value="entry-1"' in table(page, match)
    rejected = MatchEvent.objects.get(match=match, kind="deal_rejected")
    assert f'name="version" value="rejection-{rejected.seq}"' in table(page, match)
    match.refresh_from_db()
    response = director.post(
        f"{board_url(big)}matches/{match.pk}/decide/",
        {
            "expected_seq": match.last_seq,
            "client_id": "board-decide-1",
            "version": f"rejection-{rejected.seq}",
        },
    )
    assert response.status_code == 302
    ended = MatchEvent.objects.get(match=match, kind="deal_ended")
    assert ended.payload["points"] == [45, 55] and ended.actor == big.users["director"]
    assert not match_state(match).disputed


def test_a_stale_or_unknown_version_records_nothing(big: Club) -> None:
    match = big.matches[1]
    enter(big, match)
    director = big.client("director")
    match.refresh_from_db()
    url = f"{board_url(big)}matches/{match.pk}/decide/"
    data = {"expected_seq": match.last_seq, "client_id": "board-decide-2", "version": "entry-1"}
    response = director.post(url, data)  # not disputed: nothing to decide
    assert response.status_code == 302
    page = director.get(response["Location"]).content.decode()
    assert "nothing was recorded, that version is no longer disputed" in page
    for version in ("entry-9", "rejection-1", "bogus", "entry-²"):
        assert director.post(url, {**data, "version": version}).status_code == 302
    reject(big, match)
    response = director.post(url, data)  # its head moved since: refused as stale
    assert "Something was recorded in this match" in director.get(board_url(big)).content.decode()
    assert not MatchEvent.objects.filter(match=match, kind="deal_ended").exists()


@pytest.mark.parametrize("who", [None, "outsider", "scorekeeper", "north1", "elsewhere"])
def test_only_the_tournaments_directors_find_the_board(club: Club, who: str | None) -> None:
    if who == "elsewhere":
        club.users[who] = make_club(tag="else-").users["director"]
    match = club.matches[0]
    enter(club, match)
    client = club.client(who)
    slug = club.tournament.slug
    match.refresh_from_db()
    posts = [
        (f"matches/{match.pk}/confirm/", {"entry": 1}),
        (f"matches/{match.pk}/decide/", {"version": "entry-1"}),
    ]
    for url in (f"/desk/{slug}/board/", f"/desk/{slug}/board/live/"):
        response = client.get(url)
        expected = (302,) if who is None else (404,)
        assert response.status_code in expected, (who, url)
        if who is None:
            assert response["Location"].startswith("/login/")
    for url, fields in posts:
        data = {**fields, "expected_seq": match.last_seq, "client_id": "not-mine-001"}
        response = client.post(f"/desk/{slug}/board/{url}", data)
        assert response.status_code == (302 if who is None else 404), (who, url)
    assert not MatchEvent.objects.filter(match=match, kind="deal_confirmed").exists()


def test_a_match_of_another_tournament_is_not_reached_through_this_board(club: Club) -> None:
    other = make_club(tag="else-")
    match = other.matches[0]
    enter(other, match)
    match.refresh_from_db()
    response = club.client("director").post(
        f"{board_url(club)}matches/{match.pk}/confirm/",
        {"expected_seq": match.last_seq, "client_id": "elsewhere-001", "entry": 1},
    )
    assert response.status_code == 404
    assert not MatchEvent.objects.filter(match=match, kind="deal_confirmed").exists()


def test_the_boards_poll_is_a_304_until_something_changes(club: Club) -> None:
    director = club.client("director")
    url = f"{board_url(club)}live/"
    first = director.get(url)
    assert first.status_code == 200 and first["Cache-Control"].startswith("private")
    assert "<h1" not in first.content.decode()  # the fragment only
    again = director.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    enter(club, club.matches[0])
    changed = director.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert "Awaiting confirmation: deal 1" in words(changed.content.decode())


def test_the_wall_shows_pairings_and_standings_and_polls_with_a_304(club: Club) -> None:
    slug = club.tournament.slug
    page = club.client().get(f"/t/{slug}/wall/").content.decode()
    check_html(page)
    assert page.count("data-panel=") == 2  # the round's pairings, the standings
    for match in club.matches:
        assert f"{match.team0.name}</td>" in page and f"{match.team1.name}</td>" in page
    assert 'src="/static/web/wall.js"' in page and "<script>" not in page and "style=" not in page
    url = f"/t/{slug}/wall/live/"
    first = club.client().get(url)
    assert first.status_code == 200 and "<h1" not in first.content.decode()
    assert club.client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    enter(club, club.matches[0])
    confirm(club, club.matches[0])
    changed = club.client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert '<td class="num" data-points>2</td>' in changed.content.decode()


def test_the_wall_cuts_a_long_round_into_panels_that_fit_the_screen(big: Club) -> None:
    from web import wall

    panels = wall.wall_panels(big.tournament)
    kinds = [(p.kind, p.page, p.pages, len(p.rows)) for p in panels]
    assert kinds == [("pairings", 1, 1, 8), ("standings", 1, 2, 10), ("standings", 2, 2, 6)]
    assert all(len(p.rows) <= wall.LINES_PER_PANEL for p in panels if p.kind == "standings")


def test_the_wall_follows_the_tournament_pages_visibility(db: None) -> None:
    club = make_club(published=False)
    slug = club.tournament.slug
    for url in (f"/t/{slug}/wall/", f"/t/{slug}/wall/live/"):
        assert club.client().get(url).status_code == 404
        assert club.client("outsider").get(url).status_code == 404
        assert club.client("director").get(url).status_code == 200
        assert club.client("north1").get(url).status_code == 200


def test_the_wall_and_the_board_show_no_card(club: Club) -> None:
    """Not a card of a hand nor of the stock: the digital match's deal in play shows nowhere
    on them, to anyone (the wall shows results only; the board, where stands each table)."""
    deal = match_state(club.digital).deal
    assert deal is not None and deal.phase not in ("over", "redealt")
    full = deal.to_dict()
    hidden = {card for hand in full["hands"] for card in hand} | set(full.get("stock") or [])
    assert hidden
    labels = {pages.card_label(c) for c in hidden}
    slug = club.tournament.slug
    for who in (None, "outsider", "director", club.player_of(club.digital, 0)):
        for url in (f"/t/{slug}/wall/", f"/t/{slug}/wall/live/", board_url(club)):
            response = club.client(who).get(url)
            if response.status_code != 200:
                assert url == board_url(club) and who != "director"
                continue
            text = response.content.decode()
            shown = {c for c in hidden if re.search(rf"(?<![\w]){re.escape(c)}(?![\w])", text)}
            assert not shown, (who, url, shown)
            assert not {lab for lab in labels if lab in text}, (who, url)


def test_the_board_and_the_wall_make_as_many_queries_for_a_big_round_as_for_a_small_one(
    db: None, django_capture_on_commit_callbacks: Any
) -> None:
    """An N+1 guard, not a timing: 2 tables or 8, each in every state, the same queries."""
    counts = []
    for teams, tag in ((["North", "South", "East", "West", "Up", "Down"], "s-"), (BIG, "b-")):
        with django_capture_on_commit_callbacks(execute=True):
            club = make_club(teams=teams, tag=tag)
            enter(club, club.matches[0])
            enter(club, club.matches[1])
            reject(club, club.matches[1], version=[45, 55])
            enter(club, club.matches[2])
            confirm(club, club.matches[2])
        found = []
        for who, url in (
            ("director", board_url(club)),
            ("director", f"{board_url(club)}live/"),
            (None, f"/t/{club.tournament.slug}/wall/"),
        ):
            client = club.client(who)
            client.get(url)  # warm: the session, the content types
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            found.append(len(captured))
        counts.append(found)
    assert counts[0] == counts[1], counts
    assert Tournament.objects.count() == 2


def test_a_rejection_through_a_teams_link_is_that_teams_on_the_board(big: Club) -> None:
    from tournaments import links

    match = big.matches[1]
    enter(big, match, a=60)
    link, _ = links.team_link(actor=big.users["director"], team=match.team1)
    match.refresh_from_db()
    match_append_event(
        match=match, expected_seq=match.last_seq, kind=matchlog.Kind.DEAL_REJECTED,
        payload={"entry": 1, "reason": "We had 45", "points": [55, 45], "sweeps": [[], []]},
        actor=links.actor_for(link),
    )  # fmt: skip
    director = big.client("director")
    card = words(table(director.get(board_url(big)).content.decode(), match))
    assert f"{match.team1.name}: We had 45" in card
    assert f"Count {match.team1.name}'s version" in card
    assert "a director" not in card


def _token(page: str) -> str:
    return re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[0]


def test_the_boards_part_is_rendered_once_a_change_and_each_director_gets_their_own_token(
    big: Club, django_user_model: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kept per version with a slot for the token: a co-director's poll renders nothing, and
    each director's forms carry a token that passes their own CSRF check, never the other's."""
    match = big.matches[0]
    enter(big, match)
    co = django_user_model.objects.create_user("co-director")
    big.tournament.directors.add(co)
    clients = [Client(enforce_csrf_checks=True) for _ in range(2)]
    for client, user in zip(clients, (big.users["director"], co), strict=True):
        client.force_login(user)
    reads: list[int] = []
    real = live_board.live_board
    monkeypatch.setattr(live_board, "live_board", lambda t, **k: reads.append(1) or real(t, **k))
    pages_ = [c.get(f"{board_url(big)}live/").content.decode() for c in clients]
    assert len(reads) == 1  # the second director's poll was the kept part
    assert CSRF_MARK not in pages_[0] + pages_[1] and "Confirm deal 1" in table(pages_[1], match)
    tokens = [_token(p) for p in pages_]
    match.refresh_from_db()
    post = {"expected_seq": match.last_seq, "client_id": "co-confirm", "entry": 1}
    confirm_url = f"{board_url(big)}matches/{match.pk}/confirm/"
    stolen = clients[1].post(confirm_url, {**post, "csrfmiddlewaretoken": tokens[0]})
    assert stolen.status_code == 403  # the first director's token is not the co-director's
    own = clients[1].post(confirm_url, {**post, "csrfmiddlewaretoken": tokens[1]})
    assert own.status_code == 302 and MatchEvent.objects.filter(kind="deal_confirmed").exists()
    after = clients[0].get(f"{board_url(big)}live/").content.decode()
    assert len(reads) == 2 and 'data-state="finished"' in table(after, match)  # a change: again


def test_a_phone_heard_again_after_a_minute_redraws_the_board_and_one_heard_often_does_not(
    big: Club,
) -> None:
    from tournaments import phones

    cache.clear()  # what an earlier test's phones left under the same match ids
    t = big.tournament
    match = big.matches[0]
    before = phones.heard_tag(t.pk)
    now = timezone.now()
    phones.heard(match_id=match.pk, side=0, tournament_id=t.pk, now=now)
    first = phones.heard_tag(t.pk)
    assert first != before  # heard for the first time: the board says so
    phones.heard(match_id=match.pk, side=0, tournament_id=t.pk, now=now + timedelta(seconds=25))
    assert phones.heard_tag(t.pk) == first  # "less than a minute ago" either way
    phones.heard(match_id=match.pk, side=0, tournament_id=t.pk, unsent=3, now=now)
    assert phones.heard_tag(t.pk) != first  # three entries not sent: the board says so
    third = phones.heard_tag(t.pk)
    phones.heard(match_id=match.pk, side=0, tournament_id=t.pk, now=now + timedelta(minutes=2))
    assert phones.heard_tag(t.pk) != third  # heard again after two minutes of silence


def _board_part(t: Tournament, now: Any = None) -> str:
    """The board's part as the board's view renders it (its forms' token slot left in)."""
    from django.template.loader import render_to_string

    return render_to_string(
        "web/_board.html",
        {
            "tournament": t,
            "board": live_board.live_board(t, now=now),
            "board_matches": f"/desk/{t.slug}/board/matches/",
            "desk_matches": f"/desk/{t.slug}/matches/",
            "csrf_token": CSRF_MARK,
        },
    )


def test_the_boards_kept_tables_say_what_a_fresh_render_says(
    big: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each table's card is kept (a fragment, by everything it shows): after every kind of
    change the board read with the kept cards is the board rendered from nothing, and an
    unchanged table is not rendered again."""
    from django.core.cache import caches
    from django.utils import translation

    from tournaments.models import Team

    fragments = caches["template_fragments"]
    t = big.tournament
    awaiting, disputed, finished = big.matches[:3]

    def same(now: Any = None) -> str:
        kept = _board_part(t, now)
        fragments.clear()
        assert kept == _board_part(t, now)
        return kept

    fragments.clear()
    same()
    enter(big, awaiting)
    same()
    enter(big, disputed)
    reject(big, disputed, version=[45, 55])
    same()
    enter(big, finished)
    confirm(big, finished)
    same()
    playing = big.matches[4]  # its teams' names only in its card's heading
    Team.objects.filter(pk=playing.team0_id).update(name="Renamed Tigers")  # (the admin's)
    assert "Renamed Tigers" in table(same(), playing)
    with timezone.override("Asia/Kolkata"):  # the club's clock: the times' zone
        assert "+05:30" in table(same(), awaiting)
    later = same(timezone.now() + timedelta(minutes=25))  # late: its minutes and its flag
    assert "Needs you" in table(later, awaiting)
    english = _board_part(t)  # its cards kept in English
    with translation.override("hi"):
        assert same() != english  # in Hindi, not the English cards
    # an unchanged table is read from its kept card: one change renders one card again
    _board_part(t)
    rendered: list[str] = []
    keep = fragments.set
    monkeypatch.setattr(
        fragments, "set", lambda key, *a, **k: rendered.append(key) or keep(key, *a, **k)
    )
    enter(big, big.matches[3])
    _board_part(t)
    assert len(rendered) == 2  # its card and its words for the screen reader
