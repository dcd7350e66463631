"""Bad input gets a refusal of the project's own kind, with a stable code, and writes nothing."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.access import SYSTEM
from tournaments.errors import AppendRefused, CommandRefused, MatchNotFound, StoreUnavailable
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event


def head(match: Match) -> tuple[int, int]:
    match.refresh_from_db()
    return match.last_seq, MatchEvent.objects.filter(match=match).count()


def send(match: Any, **request: Any) -> Any:
    request = {"expected_seq": 0, "kind": "match_started", "payload": {}, "actor": SYSTEM,
               **request}  # fmt: skip
    return match_append_event(match=match, **request)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "key",
    ["nul\x00key", "lone\ud800surrogate", "with space", "é-accent", "tab\tkey", "", "k" * 201, 7],
    ids=["nul", "surrogate", "space", "non-ascii", "tab", "empty", "too-long", "not-text"],
)
def test_an_idempotency_key_of_anything_but_printable_ascii_is_refused(
    world: Any, key: Any
) -> None:
    match = world.digital_match
    with pytest.raises(CommandRefused) as refused:
        send(match, idempotency_key=key)
    assert refused.value.code == "bad_idempotency_key"
    assert head(match) == (0, 0)


class NotJSON:
    pass


@pytest.mark.django_db
@pytest.mark.parametrize(
    "payload",
    [
        {"first_dealer": {1, 2}},
        {"first_dealer": NotJSON()},
        {"first_dealer": b"1"},
        {"first_dealer": float("nan")},
        {"first_dealer": float("inf")},
        {"first_dealer": "nul\x00"},
        {"first_dealer": "lone\udfff"},
        {1: "a key that is not text"},
        {"deep": [[[[[[[[[[[["too deep"]]]]]]]]]]]]},
        {"wide": list(range(5000))},
        {"long": "x" * 5000},
    ],
    ids=[
        "set",
        "object",
        "bytes",
        "nan",
        "inf",
        "nul",
        "surrogate",
        "int-key",
        "deep",
        "wide",
        "long",
    ],
)
def test_a_payload_that_is_not_plain_json_is_refused(world: Any, payload: Any) -> None:
    match = world.digital_match
    with pytest.raises(CommandRefused) as refused:
        send(match, payload=payload)
    assert refused.value.code == "bad_payload"
    assert head(match) == (0, 0)


@pytest.mark.django_db
@pytest.mark.parametrize("expected_seq", [True, False, 0.0, 2.0, "0", None, -1, [0]])
def test_only_a_whole_number_is_a_seq(world: Any, expected_seq: Any) -> None:
    match = world.digital_match
    with pytest.raises(CommandRefused) as refused:
        send(match, expected_seq=expected_seq)
    assert refused.value.code == "bad_expected_seq"
    assert head(match) == (0, 0)


@pytest.mark.django_db
@pytest.mark.parametrize("match_id", [999_999, 0, -3, "1", 1.0, True, None, [1]])
def test_an_unknown_or_malformed_match_id_is_refused_as_not_found(
    world: Any, match_id: Any
) -> None:
    with pytest.raises(MatchNotFound) as refused:
        send(match_id)
    assert refused.value.code == "match_not_found"
    assert MatchEvent.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("kind", [None, 7, ["match_started"], {"kind": 1}, "deal_started"])
def test_a_kind_that_is_not_a_command_is_refused(world: Any, kind: Any) -> None:
    with pytest.raises(CommandRefused) as refused:
        send(world.digital_match, kind=kind)
    assert refused.value.code == "kind_not_appendable"


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


@pytest.mark.django_db
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.sampled_from(["match_started", "move_played", "deal_ended"]) | st.text(max_size=12),
    payload=JSONISH,
    expected_seq=st.integers(-2, 4) | st.floats() | st.booleans() | st.none(),
    key=st.none() | st.text(max_size=12),
)
def test_whatever_a_client_sends_it_is_written_or_refused_in_the_projects_own_words(
    world: Any, kind: Any, payload: Any, expected_seq: Any, key: Any
) -> None:
    match = world.score_match
    before = head(match)
    try:
        with transaction.atomic():
            match_append_event(match=match, expected_seq=expected_seq, kind=kind,
                               payload=payload, actor=world.scorekeeper,
                               idempotency_key=key)  # fmt: skip
            transaction.set_rollback(True)  # keep the match where it was for the next example
    except AppendRefused as refused:
        assert refused.code and isinstance(refused.message, str)
        assert head(match) == before


# --- a statement timeout (PostgreSQL) -----------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_append_that_times_out_is_refused_as_unavailable_and_writes_nothing(
    world: Any,
) -> None:
    match = world.digital_match
    locked, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_lock, daemon=True)
    holder.start()
    assert locked.wait(10)
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 200")
    try:
        began = time.monotonic()
        with pytest.raises(StoreUnavailable) as refused:
            send(match, actor=world.organizer)
        assert time.monotonic() - began < 5
        assert refused.value.code == "store_unavailable"
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET statement_timeout = 0")
        release.set()
        holder.join(10)
    assert head(match) == (0, 0)
