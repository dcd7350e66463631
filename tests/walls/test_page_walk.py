"""Every page with an id or a slug in its path, opened and posted to by club A's director
with club B's (its private evening, its club, its rows), answers 404 and writes nothing; and
so does every desk page of A's own evening or club given the id of one of B's rows.

The pages are read from the URL resolver, so a new page is walked without a line here: its
path says whose id each part takes (``SLUGS``, ``IDS``), or the walk fails saying so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from .conftest import MARK, Side, Walls, changed, snapshot

pytestmark = pytest.mark.django_db

#: the row a slug names, by the path's first segment
SLUGS = {"t": "tournament", "desk": "tournament", "clubs": "club", "c": "club"}

#: the row an id names, by the segment before it (a match's pages by their own first one)
IDS = {
    "teams": "team",
    "stages": "stage",
    "rounds": "round",
    "matches": "match",
    "notices": "notice",
    "members": "member",
    "m": "match",  # /m/<id>/: a match sheet; /c/<slug>/m/<id>/: a member (below)
    "seasons": "season",
    "keep": "match",
    "play": "match",
    "record": "match",
    "table": "match",
    "webhooks": "webhook",
    "tokens": "token",
    "clubs": "club",  # the operator's /operator/clubs/<id>/suspend/
}

#: what the other parts of a path take (none names a row)
OTHER = {"seq": "1", "kind": "standings", "command": "start"}

#: paths not walked, and why
NOT_WALKED = (
    "admin/",  # the admin scopes staff itself (docs/clubs.md, "In the admin"; its own tests)
    "api/",  # the API's walk (test_api_walk)
    "keep/icon-",  # the phone app's icons
    "<str:key>",  # a private link's key is the capability itself; knowing it is the way in
    # django-allauth's pages of the signed-in person's own rows (their addresses, passkeys,
    # sessions), which it reads through the request's user, never a club's
    "accounts/",
)


def patterns(resolver: URLResolver | None = None, prefix: str = "") -> Iterator[str]:
    """Yield every path of the site as its route (``desk/<slug:slug>/teams/<int:pk>/``)."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route


PART = re.compile(r"<(?:(\w+):)?(\w+)>")


def fill(route: str, slugs: Side, rows: Side) -> str:
    """Return ``route`` with its slug from ``slugs`` and its ids from ``rows``."""
    segments = route.split("/")
    out = []
    for n, segment in enumerate(segments):
        match = PART.fullmatch(segment)
        if match is None:
            out.append(segment)
            continue
        name = match.group(2)
        if name == "slug":
            kind = SLUGS[segments[0]]
            row = getattr(slugs, kind)
            out.append(row.slug)
        elif name in OTHER:
            out.append(OTHER[name])
        elif name != "pk":  # a part named for its row (share/<str:kind>/<int:stage>/)
            out.append(str(getattr(rows, name).pk))
        else:
            before = segments[n - 1] if n else ""
            kind = "member" if (before == "m" and segments[0] == "c") else IDS[before]
            out.append(str(getattr(rows, kind).pk))
    return "/" + "/".join(out)


def walked() -> list[str]:
    return [
        r for r in patterns() if "<" in r and not any(r.startswith(n) or n in r for n in NOT_WALKED)
    ]


def requests(walls: Walls) -> Iterator[tuple[str, str]]:
    """Yield each (method, path) to send: every page on club B's rows, and every page of A's
    own evening or club given the id of one of B's."""
    for route in walked():
        yield from ((m, fill(route, walls.b, walls.b)) for m in ("get", "post"))
        if "<slug:" in route and "<int:" in route:
            yield from ((m, fill(route, walls.a, walls.b)) for m in ("get", "post"))


def test_every_page_on_a_row_of_another_club_is_not_found(walls: Walls) -> None:
    client = walls.browser()
    before = snapshot()
    leaks: list[Any] = []
    sent = 0
    for method, path in requests(walls):
        response = getattr(client, method)(path)
        # 405: the page takes no such request, whatever the row (decided before it is read)
        if response.status_code not in (404, 405) or MARK.encode() in response.content:
            leaks.append((method.upper(), path, response.status_code))
        sent += 1
    print(*leaks, sep=chr(10))
    assert leaks == []
    assert sent > 100
    assert changed(before, snapshot()) == []


def test_no_page_of_ones_own_shows_a_row_of_another_club(walls: Walls) -> None:
    client = walls.browser()
    leaks = []
    for route in patterns():
        if any(route.startswith(n) or n in route for n in NOT_WALKED):
            continue
        path = fill(route, walls.a, walls.a) if "<" in route else "/" + route
        response = client.get(path)
        if MARK.encode() in response.content:
            leaks.append(path)
    assert leaks == []
