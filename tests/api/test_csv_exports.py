"""The API's CSV files (``stages/{id}/standings.csv``, ``tournaments/{id}/matches.csv`` and
``deals.csv``): the JSON resource's access (a private tournament's are 404 to a stranger, as
an id that does not exist), text/csv in UTF-8 with its mark, and problem+json refusals."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from competition import exports
from scoring.models import DealResult
from tests.scoring.helpers import committed
from tournaments.models import Team

from ..competition.helpers import Club as CupClub
from ..competition.helpers import make_club as make_cup

pytestmark = pytest.mark.django_db

DEVANAGARI = "नमस्ते"


@pytest.fixture
def cup(db: None) -> CupClub:
    """A private round robin of four teams (one named in Devanagari), round 1 played."""
    cup = make_cup(4, slug="api-csv-cup")
    Team.objects.filter(pk=cup.teams[0].pk).update(name=DEVANAGARI)
    stage = cup.start(cup.stage(format="round_robin"))
    round_ = cup.pair(stage)
    cup.publish(round_)
    with committed():
        cup.play(round_, random.Random(11))
    return cup


def paths(cup: CupClub) -> list[str]:
    stage = cup.tournament.stages.get()
    t = cup.tournament.pk
    return [
        f"/api/v1/stages/{stage.pk}/standings.csv",
        f"/api/v1/tournaments/{t}/matches.csv",
        f"/api/v1/tournaments/{t}/deals.csv",
    ]


def rows_of(response: Any) -> list[list[str]]:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))


def problem(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == code


def test_a_private_tournament_s_files_are_404_to_a_stranger_and_served_to_its_organizer(
    cup: CupClub,
) -> None:
    stranger = APIClient()
    stranger.force_login(get_user_model().objects.create_user("stranger"))
    for path in paths(cup):
        problem(APIClient().get(path), 404, "not_found")
        problem(stranger.get(path), 404, "not_found")
    organizer = APIClient()
    organizer.force_login(cup.organizer)
    standings, matches, deals = (rows_of(organizer.get(path)) for path in paths(cup))
    assert standings[0][: len(exports.STANDINGS_HEADER)] == exports.STANDINGS_HEADER
    assert len(standings) == 5 and DEVANAGARI in {row[2] for row in standings}
    assert matches[0] == exports.MATCHES_HEADER and len(matches) == 3
    recorded = DealResult.objects.filter(match__tournament=cup.tournament).count()
    assert deals[0] == exports.DEALS_HEADER and len(deals) == 1 + recorded


def test_a_published_tournament_s_files_are_anyone_s_and_accept_text_csv(cup: CupClub) -> None:
    cup.tournament.published = True
    cup.tournament.save(update_fields=["published"])
    for path in paths(cup):
        rows_of(APIClient().get(path))
        rows_of(APIClient().get(path, HTTP_ACCEPT="text/csv"))
        problem(APIClient().get(path, HTTP_ACCEPT="image/png"), 406, "not_acceptable")


def test_standings_as_of_a_round_and_a_bad_round_is_a_problem(cup: CupClub) -> None:
    cup.tournament.published = True
    cup.tournament.save(update_fields=["published"])
    standings = paths(cup)[0]
    before = rows_of(APIClient().get(standings + "?round=0"))
    assert {row[4] for row in before[1:]} == {"0"}  # nothing played before round 1
    after = rows_of(APIClient().get(standings + "?round=1"))
    assert {row[4] for row in after[1:]} == {"1"}
    for bad in ("x", "", "-1", "99999"):
        problem(APIClient().get(f"{standings}?round={bad}"), 400, "bad_parameter")
