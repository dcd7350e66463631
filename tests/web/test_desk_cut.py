"""A tie at the knockout's cut on the desk: shown where the next stage would start, decided
on the stage's cut page by a drawn lot or the director's order, once, by a director only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from competition.models import CutDecision, Stage
from tests.competition.test_cut_ties import TiedCut, entrants, tied_cut

from .checks import check_html
from .conftest import CommittingClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def cut() -> TiedCut:
    return tied_cut("desk-cut")


def signed_in(user: Any) -> CommittingClient:
    client = CommittingClient()
    client.force_login(user)
    return client


def page(client: CommittingClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    text: str = response.content.decode()
    check_html(text)
    return text


def errors(response: Any) -> list[str]:
    """Return the error messages a followed response shows."""
    assert response.status_code == 200
    return [str(m) for m in response.context["messages"] if m.level_tag == "error"]


def test_the_desk_shows_the_tie_and_refuses_to_start_the_knockout(cut: TiedCut) -> None:
    desk = signed_in(cut.club.organizer)
    slug = cut.club.tournament.slug
    home = page(desk, f"/desk/{slug}/")
    names = [t.name for t in cut.club.teams if t.pk in cut.losers]
    assert "A tie at the cut waits for you" in home
    assert f"{names[0]} and {names[1]} are level on everything at place 3" in home
    assert f"Start {cut.knockout.name}" not in home  # no button that would be refused
    assert f"/desk/{slug}/stages/{cut.knockout.pk}/cut/" in home
    response = desk.post(f"/desk/{slug}/stages/{cut.knockout.pk}/start/", follow=True)
    assert any("A tie at the cut waits for a director" in e for e in errors(response))
    cut.knockout.refresh_from_db()
    assert cut.knockout.status == Stage.Status.PENDING
    cut_page = page(desk, f"/desk/{slug}/stages/{cut.knockout.pk}/cut/")
    assert "Draw a lot" in cut_page and "Set this order" in cut_page
    assert "tied: to decide" in cut_page


def test_a_lot_drawn_on_the_desk_is_shown_the_same_on_every_reload(cut: TiedCut) -> None:
    desk = signed_in(cut.club.organizer)
    slug, pk = cut.club.tournament.slug, cut.knockout.pk
    response = desk.post(f"/desk/{slug}/stages/{pk}/cut/decide/", {"tie": cut.key, "how": "lot"})
    assert response.status_code == 302
    decision = CutDecision.objects.get()
    drawn_by = f"lot drawn by {cut.club.organizer.get_username()} at "
    first = page(desk, f"/desk/{slug}/stages/{pk}/cut/")
    assert drawn_by in first and "Draw a lot" not in first
    again = desk.post(
        f"/desk/{slug}/stages/{pk}/cut/decide/", {"tie": cut.key, "how": "lot"}, follow=True
    )
    assert any("decided already" in e for e in errors(again))
    assert list(CutDecision.objects.values_list("order", "lot_seed")) == [
        (decision.order, decision.lot_seed)
    ]

    def decided(text: str) -> str:  # the tie and the table, past the page's own messages
        return text[text.index('<section class="card"') : text.index("</table>")]

    assert decided(page(desk, f"/desk/{slug}/stages/{pk}/cut/")) == decided(first)
    home = page(desk, f"/desk/{slug}/")
    assert "A tie at the cut waits" not in home and f"Start {cut.knockout.name}" in home
    desk.post(f"/desk/{slug}/stages/{pk}/start/")
    assert entrants(cut.knockout) == [*cut.winners, decision.order[0]]
    assert drawn_by in page(desk, f"/desk/{slug}/rounds/{cut.knockout.round_set.get(number=1).pk}/")


def test_the_directors_order_on_the_desk_and_its_bad_inputs(cut: TiedCut) -> None:
    desk = signed_in(cut.club.organizer)
    url = f"/desk/{cut.club.tournament.slug}/stages/{cut.knockout.pk}/cut/decide/"
    for bad in (
        {"tie": cut.key, "how": "order", "order": [str(cut.losers[0]), str(cut.winners[0])]},
        {"tie": cut.key, "how": "order", "order": [str(cut.losers[0])] * 2},
        {"tie": cut.key, "how": "order", "order": ["²", str(cut.losers[0])]},
        {"tie": cut.key, "how": "order"},
        {"tie": "3:1,2", "how": "order", "order": [str(t) for t in cut.losers]},
        {"tie": cut.key, "how": "both"},
        {},
    ):
        said = errors(desk.post(url, bad, follow=True))
        assert len(said) == 1 and said[0].startswith(
            ("Nothing was decided", "The order names", "There is no such tie")
        ), (bad, said)
    assert not CutDecision.objects.exists()
    worse_first = [str(cut.losers[1]), str(cut.losers[0])]
    response = desk.post(url, {"tie": cut.key, "how": "order", "order": worse_first})
    assert response.status_code == 302
    assert CutDecision.objects.get().order == [cut.losers[1], cut.losers[0]]
    shown = page(desk, f"/desk/{cut.club.tournament.slug}/stages/{cut.knockout.pk}/cut/")
    assert "director&#x27;s order" in shown


def test_only_the_tournaments_director_sees_or_decides_the_tie(cut: TiedCut) -> None:
    other = signed_in(get_user_model().objects.create_user("another-director"))
    slug, pk = cut.club.tournament.slug, cut.knockout.pk
    assert other.get(f"/desk/{slug}/stages/{pk}/cut/").status_code == 404
    response = other.post(f"/desk/{slug}/stages/{pk}/cut/decide/", {"tie": cut.key, "how": "lot"})
    assert response.status_code == 404
    anonymous = CommittingClient()
    response = anonymous.post(
        f"/desk/{slug}/stages/{pk}/cut/decide/", {"tie": cut.key, "how": "lot"}
    )
    assert response.status_code == 302 and "login" in response["Location"]
    assert not CutDecision.objects.exists()
