"""The admin shows each match's deals, deal by deal, and the scoring tables read-only."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring.models import DealResult, MatchResult

from .helpers import enter, new_match, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client: Any, django_user_model: Any) -> Any:
    client.force_login(django_user_model.objects.create_superuser("director"))
    return client


@pytest.fixture
def played(world: Any) -> Any:
    match = new_match(world, fmt={"bazzis": 2})
    start(match)
    for points in ([80, 20], [8, 92], [65, 35]):
        enter(match, points)
    return match


def test_the_match_page_shows_its_deals_with_running_differences_and_bazzis(
    staff_client: Any, played: Any
) -> None:
    response = staff_client.get(f"/admin/tournaments/match/{played.pk}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    sheet = page[page.index('<table class="scoresheet">') :]
    sheet = sheet[: sheet.index("</table>")]
    rows = re.findall(r"<tr><td>(.*?)</td></tr>", sheet)
    assert [row.split("</td><td>") for row in rows] == [
        ["1", "0", "80 - 20", "0 - 0", "80 - 20", "60", "60", "-", "0 - 0"],
        ["2", "1", "8 - 92", "0 - 0", "8 - 92", "-84", "0", "Team B (under the minimum (L3))",
         "0 - 1"],
        ["3", "0", "65 - 35", "0 - 0", "65 - 35", "30", "30", "-", "0 - 1"],  # R3: 1 -> 2 -> 0
    ]  # fmt: skip
    assert "in progress, next dealer: seat 1; bazzis 0 - 1, running difference 30" in page


def test_a_new_match_has_no_scoresheet_yet(staff_client: Any, world: Any) -> None:
    assert staff_client.get("/admin/tournaments/match/add/").status_code == 200
    page = staff_client.get(f"/admin/tournaments/match/{world.score_match.pk}/change/")
    assert "Not projected yet" in page.content.decode()


def test_the_scoring_tables_are_listed_and_never_edited(staff_client: Any, played: Any) -> None:
    deal = DealResult.objects.get(match=played, deal=2)
    listing = staff_client.get(f"/admin/scoring/dealresult/?match__id__exact={played.pk}")
    assert listing.status_code == 200 and listing.context["cl"].result_count == 3
    assert staff_client.get("/admin/scoring/matchresult/").status_code == 200
    assert staff_client.get("/admin/scoring/dealresult/add/").status_code == 403
    changed = staff_client.post(
        f"/admin/scoring/dealresult/{deal.pk}/change/", {"running_difference": 5}
    )
    assert changed.status_code == 403
    deleted = staff_client.post(f"/admin/scoring/matchresult/{played.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 403
    assert MatchResult.objects.filter(match=played).exists()
    deal.refresh_from_db()
    assert deal.running_difference == 0 and deal.reset
