"""A match's events can be appended, never changed or removed: the database itself refuses.

Each refusal is checked twice: the attempt raises, and the row reads back unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from tournaments.models import Match, MatchEvent, Player, Team, Tournament

REFUSED = "match events are append-only"


def add_event(match: Match, seq: int, **fields: Any) -> MatchEvent:
    """Append an event with the ORM (the append service is tested on its own)."""
    fields.setdefault("kind", MatchEvent.Kind.MATCH_STARTED if seq == 1 else "move_played")
    fields.setdefault("payload", {"first_dealer": 0, "mode": match.mode})
    fields.setdefault("hash", f"{seq:064x}")
    return MatchEvent.objects.create(match=match, seq=seq, **fields)


def row(event: MatchEvent) -> dict[str, Any]:
    """Return the event's row as the database holds it now."""
    return MatchEvent.objects.filter(pk=event.pk).values().get()


@pytest.fixture
def event(world: Any) -> MatchEvent:
    return add_event(world.digital_match, 1, actor=world.organizer, idempotency_key="k-1")


@pytest.mark.django_db
class TestTheOrmCannotRewriteHistory:
    def test_saving_a_changed_event_is_refused(self, event: MatchEvent) -> None:
        before = row(event)
        event.payload = {"first_dealer": 3, "mode": "digital"}
        with pytest.raises(IntegrityError, match=REFUSED), transaction.atomic():
            event.save()
        assert row(event) == before

    def test_deleting_an_event_is_refused(self, event: MatchEvent) -> None:
        before = row(event)
        with pytest.raises(IntegrityError, match=REFUSED), transaction.atomic():
            event.delete()
        assert row(event) == before

    def test_a_queryset_update_is_refused(self, event: MatchEvent) -> None:
        before = row(event)
        with pytest.raises(IntegrityError, match=REFUSED), transaction.atomic():
            MatchEvent.objects.filter(pk=event.pk).update(kind=MatchEvent.Kind.MATCH_ENDED)
        assert row(event) == before

    def test_a_bulk_update_is_refused(self, event: MatchEvent) -> None:
        before = row(event)
        event.hash = "0" * 64
        with pytest.raises(IntegrityError, match=REFUSED), transaction.atomic():
            MatchEvent.objects.bulk_update([event], ["hash"])
        assert row(event) == before

    def test_a_queryset_delete_is_refused(self, world: Any, event: MatchEvent) -> None:
        second = add_event(world.score_match, 1)
        with pytest.raises(IntegrityError, match=REFUSED), transaction.atomic():
            MatchEvent.objects.all().delete()
        assert MatchEvent.objects.filter(pk__in=[event.pk, second.pk]).count() == 2

    def test_appending_still_works_after_a_refusal(self, world: Any, event: MatchEvent) -> None:
        with pytest.raises(IntegrityError), transaction.atomic():
            MatchEvent.objects.filter(pk=event.pk).delete()
        add_event(world.digital_match, 2, caused_by=1)
        assert list(world.digital_match.events.values_list("seq", flat=True)) == [1, 2]


