"""The league built once a module (tests/shared.py) is the same for every test: what one test
changes, in the database or in its objects, the next does not see."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import Tournament
from tournaments.snapshots import recent

from .conftest import League


@pytest.fixture(scope="module")
def seen() -> dict[str, Any]:
    return {}


def _cup_a(league: League, seen: dict[str, Any]) -> None:
    seen.setdefault("pk", league.a.pk)
    assert league.a.pk == seen["pk"]  # the same rows, not built again
    assert league.a.name == "Cup A"
    assert Tournament.objects.get(pk=league.a.pk).name == "Cup A"
    assert Tournament.objects.count() == 2
    assert recent.get(league.digital.pk) is not None  # its match state, as the build kept it


@pytest.mark.parametrize("run", [1, 2, 3])
def test_what_a_test_changes_the_next_does_not_see(
    league: League, seen: dict[str, Any], run: int
) -> None:
    _cup_a(league, seen)
    league.a.name = "Renamed"
    league.a.save()
    Tournament.objects.create(name="Extra", slug=f"extra-{run}", organizer=league.users["outsider"])
    recent.clear()
