"""The admin shows each match's deals, deal by deal, and the scoring tables read-only."""

from __future__ import annotations

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
    deals = [
        row for row in response.context["inline_admin_formsets"] if row.opts.model is DealResult
    ]
    assert len(deals) == 1 and len(list(deals[0])) == 3
    assert "80 - 20" in page and "8 - 92" in page  # each deal's totals, team 0 - team 1
    assert "Team B (under the minimum (L3))" in page  # who won the bazzi, and why
    assert "0 - 1" in page  # bazzis after the reset deal


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
