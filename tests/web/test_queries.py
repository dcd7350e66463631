"""Each page makes a bounded number of queries: the same for 4 teams as for 16 (an N+1, a
query per team, table or deal, fails), and under a fixed ceiling."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from .checks import PAGES, every_page
from .conftest import Club, make_club

#: the most queries each page may make once warm (the session and the user included):
#: what it makes today and two more
CEILING = {
    "home": 5,
    "tournament": 12,
    "print": 8,
    "match-score": 7,
    "match-digital": 9,
    "login": 2,
    "keep-index": 6,
    "keep": 10,
    "desk": 11,
    "desk-round": 7,
    "desk-match": 10,
    "desk-home": 6,
    "desk-new": 6,
    "desk-stage-new": 6,
    "desk-stage-edit": 6,
    "desk-team": 9,
    "desk-board": 14,
    "wall": 8,
    "seat": 8,
}
BIG = [f"Team {n:02d}" for n in range(16)]


def queries(club: Club, name: str) -> tuple[int, list[str]]:
    _, url, who = next(p for p in every_page(club) if p[0] == name)
    client = club.client(who)
    client.get(url)  # a warm-up: the session, the content types, the snapshot
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured), [q["sql"][:160] for q in captured.captured_queries]


@pytest.mark.parametrize("name", PAGES)
def test_a_page_makes_as_many_queries_for_16_teams_as_for_4(
    db: None, django_capture_on_commit_callbacks: Any, name: str
) -> None:
    assert set(CEILING) == set(PAGES)
    with django_capture_on_commit_callbacks(execute=True):
        small = make_club()
    few, _ = queries(small, name)
    with django_capture_on_commit_callbacks(execute=True):
        big = make_club(teams=BIG, tag="big-")
    assert len(big.round.fixtures.all()) == 8
    many, sql = queries(big, name)
    assert many == few, "\n".join(sql)
    assert many <= CEILING[name], "\n".join(sql)