@pytest.mark.django_db
class TestRawSqlCannotRewriteHistory:
    def test_an_sql_update_is_refused(self, event: MatchEvent) -> None:
        before = row(event)
        with (
            pytest.raises(IntegrityError, match=REFUSED),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute("UPDATE tournaments_matchevent SET payload = '{}'")
        assert row(event) == before

    def test_an_sql_delete_is_refused(self, event: MatchEvent) -> None:
        before = row(event)
        with (
            pytest.raises(IntegrityError, match=REFUSED),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute("DELETE FROM tournaments_matchevent WHERE id = %s", [event.pk])
        assert row(event) == before

    @pytest.mark.postgres
    def test_truncate_is_refused_on_postgresql(self, event: MatchEvent) -> None:
        before = row(event)
        with connection.cursor() as cursor:
            # The test's own transaction holds deferred foreign-key checks from the insert,
            # and PostgreSQL truncates no table with pending trigger events.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        with (
            pytest.raises(IntegrityError, match=REFUSED),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute("TRUNCATE tournaments_matchevent")
        assert row(event) == before

    @pytest.mark.postgres
    def test_the_postgresql_error_names_the_operation_and_has_its_own_sqlstate(
        self, event: MatchEvent
    ) -> None:
        with (
            pytest.raises(IntegrityError) as refused,
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute("DELETE FROM tournaments_matchevent")
        assert "DELETE on tournaments_matchevent is refused" in str(refused.value)
        assert refused.value.__cause__.sqlstate == "23SE1"


@pytest.fixture
def staff_client(client: Any, django_user_model: Any) -> Any:
    admin = django_user_model.objects.create_superuser("director")
    client.force_login(admin)
    return client


@pytest.mark.django_db
class TestTheAdminCannotRewriteHistory:
    def test_posting_to_the_change_view_is_forbidden(
        self, staff_client: Any, event: MatchEvent
    ) -> None:
        before = row(event)
        response = staff_client.post(
            f"/admin/tournaments/matchevent/{event.pk}/change/",
            {"kind": "match_ended", "payload": "{}", "seq": "7", "hash": "0" * 64},
        )
        assert response.status_code == 403
        assert row(event) == before

    def test_the_delete_view_is_forbidden(self, staff_client: Any, event: MatchEvent) -> None:
        url = f"/admin/tournaments/matchevent/{event.pk}/delete/"
        assert staff_client.get(url).status_code == 403
        before = row(event)
        assert staff_client.post(url, {"post": "yes"}).status_code == 403
        assert row(event) == before

    def test_the_bulk_delete_action_deletes_nothing(
        self, staff_client: Any, event: MatchEvent
    ) -> None:
        before = row(event)
        staff_client.post(
            "/admin/tournaments/matchevent/",
            {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
        )
        assert row(event) == before

    def test_the_add_view_is_forbidden(self, staff_client: Any, world: Any) -> None:
        response = staff_client.post(
            "/admin/tournaments/matchevent/add/",
            {"match": world.digital_match.pk, "seq": "1", "kind": "match_started"},
        )
        assert response.status_code == 403
        assert not MatchEvent.objects.exists()

    def test_the_list_shows_events_by_match_and_seq_without_payloads(
        self, staff_client: Any, world: Any
    ) -> None:
        add_event(world.digital_match, 1, payload={"deck": ["SECRET-DECK-MARKER"]})
        response = staff_client.get("/admin/tournaments/matchevent/")
        assert response.status_code == 200
        assert b"match_started" in response.content or b"match started" in response.content
        assert b"SECRET-DECK-MARKER" not in response.content
        assert b"/admin/tournaments/matchevent/add/" not in response.content

    def test_snapshots_are_read_only_too(self, staff_client: Any, world: Any) -> None:
        from tournaments.models import MatchSnapshot

        snapshot = MatchSnapshot.objects.create(
            match=world.digital_match, seq=1, state={"hands": ["SECRET-HAND-MARKER"]}
        )
        base = f"/admin/tournaments/matchsnapshot/{snapshot.pk}"
        assert staff_client.post(f"{base}/change/", {"seq": "9"}).status_code == 403
        assert staff_client.post(f"{base}/delete/", {"post": "yes"}).status_code == 403
        page = staff_client.get(f"{base}/change/")
        assert page.status_code == 200
        assert b"SECRET-HAND-MARKER" not in page.content
        snapshot.refresh_from_db()
        assert snapshot.seq == 1


# --- Transactional tests: they end with Django's flush, which must get past the triggers ---


def build_match(name: str) -> Match:
    """Return a fresh match in a fresh tournament (for tests that run after a flush)."""
    from django.contrib.auth import get_user_model

    organizer = get_user_model().objects.create_user(f"organizer-{name}")
    tournament = Tournament.objects.create(name=name, slug=name, organizer=organizer)
    players = [Player.objects.create(name=f"{name} {n}") for n in range(4)]
    teams = [
        Team.objects.create(
            tournament=tournament,
            name=f"T{i}",
            first_player=players[i],
            second_player=players[i + 2],
        )
        for i in range(2)
    ]
    return Match.objects.create(
        tournament=tournament,
        team0=teams[0],
        team1=teams[1],
        mode=Match.Mode.TABLE,
        rules=tournament.rules,
        match_format=tournament.match_format,
    )


@pytest.mark.django_db(transaction=True)
def test_a_refusal_outside_any_transaction_leaves_the_row_as_it_was() -> None:
    event = add_event(build_match("autocommit"), 1)
    before = row(event)
    with pytest.raises(IntegrityError, match=REFUSED):
        MatchEvent.objects.filter(pk=event.pk).update(seq=5)
    with pytest.raises(IntegrityError, match=REFUSED):
        event.delete()
    assert row(event) == before
    # The test ends with events in the table: its teardown flush must still succeed.


@pytest.mark.django_db(transaction=True)
def test_the_test_suites_flush_empties_the_log_and_leaves_the_triggers_in_place() -> None:
    add_event(build_match("before-flush"), 1)
    call_command("flush", interactive=False, verbosity=0)
    assert not MatchEvent.objects.exists()

    event = add_event(build_match("after-flush"), 1)
    before = row(event)
    with pytest.raises(IntegrityError, match=REFUSED):
        MatchEvent.objects.filter(pk=event.pk).update(kind=MatchEvent.Kind.MATCH_ENDED)
    with pytest.raises(IntegrityError, match=REFUSED):
        MatchEvent.objects.filter(pk=event.pk).delete()
    assert row(event) == before
