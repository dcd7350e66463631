"""The share buttons: each text (one line a table or a team, whatever the names hold) goes
whole through its wa.me link, and a button is shown, and answers, only where its page may
share (a published tournament's page; a desk's notice; a team's own card)."""

from __future__ import annotations

import html
import random
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from hypothesis import given
from hypothesis import strategies as st

from competition.models import Notice
from tournaments.models import Team
from web import share
from web.pages import Table

from ..competition.helpers import Club as CupClub
from ..competition.helpers import make_club as make_cup
from .conftest import Club

#: names as a club writes them: Devanagari, Urdu, emoji, and what a URL or a line would break
NAME_CHARS = "अआकखगघनमस्ते् اردوپنجابی 🂡🃏😀 &?#=+%/\n\tAaZz09'\""
names = st.text(alphabet=NAME_CHARS, min_size=1, max_size=30).filter(lambda n: n.strip())


def text_of(url: str) -> str:
    """Return the text a wa.me link writes (what WhatsApp decodes from its query)."""
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "wa.me", "/")
    query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=True)
    assert list(query) == ["text"] and len(query["text"]) == 1
    return query["text"][0]


def table(n: int, a: str, b: str | None, *, started: bool = True, over: bool = False) -> Table:
    return {
        "fixture": n, "table": n, "round": "round 2", "status": "in progress",
        "team_a": a, "team_b": b, "started": started, "bazzis0": 2, "bazzis1": 1,
        "difference": 30, "deals": 5, "over": over, "sheet": "",
    }  # fmt: skip


@given(st.text(max_size=300))
def test_a_wa_me_link_writes_back_exactly_the_text_it_was_given(text: str) -> None:
    url = share.whatsapp_url(text)
    assert text_of(url) == text
    assert not re.search(r"[\s&#?+]", url.removeprefix("https://wa.me/?")), url


@given(st.lists(st.tuples(names, names), min_size=1, max_size=12))
def test_pairings_and_results_are_one_line_a_table_with_both_names(
    pairs: list[tuple[str, str]],
) -> None:
    tables = [table(n, a, b, over=n % 2 == 0) for n, (a, b) in enumerate(pairs, start=1)]
    for lines in (share.pairing_lines(tables), share.result_lines(tables)):
        assert len(lines) == len(pairs)
        for n, (line, (a, b)) in enumerate(zip(lines, pairs, strict=True), start=1):
            assert "\n" not in line
            assert line.startswith(f"Table {n}: ")
            assert share.one_line(a) in line and share.one_line(b) in line
    results = share.result_lines(tables)
    assert all(" 2-1 " in line for line in results)
    assert [line.endswith(", final") for line in results] == [t["over"] for t in tables]


def test_a_result_with_the_bazzis_level_says_the_running_difference() -> None:
    level = {**table(1, "Aces", "Kings", over=True), "bazzis0": 0, "bazzis1": 0, "difference": -6}
    playing = {**table(2, "Jokers", "Queens"), "bazzis1": 2, "deals": 1}
    assert share.result_lines([level, playing]) == [
        "Table 1: Aces 0-0 Kings, running difference -6, final",
        "Table 2: Jokers 2-2 Queens, running difference +30, after 1 deal",
    ]


def test_a_bye_is_its_own_line_and_a_table_without_a_score_has_no_result() -> None:
    tables = [table(1, "Aces", "Kings", started=False), table(2, "Jokers", None)]
    assert share.pairing_lines(tables) == ["Table 1: Aces v Kings", "Table 2: Jokers has a bye"]
    assert share.result_lines(tables) == []


@given(st.lists(names, min_size=1, max_size=40))
def test_standings_are_one_line_a_team_in_rank_order(teams: list[str]) -> None:
    rows = [
        {"rank": n, "name": name, "points": 2 * n, "played": 3}
        for n, name in enumerate(teams, start=1)
    ]
    lines = share.standings_lines(rows)
    assert len(lines) == len(teams)
    for n, (line, name) in enumerate(zip(lines, teams, strict=True), start=1):
        assert line == f"{n}. {share.one_line(name)} {2 * n} pts (3 played)"


one_line_names = names.map(share.one_line)


@given(st.lists(one_line_names, min_size=0, max_size=400), one_line_names)
def test_a_long_text_keeps_its_first_lines_says_how_many_more_and_ends_with_the_page(
    lines: list[str], title: str
) -> None:
    url = "https://club.example/t/night/"
    text = share.fit([title], lines, url)
    assert len(text) <= share.MAX_TEXT or text.count("\n") <= 2
    out = text.split("\n")
    assert out[0] == title and out[-1] == url
    body = out[1:-1]
    if len(body) == len(lines):
        assert body == lines
    else:
        kept = len(body) - 1
        assert body[:kept] == lines[:kept]
        assert body[-1] == f"…and {len(lines) - kept} more on the page:"


def test_a_team_link_text_names_the_team_and_says_the_link_is_its_alone() -> None:
    text = share.team_link_text("Club night", "Aces", "https://club.example/l/KEY/")
    assert text.startswith("Aces: your team's private link for Club night.")
    assert "send it to your team alone" in text
    assert text.endswith("\nhttps://club.example/l/KEY/")


# --- the pages -----------------------------------------------------------------------------

DEVANAGARI = "नमस्ते & Co #1"


