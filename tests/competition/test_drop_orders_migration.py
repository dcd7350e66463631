"""Migration 0005: the stages there before it keep the drop orders their brackets were drawn
with ("fewest_possible"), since a bracket is read again from its seeds; a stage made after it
is drawn with the measured table."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("competition", "0004_stage_review_draw")
AFTER = ("competition", "0005_stage_drop_orders")


def migrate(target: tuple[str, str] | None) -> Apps:
    """Migrate the test database's competition app to ``target`` (None: every app to its
    latest); return the models as they are there, the other apps' at their latest."""
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate([target] if target else latest)
    others = [node for node in latest if node[0] != "competition"]
    targets = [target, *others] if target else latest
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.fixture
def back_to_the_latest() -> Iterator[None]:
    yield
    migrate(None)


@pytest.mark.django_db(transaction=True)
def test_a_stage_from_before_keeps_the_old_drop_orders_and_a_new_one_takes_the_table(
    back_to_the_latest: None,
) -> None:
    old = migrate(BEFORE)
    organizer = old.get_model("auth", "User").objects.create(username="meena")
    cup = old.get_model("tournaments", "Tournament").objects.create(
        name="Cup", slug="cup", organizer=organizer
    )
    drawn = old.get_model("competition", "Stage").objects.create(
        tournament=cup, order=1, name="knockout", format="double_elimination",
        match_format={"bazzis": 1, "draws": False}, status="running",
    )  # fmt: skip
    new = migrate(AFTER)
    Stage = new.get_model("competition", "Stage")
    assert Stage.objects.get(pk=drawn.pk).drop_orders == "fewest_possible"
    later = Stage.objects.create(
        tournament_id=cup.pk, order=2, name="next", format="double_elimination",
        match_format={"bazzis": 1, "draws": False},
    )  # fmt: skip
    assert later.drop_orders == "measured"
