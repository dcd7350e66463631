"""An erasure on the demo club (``seed_demo`` and ``seed_demo_seasons``): afterwards the member's
name and contact are on no page, in no API answer, no other member's export and no log line;
every match log, chain and receipt still verifies, the projections rebuild to what they were,
and every other member's ratings are the same, before and after a rebuild of them."""

from __future__ import annotations

import json
import logging
import re
from collections import deque
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from competition.models import Round, Stage
from seasons.privacy import erase_member, export_member
from tournaments import clubs, receipts
from tournaments.models import Club, Match, Player, Team, Tournament

from .conftest import ratings_of

NAME, CONTACT = "Chitra", "chitra.erasure@example.org"
#: a page's links to follow (not the sign-out, and nothing that changes anything on a GET)
HREF = re.compile(r'href="(/[^"#?]*)')
API_URL = re.compile(r'"(?:http://testserver)?(/api/v1/[^"?#]*)"')


def named(text: str) -> bool:
    """Whether ``text`` names the member, in any case: "chitra", her user name, too."""
    return NAME.casefold() in text.casefold()


def crawl(client: Client, starts: list[str], limit: int = 600) -> dict[str, str]:
    """Every page (and API answer) reached from ``starts`` by the links in them: url: body."""
    seen: dict[str, str] = {}
    todo = deque(starts)
    while todo and len(seen) < limit:
        url = todo.popleft()
        if url in seen or "logout" in url or url.startswith("/static/"):
            continue
        response = client.get(url)
        assert response.status_code < 500, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        seen[url] = text = body.decode(errors="replace")
        if response.status_code == 200 and not url.endswith(("/stream/", "/events/stream/")):
            todo.extend(HREF.findall(text) + API_URL.findall(text))
    return seen


def api_urls() -> list[str]:
    """The API's answers about the demo: tournaments, teams, matches, standings, results
    logs, clubs, members, ratings."""
    urls = ["/api/v1/", "/api/v1/tournaments/", "/api/v1/clubs/"]
    for t in Tournament.objects.all():
        urls += [f"/api/v1/tournaments/{t.pk}/{p}" for p in ("", "teams/", "stages/", "results/")]
        urls += [f"/api/v1/tournaments/{t.pk}/{p}" for p in ("notices/", "disputes/")]
    for stage in Stage.objects.all():
        urls += [f"/api/v1/stages/{stage.pk}/{p}" for p in ("", "rounds/", "standings/")]
        urls.append(f"/api/v1/stages/{stage.pk}/bracket/")
    urls += [f"/api/v1/rounds/{r.pk}/" for r in Round.objects.all()]
    for m in Match.objects.all():
        urls += [f"/api/v1/matches/{m.pk}/{p}" for p in ("", "deals/", "history/", "events/")]
        urls.append(f"/api/v1/matches/{m.pk}/state/")
    for club in Club.objects.all():
        urls += [f"/api/v1/clubs/{club.pk}/{p}" for p in ("", "members/", "ratings/", "seasons/")]
    for member in Player.objects.all():
        urls += [f"/api/v1/members/{member.pk}/", f"/api/v1/members/{member.pk}/rating/"]
    return urls


def page_urls(club: Club) -> list[str]:
    urls = ["/", f"/c/{club.slug}/", f"/clubs/{club.slug}/members/", "/desk/"]
    for t in Tournament.objects.all():
        urls += [f"/t/{t.slug}/{p}" for p in ("", "live/", "print/", "wall/", "wall/live/")]
        urls += [f"/desk/{t.slug}/", f"/desk/{t.slug}/board/", f"/desk/{t.slug}/board/live/"]
    for m in Match.objects.all():
        urls += [f"/m/{m.pk}/", f"/m/{m.pk}/live/"]
    for member in Player.objects.all():
        urls += [f"/c/{club.slug}/m/{member.pk}/", f"/clubs/{club.slug}/members/{member.pk}/"]
    return urls


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the demo commits, its projections run then
def test_an_erased_demo_member_is_named_nowhere_and_everything_still_verifies(
    settings: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture, small_demo: None
) -> None:
    settings.DEBUG = True
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo_seasons", stdout=StringIO())
    club = Club.objects.get()
    director = club.directors.get()
    member = Player.objects.get(club=club, name=NAME)
    clubs.member_update(actor=director, member=member, contact=CONTACT)
    assert Team.objects.filter(name__contains=NAME).exists()  # "Asha & Chitra"
    handed_out = tmp_path / "receipts.json"
    out = StringIO()
    call_command("export_receipts", stdout=out)
    handed_out.write_text(out.getvalue())
    others = Player.objects.filter(club=club).exclude(pk=member.pk)

    def ratings_of_others() -> Any:
        rated, changes = ratings_of(club)
        return (
            [row for row in rated if row[0] != member.pk],
            [row for row in changes if row[1] != member.pk],
        )

    before = ratings_of_others()
    seen_before = crawl(Client(), [f"/t/{t.slug}/" for t in Tournament.objects.all()], 50)
    assert any(named(body) for body in seen_before.values())  # the check below can fail

    with caplog.at_level(logging.DEBUG):
        erase_member(actor=director, member=member)
        as_director = Client()
        as_director.force_login(director)
        shown = crawl(as_director, page_urls(club) + api_urls())
        shown |= {f"anonymous {u}": b for u, b in crawl(Client(), page_urls(club)).items()}
        exports = [json.dumps(export_member(other), ensure_ascii=False) for other in others]
    assert len(shown) > 200
    for where, body in shown.items():
        assert not named(body) and CONTACT not in body, where
    assert not [e for e in exports if named(e) or CONTACT in e]
    assert any(f"Erased member {member.pk}" in e for e in exports)  # as their partner
    assert not [r.getMessage() for r in caplog.records if named(r.getMessage())]

    # the logs, their chains and every receipt, stored and handed out before, still verify
    call_command("verify_match", "--all", "--receipts", str(handed_out), stdout=StringIO())
    keys = receipts.trusted_public_keys()
    for receipt in receipts.read_receipts(handed_out):
        receipts.verify(receipt, keys)
    call_command("rebuild_projections", "--check", stdout=StringIO())
    assert ratings_of_others() == before  # the rebuild refolded every club's ratings too
