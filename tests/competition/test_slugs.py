"""Slugs per club (issue 40): the model's constraints (one published tournament a slug, one
tournament a slug in a club, one among the clubless), refused in the one wording of
``slug_taken``; ``unique_slug`` counting only what those constraints count; and, on
PostgreSQL, two creators racing for one slug, one refused in words, never an error."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from competition import services
from competition.errors import CompetitionRefused, InvalidSettings, NotNow
from competition.services import evenings
from tournaments import clubs
from tournaments.models import Club, Tournament, slug_held

TAKEN = "the address 'cup' is taken: choose another"


def _people(*names: str) -> dict[str, Any]:
    return {n: get_user_model().objects.create_user(n) for n in names}


def _club(user: Any, name: str) -> Club:
    return clubs.club_create(actor=user, name=name)


@pytest.mark.django_db
def test_the_constraints_refuse_in_slug_taken_s_words_only_what_they_must() -> None:
    users = _people("a", "b")
    one, two = _club(users["a"], "One"), _club(users["b"], "Two")
    Tournament.objects.create(name="Cup", slug="cup", organizer=users["a"], club=one)

    def refusal(**fields: Any) -> dict[str, list[str]] | None:
        try:
            Tournament(name="X", organizer=users["b"], slug="cup", **fields).full_clean()
        except ValidationError as exc:
            return exc.message_dict
        return None

    assert refusal(club=two) is None  # another club's private one: free
    assert refusal(club=two, published=True) is None
    assert refusal(club=one) == {"slug": [TAKEN]}  # the same club's
    assert refusal(club=None) is None  # of no club: only the clubless count
    Tournament.objects.filter(club=one).update(published=True)
    assert refusal(club=two) == {"slug": [TAKEN]}  # a published one's: the site's
    assert refusal(club=two, published=True) == {"slug": [TAKEN]}  # told once
    assert refusal(club=one, published=True) == {"slug": [TAKEN]}
    # a private tournament keeps a slug published after it (not chosen now): refused only
    # when it is published in turn
    kept = Tournament.objects.create(name="K", slug="cup", organizer=users["b"], club=two)
    kept.name = "Renamed"
    kept.full_clean()
    kept.published = True
    with pytest.raises(ValidationError) as refused_publishing:
        kept.full_clean()
    assert refused_publishing.value.message_dict == {"slug": [TAKEN]}
    kept.delete()
    Tournament.objects.create(name="Lone", slug="lone", organizer=users["a"])
    lone = Tournament(name="Y", slug="lone", organizer=users["b"])
    with pytest.raises(ValidationError) as refused:
        lone.full_clean()
    assert refused.value.message_dict == {"slug": ["the address 'lone' is taken: choose another"]}
    # and the database holds them without the model's check
    for fields in ({"club": one}, {"club": two, "published": True}, {"slug": "lone"}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Tournament.objects.create(name="Z", organizer=users["b"], **{"slug": "cup", **fields})
    Tournament.objects.create(name="Z", slug="cup", organizer=users["b"], club=two)


@pytest.mark.django_db
def test_a_name_s_slug_counts_published_tournaments_and_the_club_s_own_alone() -> None:
    users = _people("a", "b")
    one, two = _club(users["a"], "One"), _club(users["b"], "Two")
    first = services.tournament_create(actor=users["a"], club=one, name="Friday night")
    assert first.slug == "friday-night"
    theirs = services.tournament_create(actor=users["b"], club=two, name="Friday night")
    assert theirs.slug == "friday-night"  # not "-2": club one's is private
    assert services.unique_slug("Friday night", club=one) == "friday-night-2"
    assert not slug_held("friday-night", club_id=one.pk, tournament_id=first.pk)  # itself
    services.tournament_update(actor=users["b"], tournament=theirs, published=True)
    third = services.tournament_create(
        actor=users["a"], club=_club(users["a"], "Three"), name="Friday night"
    )
    assert third.slug == "friday-night-2"  # a published one's: the site's
    with pytest.raises(CompetitionRefused) as refused:  # publishing club one's at it
        services.tournament_update(actor=users["a"], tournament=first, published=True)
    assert refused.value.code == "bad_tournament" and "is taken" in str(refused.value)
    assert Tournament.objects.get(pk=first.pk).published is False


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("race", ["make", "publish"])
def test_two_creators_racing_for_one_slug_one_is_refused_in_words(race: str) -> None:
    users = _people("a", "b")
    one, two = _club(users["a"], "One"), _club(users["b"], "Two")
    if race == "make":  # two directors of one club make "cup" at once
        two.directors.add(users["a"])
        jobs: list[Any] = [
            lambda u=u: services.tournament_create(actor=users[u], club=two, name="C", slug="cup")
            for u in ("a", "b")
        ]
    else:  # two clubs publish their private "cup" at once
        mine = services.tournament_create(actor=users["a"], club=one, name="C", slug="cup")
        theirs = services.tournament_create(actor=users["b"], club=two, name="C", slug="cup")
        jobs = [
            lambda: services.tournament_update(actor=users["a"], tournament=mine, published=True),
            lambda: services.tournament_update(actor=users["b"], tournament=theirs, published=True),
        ]
    barrier = threading.Barrier(2)
    save = evenings._save

    def held_save(tournament: Tournament) -> None:  # both checked, then both save at once
        # Two makers in one club never get there together: each holds the club's row from
        # its quota's count on (tournaments.quotas), so the second checks after the first
        # committed, and is refused by the check. Two clubs publishing do meet here.
        if race == "publish":
            barrier.wait(10)
        save(tournament)

    outcomes: list[Any] = []

    def run(job: Any) -> None:
        try:
            job()
            outcomes.append("done")
        except BaseException as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    evenings._save = held_save  # type: ignore[assignment]
    try:
        threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    finally:
        evenings._save = save  # type: ignore[assignment]
    refusals = [o for o in outcomes if o != "done"]
    assert outcomes.count("done") == 1 and len(refusals) == 1, outcomes
    if race == "make":  # the second maker is refused by the check, as one after the first is
        assert isinstance(refusals[0], InvalidSettings)
    else:
        assert isinstance(refusals[0], NotNow) and refusals[0].code == "slug_taken"
    assert str(refusals[0]) == TAKEN
    if race == "make":
        assert Tournament.objects.filter(slug="cup", club=two).count() == 1
    else:
        assert Tournament.objects.filter(slug="cup", published=True).count() == 1
        assert Tournament.objects.filter(slug="cup").count() == 2
