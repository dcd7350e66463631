"""The phone page: a deal entered in a few fields, the other team's answer, errors in plain
words with nothing lost, a resend written once, and only the match's people let in."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments import matchlog
from tournaments.models import Match
from tournaments.selectors import match_state

from .conftest import Club

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def entry(match: Match, client_id: str, a: int = 60, b: int = 40, **extra: Any) -> dict[str, Any]:
    match.refresh_from_db()
    return {
        "expected_seq": match.last_seq,
        "client_id": client_id,
        "points_a": a,
        "points_b": b,
        "sweeps_a": 0,
        "sweeps_b": 0,
        **extra,
    }


def answer(match: Match, client_id: str, action: str, **extra: Any) -> dict[str, Any]:
    match.refresh_from_db()
    number = match_state(match).entries[0].number
    return {
        "expected_seq": match.last_seq,
        "client_id": client_id,
        "entry": number,
        "action": action,
        **extra,
    }


def kinds(match: Match) -> list[str]:
    return list(match.events.order_by("seq").values_list("kind", flat=True))


def test_a_scorekeeper_enters_a_deal_and_the_other_team_confirms_it(club: Club) -> None:
    match = club.matches[0]
    keeper = club.client("scorekeeper")
    response = keeper.post(
        f"/keep/{match.pk}/enter/", entry(match, "enter-0001", 55, 45, sweeps_a=1)
    )
    assert response.status_code == 302
    page = keeper.get(f"/keep/{match.pk}/").content.decode()
    assert "Deal 1 entered" in page and "Waiting for the other team to confirm" in page
    player = club.player_of(match, 1)
    other = club.client(player).get(f"/keep/{match.pk}/").content.decode()
    assert "Confirm deal 1" in other and "Reject" in other
    confirmed = club.client(player).post(
        f"/keep/{match.pk}/answer/", answer(match, "confirm-0001", "confirm")
    )
    assert confirmed.status_code == 302
    assert kinds(match)[-3:] == ["deal_confirmed", "deal_ended", "match_ended"]
    page = keeper.get(f"/keep/{match.pk}/").content.decode()
    name = next(p.name for p in match.seat_players() if p.user.username == player)
    assert f"Deal 1 was confirmed by {name}" in page
    ended = next(iter(match.events.filter(kind="deal_ended")))
    assert ended.payload["points"] == [55, 45] and ended.payload["sweeps"][0] == [50]


@pytest.mark.parametrize(("full_name", "shown"), [("", "the score-keeper"), ("Ravi K", "Ravi K")])
def test_the_players_see_a_score_keepers_entry_by_full_name_never_the_user_name(
    club: Club, full_name: str, shown: str
) -> None:
    keeper_account = club.users["scorekeeper"]
    keeper_account.first_name = full_name
    keeper_account.save()
    match = club.matches[0]
    club.client("scorekeeper").post(f"/keep/{match.pk}/enter/", entry(match, "enter-0101"))
    page = club.client(club.player_of(match, 1)).get(f"/keep/{match.pk}/").content.decode()
    assert f"entered by {shown}" in page
    assert keeper_account.get_username() not in page


def test_the_team_that_entered_a_result_cannot_confirm_it(club: Club) -> None:
    match = club.matches[0]
    enterer, partner = club.player_of(match, 0, 0), club.player_of(match, 0, 1)
    club.client(enterer).post(f"/keep/{match.pk}/enter/", entry(match, "enter-0002"))
    page = club.client(partner).get(f"/keep/{match.pk}/").content.decode()
    assert "Confirm deal 1" not in page
    response = club.client(partner).post(
        f"/keep/{match.pk}/answer/", answer(match, "confirm-0002", "confirm"), **JSON
    )
    assert response.status_code == 403
    match.refresh_from_db()
    assert response.json() == {
        "ok": False,
        "retry": False,
        "moved": False,
        "code": "own_team_entry",
        "message": "Your team entered this result: the other team confirms it.",
        "last_seq": match.last_seq,  # where the page's form starts again
    }
    assert "deal_confirmed" not in kinds(match)


def test_card_points_that_do_not_make_100_are_refused_in_words_and_kept(club: Club) -> None:
    match = club.matches[0]
    response = club.client("scorekeeper").post(
        f"/keep/{match.pk}/enter/", entry(match, "enter-0003", 57, 40)
    )
    assert response.status_code == 422
    text = response.content.decode()
    assert "The card points must add up to 100: 57 + 40 = 97." in text
    assert 'name="points_a" id="id_points_a" value="57"' in text
    assert 'value="40"' in text
    assert "deal_entered" not in kinds(match)


def test_a_deal_no_deal_can_have_is_refused_with_the_rule(club: Club) -> None:
    match = club.matches[0]
    response = club.client("scorekeeper").post(
        f"/keep/{match.pk}/enter/", entry(match, "enter-0004", sweeps_a=20, sweeps_b=20), **JSON
    )
    assert response.status_code == 422
    body = response.json()
    assert body["ok"] is False and body["message"].endswith(").")  # the rule id, in words
    assert "deal_entered" not in kinds(match)


def test_an_entry_sent_again_after_a_lost_answer_is_written_once(club: Club) -> None:
    match = club.matches[0]
    keeper = club.client("scorekeeper")
    data = entry(match, "resend-0001")
    first = keeper.post(f"/keep/{match.pk}/enter/", data, **JSON)
    again = keeper.post(f"/keep/{match.pk}/enter/", data, **JSON)
    assert first.status_code == again.status_code == 200
    assert first.json()["ok"] and again.json()["ok"]
    assert kinds(match).count("deal_entered") == 1


def test_a_stale_page_is_told_why_and_keeps_the_numbers(club: Club) -> None:
    match = club.matches[0]
    stale = entry(match, "stale-0001", 70, 30)
    stale["expected_seq"] -= 1
    response = club.client("scorekeeper").post(f"/keep/{match.pk}/enter/", stale)
    assert response.status_code == 409
    text = response.content.decode()
    assert "your numbers are still in the form" in text
    assert 'value="70"' in text and 'value="30"' in text
    match.refresh_from_db()
    assert f'name="expected_seq" value="{match.last_seq}"' in text  # ready to send again


def test_the_forms_are_csrf_protected(club: Club) -> None:
    match = club.matches[0]
    client = Client(enforce_csrf_checks=True)
    client.force_login(club.users["scorekeeper"])
    response = client.post(f"/keep/{match.pk}/enter/", entry(match, "csrf-0001"))
    assert response.status_code == 403
    assert "deal_entered" not in kinds(match)
    page = client.get(f"/keep/{match.pk}/").content.decode()
    assert 'name="csrfmiddlewaretoken"' in page


def test_only_the_matchs_people_reach_its_score_page(club: Club) -> None:
    match, other = club.matches
    url = f"/keep/{match.pk}/"
    for who in ("scorekeeper", "director", club.player_of(match, 0), club.player_of(match, 1)):
        assert club.client(who).get(url).status_code == 200, who
    for who in ("outsider", club.player_of(other, 0)):
        assert club.client(who).get(url).status_code == 404, who
        response = club.client(who).post(f"/keep/{match.pk}/enter/", entry(match, "nope-0001"))
        assert response.status_code == 404, who
    assert "deal_entered" not in kinds(match)
    assert club.client().get(url).status_code == 302  # to sign in


def test_the_pick_list_shows_the_matches_at_hand(club: Club) -> None:
    match, other = club.matches
    text = club.client(club.player_of(match, 0)).get("/keep/").content.decode()
    assert f"/keep/{match.pk}/" in text and f"/keep/{other.pk}/" not in text
    text = club.client("scorekeeper").get("/keep/").content.decode()
    assert f"/keep/{match.pk}/" in text and f"/keep/{other.pk}/" in text


def test_a_rejection_with_a_reason_goes_to_the_director(club: Club) -> None:
    match = club.matches[0]
    club.client("scorekeeper").post(f"/keep/{match.pk}/enter/", entry(match, "enter-0005"))
    player = club.player_of(match, 0)
    response = club.client(player).post(
        f"/keep/{match.pk}/answer/", answer(match, "reject-0001", "reject", reason="It was 50 50")
    )
    assert response.status_code == 302
    assert match_state(match).disputed
    page = club.client(player).get(f"/keep/{match.pk}/").content.decode()
    assert "is disputed: the director decides it" in page and "It was 50 50" in page
    desk = club.client("director").get(f"/desk/{club.tournament.slug}/").content.decode()
    assert f"/desk/{club.tournament.slug}/matches/{match.pk}/" in desk


def test_a_rejection_without_a_reason_is_refused_and_nothing_is_written(club: Club) -> None:
    match = club.matches[0]
    club.client("scorekeeper").post(f"/keep/{match.pk}/enter/", entry(match, "enter-0006"))
    player = club.player_of(match, 1)
    response = club.client(player).post(
        f"/keep/{match.pk}/answer/", answer(match, "reject-0002", "reject", reason=""), **JSON
    )
    assert response.status_code == 422 and "What is wrong with it?" in response.json()["message"]
    assert "deal_rejected" not in kinds(match)


def test_the_status_part_answers_304_until_the_other_team_answers(club: Club) -> None:
    match = club.matches[0]
    keeper = club.client("scorekeeper")
    keeper.post(f"/keep/{match.pk}/enter/", entry(match, "enter-0007"))
    first = keeper.get(f"/keep/{match.pk}/status/")
    assert (
        keeper.get(f"/keep/{match.pk}/status/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    )
    club.client(club.player_of(match, 1)).post(
        f"/keep/{match.pk}/answer/", answer(match, "confirm-0003", "confirm")
    )
    after = keeper.get(f"/keep/{match.pk}/status/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and "The match is over" in after.content.decode()


def test_garbage_is_a_clear_refusal_never_a_server_error(club: Club) -> None:
    match = club.matches[0]
    keeper = club.client("scorekeeper")
    for data in ({}, {"points_a": "x", "client_id": "!"}, {"expected_seq": "-1"}):
        response = keeper.post(f"/keep/{match.pk}/enter/", data)
        assert response.status_code == 422, data
    assert keeper.post(f"/keep/{match.pk}/answer/", {"action": "maybe"}).status_code == 422
    assert keeper.post(f"/keep/{match.pk}/answer/", {"action": "confirm"}).status_code == 422
    assert keeper.get(f"/keep/{match.pk}/enter/").status_code == 405
    assert match.events.filter(kind__in=[matchlog.Kind.DEAL_ENTERED]).count() == 0


def test_a_digital_match_has_no_score_page(club: Club) -> None:
    assert club.client("director").get(f"/keep/{club.digital.pk}/").status_code == 404
