"""A desk form that comes back with errors says so at its top (the GOV.UK pattern): a box
with role="alert" that takes the focus, headed "There is a problem", each error a link to
its field; each field's own message is tied to it (aria-describedby, aria-invalid), and
every id these point at is on the page. (That the box gets the focus in a browser is
tests/web/test_browser_accessibility.py's.)"""

from __future__ import annotations

from typing import Any

import pytest

from .checks import check_html
from .conftest import Club

pytestmark = pytest.mark.django_db


def posts(club: Club) -> list[tuple[str, dict[str, Any]]]:
    slug = club.tournament.slug
    return [
        (f"/desk/{slug}/teams/", {}),  # a team with no name and no players
        (f"/desk/{slug}/teams/", {"name": "North", "first_player": "Zed", "second_player": "Zed"}),
        ("/desk/new/", {"name": ""}),  # a tournament with nothing filled in, radio groups too
        (f"/desk/{slug}/stages/new/", {"name": "", "bazzis": "x"}),
    ]


@pytest.mark.parametrize("n", range(4))
def test_a_form_with_errors_leads_with_a_summary_whose_links_and_ties_reach_real_ids(
    club: Club, n: int
) -> None:
    url, data = posts(club)[n]
    response = club.client("director").post(url, data)
    assert response.status_code in (200, 422), response.status_code
    doc = check_html(response.content.decode())
    ids = {e.get("id") for e in doc.iter() if e.get("id")}
    summaries = [e for e in doc.iter("div") if "error-summary" in (e.get("class") or "")]
    assert len(summaries) == 1
    summary = summaries[0]
    assert summary.get("role") == "alert" and summary.get("tabindex") == "-1"
    assert summary.get("autofocus") is not None  # focus moves to it as the page opens
    assert "".join(summary.find("h2").itertext()) == "There is a problem"
    items = summary.findall(".//li")
    assert items
    links = list(summary.iter("a"))
    for link in links:
        assert link.get("href", "").startswith("#")
        assert link.get("href")[1:] in ids, link.get("href")
    invalid = [e for e in doc.iter() if e.get("aria-invalid") == "true"]
    assert bool(invalid) == bool(links), "the fields in error say so (a form's own error has none)"
    for element in doc.iter():
        for target in (element.get("aria-describedby") or "").split():
            assert target in ids, (element.tag, element.attrib, target)
    for element in invalid:
        described = (element.get("aria-describedby") or "").split()
        fieldset = next(
            (f for f in doc.iter("fieldset") if element in f.iter() and f.get("aria-describedby")),
            None,
        )
        if fieldset is not None:
            described += fieldset.get("aria-describedby").split()
        errors = [d for d in described if d.endswith("_error")]
        assert errors, element.attrib  # its message is tied to it
        message = next(e for e in doc.iter() if e.get("id") == errors[0])
        assert "".join(message.itertext()).strip()
