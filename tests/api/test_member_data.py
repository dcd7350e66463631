"""A member's data over the API: ``GET /members/{id}/export/`` and ``POST /members/{id}/erase/``
for the club's directors and the member themself; everyone else refused as a problem."""

from __future__ import annotations

import pytest

from api.models import Webhook, WebhookDelivery
from competition.models import Notice, Stage
from tournaments.models import Erasure, Happening, Player, Team

from .conftest import Clubs
from .test_people import problem

pytestmark = pytest.mark.django_db


def urls(member: Player) -> tuple[str, str]:
    return f"/api/v1/members/{member.pk}/export/", f"/api/v1/members/{member.pk}/erase/"


def test_a_director_exports_and_erases_a_member(scene: Clubs) -> None:
    bina = scene.members["bina"]
    export, erase = urls(bina)
    asha = scene.client("asha")
    data = asha.get(export).json()
    assert (data["member"]["name"], data["member"]["contact"]) == ("Bina", "bina@x")
    answer = asha.post(erase)
    assert answer.status_code == 200, answer.content
    label = f"Erased member {bina.pk}"
    assert answer.json()["label"] == label and answer.json()["by_member"] is False
    assert asha.get(f"/api/v1/members/{bina.pk}/").json()["name"] == label
    roster = asha.get(f"/api/v1/clubs/{scene.one.pk}/members/").content.decode()
    assert "Bina" not in roster and "bina@x" not in roster
    problem(asha.post(erase), 422, "already_erased")
    assert Erasure.objects.get().asked_by == scene.users["asha"]


def test_a_member_exports_and_erases_their_own_data_only(scene: Clubs) -> None:
    dev = scene.client("dev")
    export, erase = urls(scene.members["dev"])
    assert dev.get(export).json()["member"]["account"] == "dev"
    for other in (scene.members["bina"], scene.members["chetan"]):
        problem(dev.get(urls(other)[0]), 403, "forbidden")
        problem(dev.post(urls(other)[1]), 403, "forbidden")
    assert dev.post(erase).json()["by_member"] is True
    stored = Player.objects.get(pk=scene.members["dev"].pk)
    assert (stored.name, stored.user_id) == (f"Erased member {stored.pk}", None)


def test_nobody_else_reaches_a_members_data(scene: Clubs) -> None:
    export, erase = urls(scene.members["bina"])
    problem(scene.client().get(export), 401, "not_authenticated")
    problem(scene.client().post(erase), 401, "not_authenticated")
    for caller in (scene.client("ravi"), scene.client("stranger"), scene.client(token="two_write")):
        problem(caller.get(export), 404, "not_found")
        problem(caller.post(erase), 404, "not_found")
    problem(scene.client(token="cup_write").post(erase), 403, "token_scope")
    problem(scene.client(token="club_read").post(erase), 403, "token_read_only")
    assert scene.client(token="club_read").get(export).status_code == 200
    assert not Erasure.objects.exists()
    assert Player.objects.get(pk=scene.members["bina"].pk).name == "Bina"


def test_what_was_stored_with_the_name_is_rewritten_and_nothing_else(scene: Clubs) -> None:
    bina, chetan = scene.members["bina"], scene.members["chetan"]
    Team.objects.create(
        tournament=scene.cup, name="Bina & Chetan", first_player=bina, second_player=chetan
    )
    hook = Webhook.objects.create(
        tournament=scene.cup, url="https://example.org/", secret="s", created_by=scene.users["asha"]
    )
    body = {"sides": [{"id": 1, "name": "Bina & Chetan"}, {"id": 2, "name": "Binary"}]}
    delivery = WebhookDelivery.objects.create(webhook=hook, kind="match.completed", body=body)
    entry = Happening.objects.create(tournament=scene.cup, seq=1, kind="x", body=body)
    stage = Stage.objects.create(
        tournament=scene.cup, order=1, name="Swiss", format="swiss", match_format={}
    )
    notice = Notice.objects.create(stage=stage, code="x", message="Bina & Chetan moved on")
    scene.client("asha").post(f"/api/v1/members/{bina.pk}/erase/")
    label = f"Erased member {bina.pk}"
    scrubbed = {"sides": [{"id": 1, "name": f"{label} & Chetan"}, {"id": 2, "name": "Binary"}]}
    for row in (delivery, entry):
        row.refresh_from_db()
        assert row.body == scrubbed
    notice.refresh_from_db()
    assert notice.message == f"{label} & Chetan moved on"
