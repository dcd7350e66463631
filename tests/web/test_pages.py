"""The pages: each one answers, is valid HTML, shows what it should, and only to whom it may."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

import seep_core as sc
from scoring import selectors as scoring
from tournaments.receipts import Receipt, trusted_public_keys, verify
from tournaments.selectors import match_state

from .checks import PAGES, check_html, every_page
from .conftest import Club, make_club

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", PAGES)
def test_every_page_answers_with_valid_html(club: Club, name: str) -> None:
    _, url, who = next(p for p in every_page(club) if p[0] == name)
    response = club.client(who).get(url)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"].startswith("text/html")
    check_html(response.content.decode())


def test_the_root_is_the_home_page_and_the_admins_view_site_link_reaches_it(club: Club) -> None:
    admin = club.client("director").get("/admin/")
    assert admin.status_code == 200
    view_site = re.search(r'<a href="([^"]+)">View site</a>', admin.content.decode())
    assert view_site is not None
    home = club.client().get(view_site.group(1))
    assert home.status_code == 200
    assert "Club night" in home.content.decode()


def test_home_lists_running_tournaments_with_their_current_round(club: Club) -> None:
    text = club.client().get("/").content.decode()
    assert "Running now" in text
    assert "Round robin: round 1 (published)" in " ".join(text.split())


def test_an_unpublished_tournament_is_not_found_by_the_public(
    db: None, django_capture_on_commit_callbacks: object
) -> None:
    hidden = make_club(published=False)
    slug = hidden.tournament.slug
    for url in (f"/t/{slug}/", f"/t/{slug}/live/", f"/m/{hidden.matches[0].pk}/"):
        assert hidden.client().get(url).status_code == 404, url
        assert hidden.client("outsider").get(url).status_code == 404, url
        assert hidden.client("north1").get(url).status_code == 200, url
    assert "Club night" not in hidden.client().get("/").content.decode()


def test_the_live_part_answers_304_while_nothing_changed(club: Club) -> None:
    client = club.client()
    url = f"/t/{club.tournament.slug}/live/"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    match = club.matches[0]
    keeper = club.client("scorekeeper")
    keeper.post(
        f"/keep/{match.pk}/enter/",
        {
            "expected_seq": match.last_seq,
            "client_id": "entry-0001",
            "points_a": 60,
            "points_b": 40,
            "sweeps_a": 0,
            "sweeps_b": 0,
        },
    )
    player = club.player_of(match, 1)
    entry = match_state(match).entries[0].number
    match.refresh_from_db()
    club.client(player).post(
        f"/keep/{match.pk}/answer/",
        {
            "expected_seq": match.last_seq,
            "client_id": "confirm-0001",
            "entry": entry,
            "action": "confirm",
        },
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    text = " ".join(changed.content.decode().split())
    winner = match.team0.name
    assert re.search(rf'data-team="{winner}">.*?data-points>2<', text), "the winner's 2 points"


def test_the_match_sheet_shows_seats_deals_chart_and_a_receipt_that_verifies(club: Club) -> None:
    match = club.matches[0]
    keeper = club.client("scorekeeper")
    keeper.post(
        f"/keep/{match.pk}/enter/",
        {
            "expected_seq": match.last_seq,
            "client_id": "entry-0002",
            "points_a": 30,
            "points_b": 70,
            "sweeps_a": 0,
            "sweeps_b": 2,
        },
    )
    match.refresh_from_db()
    club.client(club.player_of(match, 0)).post(
        f"/keep/{match.pk}/answer/",
        {
            "expected_seq": match.last_seq,
            "client_id": "confirm-0002",
            "entry": 1,
            "action": "confirm",
        },
    )
    response = club.client().get(f"/m/{match.pk}/")
    doc = check_html(response.content.decode())
    text = " ".join(response.content.decode().split())
    for seat, player in zip(("North", "West", "South", "East"), match.seat_players(), strict=True):
        assert f"{seat}: <strong>{player.name}</strong>" in text  # words, never "Seat 0"
    dealer = scoring.deal_results(match=match).get().dealer
    cells = [td.text for td in doc.findall(".//tbody/tr/td")]
    assert cells[:4] == ["1", match.seat_players()[dealer].name, "30", "70"]  # by name
    assert "30 \u2013 170" in text  # the totals (a lead of 140 won a bazzi: difference reset)
    assert "bazzi to" in text and 'class="chart-bazzi"' in text
    assert "Download the signed receipt" in text
    link = re.search(r'href="(/m/\d+/receipt-\d+\.json)"', text)
    assert link is not None
    receipts = json.loads(club.client().get(link.group(1)).content)
    body = verify(Receipt.from_dict(receipts[0]), trusted_public_keys())
    assert body["match"] == match.pk


def test_a_digital_match_shows_the_public_view_of_the_deal_and_no_hidden_card(club: Club) -> None:
    deal = match_state(club.digital).deal
    assert deal is not None and deal.phase not in ("over", "redealt")
    full = deal.to_dict()
    hidden = {card for hand in full["hands"] for card in hand} | set(full.get("stock") or [])
    assert hidden
    labels = {f"{c[:-1]}{dict(S='♠', H='♥', D='♦', C='♣')[c[-1]]}" for c in hidden}
    for who in (None, "outsider", "scorekeeper", club.player_of(club.digital, 0)):
        for url in (
            f"/m/{club.digital.pk}/",
            f"/m/{club.digital.pk}/live/",
            "/",
            f"/t/{club.tournament.slug}/",
        ):
            text = club.client(who).get(url).content.decode()
            shown = {c for c in hidden if re.search(rf"(?<![\w]){re.escape(c)}(?![\w])", text)}
            assert not shown, (who, url, shown)
            assert not {lab for lab in labels if lab in text}, (who, url)
    text = club.client().get(f"/m/{club.digital.pk}/").content.decode()
    assert "in play" in text and "Hands are never shown here" in text
    seen = sc.view(deal, None)
    for card in (seen["floor"] or {}).get("loose", []):  # the floor is public
        assert card[:-1] in text


def test_the_print_page_holds_the_pairings_and_the_standings(club: Club) -> None:
    text = club.client().get(f"/t/{club.tournament.slug}/print/").content.decode()
    assert "Pairings" in text and "Standings" in text
    for match in club.matches:
        assert match.team0.name in text and match.team1.name in text


@pytest.mark.parametrize("url", ["/keep/", "/desk/club-night/"])
def test_pages_that_need_an_account_send_the_public_to_sign_in(club: Club, url: str) -> None:
    response = club.client().get(url)
    assert response.status_code == 302 and response["Location"].startswith("/login/?next=")


def test_signing_in_with_a_wrong_password_says_so_in_plain_words(club: Club) -> None:
    response = Client().post("/login/", {"username": "scorekeeper", "password": "wrong"})
    assert response.status_code == 200
    assert "do not match an account" in response.content.decode()


def test_unknown_pages_are_an_html_404(club: Club) -> None:
    response = Client().get("/t/no-such-tournament/")
    assert response.status_code == 404
    assert "Not found" in response.content.decode()
