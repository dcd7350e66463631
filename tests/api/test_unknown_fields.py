"""docs/api.md: "a field the API does not know is an error". Every write operation of the
schema, sent its own body plus one field it does not know, by a caller who may make the
write, on a resource that exists, answers 400 problem+json ``invalid`` naming that field (a
write that takes no body: any field)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from api.models import ApiToken, Webhook
from competition.models import Notice, Round, Stage
from seasons.models import Season
from tournaments.models import Club, Match, Player, Team, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WRITES = ("post", "put", "patch", "delete")
UNKNOWN = "not_a_field_zz"


def write_operations() -> list[tuple[str, str]]:
    """Every (method, path) of the schema that writes, its deletes last (each is refused, but a
    delete that passed would leave the next write on its resource a 404)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = [
        (method, path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in WRITES
    ]
    return sorted(found, key=lambda op: op[0] == "delete")


def ids(organizer: Any) -> dict[str, int]:
    """A resource of each kind the demo's organizer may write, by its path's first part."""
    tournament = Tournament.objects.filter(organizer=organizer).order_by("id").first()
    club = Club.objects.filter(directors=organizer).order_by("id").first()
    assert tournament is not None and club is not None
    token, _ = ApiToken.objects.create(
        user=organizer, name="walked", expiry=None, tournament=tournament, write=True
    )
    webhook = Webhook.objects.create(
        tournament=tournament,
        url="https://example.com/hook",
        kinds=["deal.recorded"],
        secret="s" * 32,
        created_by=organizer,
    )
    stage = Stage.objects.filter(tournament=tournament).order_by("id").first()
    notice = Notice.objects.create(stage=stage, code="walked", message="a notice to resolve")
    found = {
        "tournaments": tournament.pk,
        "clubs": club.pk,
        "teams": Team.objects.filter(tournament=tournament).order_by("id").first(),
        "stages": stage,
        "rounds": Round.objects.filter(stage__tournament=tournament).order_by("id").first(),
        "matches": Match.objects.filter(tournament=tournament).order_by("id").first(),
        "members": Player.objects.filter(club=club).order_by("id").first(),
        "seasons": Season.objects.filter(club=club).order_by("id").first(),
        "notices": notice,
        "tokens": token.pk,
        "webhooks": webhook.pk,
    }
    return {k: v if isinstance(v, int) else getattr(v, "pk", 0) for k, v in found.items()}


def test_every_write_refuses_a_field_it_does_not_know(settings: Any) -> None:
    settings.DEBUG = True  # the demo is made only so
    call_command("seed_demo", "--if-empty", verbosity=0)
    call_command("seed_demo_seasons", "--if-empty", verbosity=0)
    from django.contrib.auth import get_user_model

    organizer = get_user_model().objects.get(username="organizer")
    client = Client()
    client.force_login(organizer)
    known = ids(organizer)
    missing = sorted(k for k, v in known.items() if not v)
    assert not missing, f"the demo has no {missing} to write"
    walked, accepted = [], []
    for method, path in write_operations():
        url = re.sub(r"/([a-z-]+)/\{id\}/", lambda m: f"/{m[1]}/{known[m[1]]}/", path)
        answer = getattr(client, method)(
            url, json.dumps({UNKNOWN: 1}), content_type="application/json"
        )
        body = answer.json() if answer.content else {}
        refused = (
            answer.status_code == 400
            and answer["Content-Type"] == "application/problem+json"
            and body["code"] == "invalid"
            and body.get("errors", {}).get(UNKNOWN) == ["not a field you may send"]
        )
        if not refused:
            accepted.append((method, path, answer.status_code, body.get("errors")))
        walked.append((method, path))
    assert not accepted, "\n".join(map(str, accepted))
    assert ("post", "/api/v1/teams/{id}/token/") in walked
