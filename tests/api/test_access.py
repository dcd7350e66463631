"""api.access: the one-query lookup of an object and its tournament (get_visible_row)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db.models import IntegerField
from django.db.models.expressions import RawSQL
from django.http import Http404

from api.access import get_visible, get_visible_row
from tournaments.models import Match, Tournament

from .conftest import League

pytestmark = pytest.mark.django_db


def caller(user: Any = None) -> Any:
    """What the lookups read of a request: the user and the token (none here)."""
    return SimpleNamespace(user=user or AnonymousUser(), auth=None)


def test_it_loads_what_the_orm_loads_of_the_object_and_its_tournament(league: League) -> None:
    match = league.digital
    match.refresh_from_db()
    found = get_visible_row(caller(), Match, match.pk, fields=("last_hash", "last_seq"))
    assert (found.pk, found.tournament_id, found.last_seq, found.last_hash) == (
        match.pk,
        match.tournament_id,
        match.last_seq,
        match.last_hash,
    )
    tournament = Tournament.objects.get(pk=match.tournament_id)
    assert found.tournament.published is tournament.published is True
    assert found.tournament.organizer_id == tournament.organizer_id
    assert found.status == match.status  # a field not asked for: deferred, read on access


def test_annotations_come_converted(league: League) -> None:
    table = Match._meta.db_table
    count = RawSQL(
        f"SELECT COUNT(*) + %s FROM {table} m WHERE m.tournament_id = {table}.tournament_id",
        (100,),
        output_field=IntegerField(),
    )
    found = get_visible_row(caller(), Match, league.digital.pk, annotations={"siblings": count})
    assert found.siblings == 100 + Match.objects.filter(tournament=league.a).count()


@pytest.mark.parametrize("pk", ["x", "", None, 0, -1, 2**63, "1e3", 10**6])
def test_a_malformed_or_unknown_id_is_a_404(league: League, pk: Any) -> None:
    with pytest.raises(Http404):
        get_visible_row(caller(), Match, pk)


@pytest.mark.parametrize("who", [None, "outsider", "organizer_a", "organizer_b", "keeper_b"])
def test_it_decides_as_get_visible_does(league: League, who: str | None) -> None:
    request = caller(league.users[who] if who else None)
    for match in (league.digital, league.private_match):
        try:
            expected = get_visible(caller(request.user), Match.objects.all(), match.pk).pk
        except Http404:
            expected = None
        try:
            found = get_visible_row(request, Match, match.pk).pk
        except Http404:
            found = None
        assert found == expected
    if who in (None, "outsider", "organizer_a"):
        with pytest.raises(Http404):  # B is private: theirs to see only if they are in it
            get_visible_row(request, Match, league.private_match.pk)
    else:  # B's organizer and its score-keeper see it
        assert get_visible_row(request, Match, league.private_match.pk) == league.private_match
    # A is published: everyone sees it
    assert get_visible_row(request, Match, league.digital.pk) == league.digital
