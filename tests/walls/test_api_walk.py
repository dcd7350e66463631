"""Every API operation, called by club A's director (signed in, then with A's club token)
with the ids of club B's rows, answers the not-found problem and writes nothing.

The operations are read from the OpenAPI schema (and the two streams from the URL
resolver), so a new endpoint is walked without a line here: its path's first segment says
whose id it takes (``KINDS``), and a collection's write that names another row in its body
needs one here (``CROSS``), or the walk fails saying so.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from .conftest import MARK, Side, Walls, changed, snapshot

pytestmark = pytest.mark.django_db

#: the row of a club whose id each path's first segment takes
KINDS: dict[str, str] = {
    "tournaments": "tournament",
    "teams": "team",
    "stages": "stage",
    "rounds": "round",
    "matches": "match",
    "notices": "notice",
    "clubs": "club",
    "members": "member",
    "seasons": "season",
    "tokens": "token",
    "webhooks": "webhook",
}

#: the API's streams: not in the schema (text/event-stream), resolved like any path
STREAMS = [
    ("get", "/api/v1/matches/{id}/stream/"),
    ("get", "/api/v1/tournaments/{id}/results/stream/"),
]


#: a body well formed for the operations that read its shape before the row, by design: a
#: malformed body is refused alike whether the row exists or not (the append's hot path)
SHAPED: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/v1/matches/{id}/events/"): {
        "expected_seq": 1,
        "kind": "deal_entered",
        "payload": {"points": [10, 0], "sweeps": [[], []]},
    },
}


def row_id(side: Side, kind: str) -> int:
    """Return the id of ``side``'s row of this kind."""
    row = getattr(side, kind, None)
    assert row is not None, f"no {kind} in the walls' world: add one to tests/walls/conftest.py"
    return int(row.pk)


@functools.cache
def operations() -> list[tuple[str, str]]:
    """Return every operation of the schema, as (method, path template)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = [(method, path) for path, ops in schema["paths"].items() for method in ops]
    return sorted(found) + STREAMS


def on_one_row() -> list[tuple[str, str]]:
    return [(m, p) for m, p in operations() if "{id}" in p]


def on_collections() -> list[tuple[str, str]]:
    return [(m, p) for m, p in operations() if "{id}" not in p and m != "get"]


def call(client: Any, method: str, path: str, body: Any = None) -> Any:
    if method in ("get", "delete"):
        return getattr(client, method)(path)
    return getattr(client, method)(path, body if body is not None else {}, format="json")


def not_found(response: Any) -> bool:
    """Whether ``response`` is the API's not-found problem, and shows nothing of club B."""
    return (
        response.status_code == 404
        and response["Content-Type"].startswith("application/problem+json")
        and response.json()["code"] == "not_found"
        and MARK.encode() not in response.content
    )


@pytest.mark.parametrize("token", [False, True], ids=["signed-in", "club-token"])
def test_every_operation_on_a_row_of_another_club_is_not_found(walls: Walls, token: bool) -> None:
    client = walls.api(token=token)
    before = snapshot()
    walked, leaks = 0, []
    for method, template in on_one_row():
        kind = KINDS.get(template.split("/")[3])
        assert kind is not None, f"{template}: say whose id it takes in KINDS"
        path = template.replace("{id}", str(row_id(walls.b, kind)))
        response = call(client, method, path, SHAPED.get((method, template)))
        if not not_found(response):
            leaks.append((method.upper(), path, response.status_code, response.content[:200]))
        walked += 1
    assert leaks == []
    assert walked > 60
    assert changed(before, snapshot()) == []


def cross(walls: Walls) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """The writes of club A that name a row of club B in their body, each as A may send it."""
    a, b = walls.a, walls.b
    players = [{"member": b.teams[0].first_player_id}, {"member": b.teams[0].second_player_id}]
    return {
        ("post", "/api/v1/tokens/"): [
            {"name": "walls", "club": b.club.pk, "write": True},
            {"name": "walls", "tournament": b.tournament.pk, "write": True},
        ],
        ("post", "/api/v1/webhooks/"): [
            {"tournament": b.tournament.pk, "url": "https://x.example.com/", "kinds": ["*"]},
        ],
        ("post", "/api/v1/tournaments/"): [
            {"name": "Walls", "slug": "walls", "club": b.club.pk},
        ],
        ("post", "/api/v1/clubs/"): [],  # a new club of one's own names no other row
        # and the writes on A's own rows that can name one of B's
        ("patch", f"/api/v1/tournaments/{a.tournament.pk}/"): [{"club": b.club.pk}],
        ("post", f"/api/v1/tournaments/{a.tournament.pk}/teams/"): [
            {"name": "Walls", "players": players},
        ],
        ("post", f"/api/v1/teams/{a.teams[1].pk}/token/"): [
            {"player": b.teams[0].first_player_id},
        ],
    }


@pytest.mark.parametrize("token", [False, True], ids=["signed-in", "club-token"])
def test_a_write_naming_a_row_of_another_club_is_refused(walls: Walls, token: bool) -> None:
    client = walls.api(token=token)
    bodies = cross(walls)
    for operation in on_collections():
        assert operation in bodies, f"{operation}: say in CROSS what it may name of club B"
    before = snapshot()
    leaks = []
    for (method, path), sent in bodies.items():
        for body in sent:
            response = call(client, method, path, body)
            if response.status_code not in (400, 403, 404, 422) or MARK in response.text:
                leaks.append((method.upper(), path, body, response.content[:200]))
    assert leaks == []
    assert changed(before, snapshot()) == []


@pytest.mark.parametrize("token", [False, True], ids=["signed-in", "club-token"])
def test_no_list_shows_a_row_of_another_club(walls: Walls, token: bool) -> None:
    client = walls.api(token=token)
    a, b = walls.a, walls.b
    leaks = []
    for method, template in operations():
        if method != "get" or template.endswith("/stream/"):
            continue
        kind = KINDS.get(template.split("/")[3]) if "{id}" in template else None
        path = template.replace("{id}", str(row_id(a, kind))) if kind else template
        for query in ("", f"?tournament={b.tournament.pk}", f"?club={b.club.pk}"):
            response = client.get(path + query)
            if MARK in response.text:
                leaks.append((path + query, response.content[:300]))
    assert leaks == []
