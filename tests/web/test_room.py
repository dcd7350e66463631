"""A club night in a real room: the cards hold the address the phones reach, the last deal of
the final ends the evening on both phones, two teams sending the same deal at once, and each
phone's own team first in its forms."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import override_settings

from competition.models import Round, Stage
from tournaments.models import Match, MatchEvent, Tournament
from web.qr import qr_svg

from .conftest import CommittingClient
from .test_desk_evening import make_evening, register
from .test_team_links import command, link_of, phone, published_evening

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def desk(django_user_model: Any) -> CommittingClient:
    client = CommittingClient()
    client.force_login(django_user_model.objects.create_user("meera"))
    return client


def first_match(t: Tournament) -> Match:
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    return match


# --- the address on the cards ------------------------------------------------------------


@override_settings(SITE_URL="http://192.168.1.20:8000", ALLOWED_HOSTS=["testserver", "localhost"])
def test_cards_printed_on_the_laptop_hold_the_site_address_not_the_laptops_own(
    desk: CommittingClient,
) -> None:
    t, round_ = published_evening(desk)
    page = desk.get(f"/desk/{t.slug}/rounds/{round_.pk}/cards/", HTTP_HOST="localhost")
    text = page.content.decode()
    printed = re.findall(r'<p class="card-url">([^<]+)</p>', text)
    urls = [u for u in printed if "/tc/" not in u]  # the teams' cards (the tables' hold /tc/)
    assert urls and all(u.startswith("http://192.168.1.20:8000/l/") for u in urls)
    assert all(u.startswith("http://192.168.1.20:8000/tc/") for u in printed if u not in urls)
    assert "localhost" not in "".join(printed)
    # each QR code is the code of the address printed under it
    names = [  # the teams' (a table's card is "Table 1's card")
        n
        for n in re.findall(r'aria-label="([^"]+?)(?:&#x27;|\')s card"', text)
        if not n.startswith("Table ")
    ]
    assert len(names) == len(urls)
    for name, url in zip(names, urls, strict=True):
        assert str(qr_svg(url, label=f"The private link of {html.unescape(name)}")) in text
    assert "no phone can open them" not in text
    # and the phone that scans it reaches its team's page through that address's path
    assert phone(urls[0].removeprefix("http://192.168.1.20:8000")).get("/keep/").status_code == 200


def test_cards_whose_links_hold_a_loopback_address_say_so_in_words(desk: CommittingClient) -> None:
    t, round_ = published_evening(desk)
    team = first_match(t).team0
    for path in (
        f"/desk/{t.slug}/cards/",
        f"/desk/{t.slug}/rounds/{round_.pk}/cards/",
        f"/desk/{t.slug}/teams/{team.pk}/link/",
    ):
        text = desk.get(path, HTTP_HOST="localhost").content.decode()
        assert "These links hold localhost" in text and "no phone can open them" in text
        assert "make club" in text
        assert "no phone can open them" not in desk.get(path).content.decode()  # testserver


@pytest.mark.parametrize(
    ("url", "unreachable"),
    [
        ("http://127.0.0.1:8000/l/x/", "127.0.0.1"),
        ("http://127.0.1.1/", "127.0.1.1"),
        ("http://localhost:8000/", "localhost"),
        ("http://[::1]:8000/", "::1"),
        ("http://0.0.0.0:8000/", "0.0.0.0"),
        ("http://app.localhost/", "app.localhost"),
        ("http://192.168.1.20:8000/", None),
        ("http://10.0.0.5/", None),
        ("https://seep.example.org/", None),
    ],
)
def test_a_host_no_phone_can_reach_is_named(url: str, unreachable: str | None) -> None:
    from tournaments.site import unreachable_host

    assert unreachable_host(url) == unreachable


# --- the last deal of the tournament ------------------------------------------------------


def final_of_two(desk: CommittingClient) -> tuple[Tournament, Match]:
    """A knockout of two teams: one match, the final, one deal long."""
    t = make_evening(
        desk,
        preset="single_elimination",
        rounds=None,
        top=None,
        confirmation="other_team",
        deal_cap=1,
        draws=None,
    )
    register(desk, t, "Tigers: Anil & Bina\nLotus: Chandra & Dev")
    stage = Stage.objects.get(tournament=t)
    desk.post(f"/desk/{t.slug}/stages/{stage.pk}/start/")
    for round_ in Round.objects.filter(stage=stage, status=Round.Status.DRAFT):
        desk.post(f"/desk/{t.slug}/rounds/{round_.pk}/publish/")
    return t, first_match(t)


def test_the_last_deal_of_the_final_ends_the_evening_on_both_phones(
    desk: CommittingClient,
) -> None:
    t, match = final_of_two(desk)
    first = phone(link_of(desk, t, match.team0))
    second = phone(link_of(desk, t, match.team1))
    sent = first.post(
        f"/keep/{match.pk}/enter/",
        command(match, points_a=70, points_b=30, sweeps_a=1, sweeps_b=0),
        **JSON,
    )
    assert sent.json()["ok"], sent.json()
    entry = MatchEvent.objects.get(match=match, kind="deal_entered")
    confirmed = second.post(
        f"/keep/{match.pk}/answer/",
        command(match, action="confirm", entry=entry.payload.get("entry", 1)),
        **JSON,
    )
    assert confirmed.status_code == 200 and confirmed.json()["ok"], confirmed.content
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Stage.objects.get(tournament=t).status == Stage.Status.COMPLETE
    winner, loser = match.team0.name, match.team1.name
    for client, mine in ((first, True), (second, False)):
        # the page the confirming phone loads next, and the other phone's next poll
        for path in (f"/keep/{match.pk}/", f"/keep/{match.pk}/status/"):
            page = client.get(path)
            text = html.unescape(page.content.decode())
            assert page.status_code == 200, (path, page.status_code)
            assert "Nothing was recorded" not in text and "no longer works" not in text
            assert "The match is over:" in text
            assert f"Champion: <strong>{winner}</strong>" in text
            assert ("your team won" in text) is mine
            assert (f"{winner} won" in text) is not mine
            assert ("Congratulations" in text) is mine
    assert loser in html.unescape(second.get(f"/keep/{match.pk}/").content.decode())
    # the links act no more, and say why in words
    late = second.post(f"/keep/{match.pk}/enter/", command(match, points_a=50, points_b=50), **JSON)
    assert late.status_code == 409 and "tournament is over" in late.json()["message"]
    settle = second.post(f"/keep/{match.pk}/withdraw/", command(match, entry=1), **JSON)
    assert settle.status_code == 409 and "tournament is over" in settle.json()["message"]


# --- both teams send the same deal at once -------------------------------------------------


def test_a_send_that_crossed_the_other_teams_entry_shows_it_with_confirm_at_once(
    desk: CommittingClient,
) -> None:
    t, _ = published_evening(desk)
    match = first_match(t)
    first = phone(link_of(desk, t, match.team0))
    second = phone(link_of(desk, t, match.team1))
    both_loaded = command(match)["expected_seq"]  # both pages show the same head
    form = {"sweeps_a": 0, "sweeps_b": 0, "client_id": "1" * 32}
    one = first.post(
        f"/keep/{match.pk}/enter/",
        {**form, "expected_seq": both_loaded, "points_a": 60, "points_b": 40},
        **JSON,
    )
    assert one.json()["ok"]
    other = second.post(
        f"/keep/{match.pk}/enter/",
        {
            **form,
            "client_id": "2" * 32,
            "expected_seq": both_loaded,
            "points_a": 60,
            "points_b": 40,
        },
        **JSON,
    )
    answer = other.json()
    assert other.status_code == 409 and answer["moved"] is True
    assert f"{match.team0.name} entered deal 1 at the same moment as you" in answer["message"]
    assert "same numbers as you: confirm them" in answer["message"]
    # the page it reloads to has the other team's entry with Confirm, and the words
    page = html.unescape(second.get(f"/keep/{match.pk}/").content.decode())
    assert "Confirm deal 1" in page and "at the same moment as you" in page
    assert f'action="/keep/{match.pk}/enter/"' not in page  # no second entry form
    assert MatchEvent.objects.filter(match=match, kind="deal_entered").count() == 1


def test_a_crossed_send_with_other_numbers_asks_to_check_them(desk: CommittingClient) -> None:
    t, _ = published_evening(desk)
    match = first_match(t)
    first = phone(link_of(desk, t, match.team0))
    second = phone(link_of(desk, t, match.team1))
    head = command(match)["expected_seq"]
    base = {"sweeps_a": 0, "sweeps_b": 0, "expected_seq": head}
    first.post(
        f"/keep/{match.pk}/enter/",
        {**base, "client_id": "a" * 32, "points_a": 60, "points_b": 40},
        **JSON,
    )
    other = second.post(
        f"/keep/{match.pk}/enter/",
        {**base, "client_id": "b" * 32, "points_a": 55, "points_b": 45},
        **JSON,
    ).json()
    assert other["moved"], other
    assert "confirm them if they are right, or reject them" in other["message"]


# --- the phone's own team first --------------------------------------------------------------


def first_box(page: str) -> str:
    """The name of the first card-points box of the entry form."""
    form = page[page.index("the result</h2>") :]
    found = re.search(r'<input class="points"[^>]*name="(points_[ab])"', form)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(("side", "ours"), [(0, 70), (1, 70), (1, 0), (0, 100)])
def test_our_points_typed_in_the_first_box_are_our_teams(
    desk: CommittingClient, side: int, ours: int
) -> None:
    t, _ = published_evening(desk)
    match = first_match(t)
    team = (match.team0, match.team1)[side]
    client = phone(link_of(desk, t, team))
    page = html.unescape(client.get(f"/keep/{match.pk}/").content.decode())
    assert f"Card points of {team.name} (your team)" in page
    first = first_box(page)
    assert page.index(f"Card points of {team.name} (your team)") < page.index(
        (match.team1 if side == 0 else match.team0).name, page.index("the result</h2>")
    )
    second = "points_b" if first == "points_a" else "points_a"
    sent = client.post(
        f"/keep/{match.pk}/enter/",
        command(match, **{first: ours, second: 100 - ours, "sweeps_a": 0, "sweeps_b": 0}),
        **JSON,
    )
    assert sent.json()["ok"], sent.json()
    entered = MatchEvent.objects.get(match=match, kind="deal_entered")
    assert entered.payload["points"][side] == ours  # "our points" went to our team


# --- a match reopened by a correction -------------------------------------------------------


def test_a_match_reopened_by_a_correction_tells_its_players_why(desk: CommittingClient) -> None:
    t, match = final_of_two(desk)
    first = phone(link_of(desk, t, match.team0))
    second = phone(link_of(desk, t, match.team1))
    first.post(
        f"/keep/{match.pk}/enter/",
        command(match, points_a=70, points_b=30, sweeps_a=0, sweeps_b=0),
        **JSON,
    )
    second.post(f"/keep/{match.pk}/answer/", command(match, action="confirm", entry=1), **JSON)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    fix = {
        "fix-kind": "deal_corrected",
        "fix-deal": 1,
        "fix-points_a": 50,
        "fix-points_b": 50,
        "fix-sweeps_a": "",
        "fix-sweeps_b": "",
        "fix-reason": "both teams counted 50 on the score sheet",
        "fix-confirm": "on",
        "step": "apply",
    }
    fix.update(
        {f"fix-{k}": v for k, v in command(match).items()}  # expected_seq, client_id
    )
    applied = desk.post(f"/desk/{t.slug}/matches/{match.pk}/correct/", fix)
    assert applied.status_code in (200, 302), applied.content.decode()[:3000]
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS, "the correction did not reopen the match"
    for client in (first, second):
        text = html.unescape(client.get(f"/keep/{match.pk}/").content.decode())
        assert "The director reopened this match" in text
        assert "both teams counted 50 on the score sheet" in text


# --- a bye, and what a finished match leads to --------------------------------------------------


def test_a_bye_teams_phone_says_it_has_a_bye(desk: CommittingClient) -> None:
    from competition.models import Fixture

    from .test_desk_evening import TEN

    t = make_evening(desk, confirmation="other_team")
    register(desk, t, "\n".join(TEN.splitlines()[:9]))
    swiss = Stage.objects.filter(tournament=t).order_by("order").first()
    assert swiss is not None
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/start/")
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/pair/")
    round_ = Round.objects.get(stage=swiss)
    desk.post(f"/desk/{t.slug}/rounds/{round_.pk}/publish/")
    bye = Fixture.objects.get(round=round_, result=Fixture.Result.BYE)
    assert bye.team_a is not None
    index = html.unescape(phone(link_of(desk, t, bye.team_a)).get("/keep/").content.decode())
    assert f"{bye.team_a.name} has a bye in round 1: no match to play" in index
    assert "no match in progress" not in index


def test_a_finished_match_leads_to_the_teams_next_match(desk: CommittingClient) -> None:
    t, _ = published_evening(desk)
    match = first_match(t)
    first = phone(link_of(desk, t, match.team0))
    second = phone(link_of(desk, t, match.team1))
    # a deal with a lead of 100 or more wins the one bazzi the evening's matches last
    first.post(
        f"/keep/{match.pk}/enter/",
        command(match, points_a=90, points_b=10, sweeps_a=2, sweeps_b=0),
        **JSON,
    )
    second.post(f"/keep/{match.pk}/answer/", command(match, action="confirm", entry=1), **JSON)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    text = html.unescape(first.get(f"/keep/{match.pk}/").content.decode())
    assert "The match is over: your team won." in text
    assert "Your next match shows here once the director publishes the next round" in text


# --- smaller points ------------------------------------------------------------------------------


def test_a_rename_that_differs_only_in_capitals_is_refused_in_words(
    desk: CommittingClient,
) -> None:
    from tournaments.models import Team

    from .test_desk_evening import TEN

    t = make_evening(desk)
    register(desk, t, TEN)
    kings = Team.objects.get(tournament=t, name="Kings")
    refused = desk.post(
        f"/desk/{t.slug}/teams/{kings.pk}/", {"name": "aces", "seed": 2, "rating": ""}
    )
    text = html.unescape(refused.content.decode())
    assert refused.status_code in (200, 409, 422), refused.status_code
    assert "Another team is called Aces" in text
    kings.refresh_from_db()
    assert kings.name == "Kings"
    # and a new team of that name over the API: the same refusal, as a problem document
    response = desk.post(
        f"/api/v1/tournaments/{t.pk}/teams/",
        data='{"name": "ACES", "players": [{"name": "Zoya"}, {"name": "Yash"}]}',
        content_type="application/json",
    )
    assert response.status_code == 422 and response.json()["code"] == "bad_team"
    assert response["Content-Type"].startswith("application/problem+json")
    assert "Another team is called Aces" in response.content.decode()
    assert not Team.objects.filter(tournament=t, name="ACES").exists()