@pytest.fixture
def cup(db: None) -> CupClub:
    """A published round robin of four teams (one named in Devanagari), round 1 played."""
    cup = make_cup(4, slug="share-cup")
    Team.objects.filter(pk=cup.teams[0].pk).update(name=DEVANAGARI)
    cup.tournament.published = True
    cup.tournament.save(update_fields=["published"])
    stage = cup.start(cup.stage(format="round_robin"))
    round_ = cup.pair(stage)
    cup.publish(round_)
    cup.play(round_, random.Random(3))
    return cup


def share_links(page: str) -> dict[str, str]:
    """Return the page's share buttons: kind -> address."""
    found = re.findall(r'data-share="([^"]+)" href="([^"]+)"', page)
    return {kind: html.unescape(href) for kind, href in found}


def follow(client: Any, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 302, response.status_code
    return text_of(response["Location"])


def test_a_published_tournament_page_shares_its_pairings_results_and_standings(
    cup: CupClub, client: Any
) -> None:
    slug = cup.tournament.slug
    links = share_links(client.get(f"/t/{slug}/").content.decode())
    assert set(links) == {"pairings", "results", "standings"}
    pairings = follow(client, links["pairings"])
    assert pairings.splitlines()[1] == "Pairings, round 1"
    assert sum(" v " in line for line in pairings.splitlines()) == 2
    assert DEVANAGARI in pairings
    assert pairings.endswith(f"http://testserver/t/{slug}/")
    results = follow(client, links["results"])
    assert sum(line.endswith(", final") for line in results.splitlines()) == 2
    standings = follow(client, links["standings"]).splitlines()
    ranked = [line for line in standings if re.match(r"\d+\. ", line)]
    assert len(ranked) == 4 and any(DEVANAGARI in line for line in ranked)


def test_a_share_link_of_something_the_stage_has_not_is_not_found(
    cup: CupClub, client: Any
) -> None:
    stage = cup.tournament.stages.get()
    slug = cup.tournament.slug
    assert client.get(f"/t/{slug}/share/hands/{stage.pk}/").status_code == 404
    assert client.get(f"/t/{slug}/share/standings/{stage.pk + 99}/").status_code == 404


def test_an_unpublished_tournament_shares_nothing_to_anyone(
    cup: CupClub, client: Any, django_user_model: Any
) -> None:
    stage = cup.tournament.stages.get()
    slug = cup.tournament.slug
    share_url = f"/t/{slug}/share/standings/{stage.pk}/"
    assert client.get(share_url).status_code == 302
    cup.tournament.published = False
    cup.tournament.save(update_fields=["published"])
    assert client.get(f"/t/{slug}/").status_code == 404  # a stranger
    assert client.get(share_url).status_code == 404
    client.force_login(cup.organizer)  # who may see the page sees no button, and no text
    page = client.get(f"/t/{slug}/")
    assert page.status_code == 200 and share_links(page.content.decode()) == {}
    assert client.get(share_url).status_code == 404


def test_the_desk_shares_a_notice_with_the_public_page(club: Club) -> None:
    Notice.objects.create(stage=club.stage, code="x", message="Table 2's result was corrected.")
    page = club.client("director").get(f"/desk/{club.tournament.slug}/").content.decode()
    text = text_of(share_links(page)["notice"])
    assert text.splitlines() == [
        "Club night",
        "Notice, Round robin:",
        "Table 2's result was corrected.",
        f"http://testserver/t/{club.tournament.slug}/",
    ]


def test_a_team_link_is_shared_from_its_card_alone_and_says_whose_it_is(club: Club) -> None:
    team = club.matches[0].team0
    slug = club.tournament.slug
    page = club.client("director").get(f"/desk/{slug}/teams/{team.pk}/link/").content.decode()
    card_url = re.search(r'class="card-url">([^<]+)<', page)
    assert card_url is not None
    text = text_of(share_links(page)["team-link"])
    assert text.splitlines()[0] == f"{team.name}: your team's private link for Club night."
    assert text.splitlines()[-1] == html.unescape(card_url.group(1))
    public = club.client("director").get(f"/t/{slug}/").content.decode()
    assert "team-link" not in share_links(public) and "/l/" not in public


def test_the_desk_shares_a_published_round_s_pairings_and_never_a_draft_s(
    cup: CupClub, client: Any
) -> None:
    slug = cup.tournament.slug
    stage = cup.tournament.stages.get()
    played = stage.round_set.get()
    client.force_login(cup.organizer)
    page = client.get(f"/desk/{slug}/rounds/{played.pk}/").content.decode()
    text = text_of(share_links(page)["round"]).splitlines()
    assert text[:2] == ["Share-Cup · stage 1", "Pairings, round 1"]
    tables = [line for line in text if re.match(r"Table \d+: .+ v .+", line)]
    assert len(tables) == 2 and any(DEVANAGARI in line for line in tables)
    assert text[-1] == f"http://testserver/t/{slug}/"
    draft = cup.pair(stage)
    page = client.get(f"/desk/{slug}/rounds/{draft.pk}/").content.decode()
    assert share_links(page) == {}


def test_a_hindi_pages_share_texts_name_the_round_in_hindi(cup: CupClub, client: Any) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hi"
    slug = cup.tournament.slug
    links = share_links(client.get(f"/t/{slug}/").content.decode())
    pairings = follow(client, links["pairings"]).splitlines()
    assert pairings[1] == "जोड़ियाँ, राउंड 1", pairings[1]  # was "जोड़ियाँ, round 1"
    results = follow(client, links["results"]).splitlines()
    assert "round" not in results[1] and "राउंड 1" in results[1]
