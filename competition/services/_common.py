"""What the service modules share: the director check, notices, the standings task."""

from __future__ import annotations

from typing import Any

from tournaments.access import is_director
from tournaments.models import Tournament

from ..errors import NotPermitted
from ..models import Fixture, Notice, Stage


def require_director(actor: Any, tournament: Tournament) -> None:
    if not is_director(actor, tournament):
        raise NotPermitted("only a director of this tournament may do this", code="forbidden")


def notice(stage: Stage, fixture: Fixture | None, code: str, message: str) -> None:
    """Tell the stage's directors something (once while it is unresolved)."""
    Notice.objects.get_or_create(
        stage=stage, fixture=fixture, code=code, message=message, resolved_at__isnull=True
    )


def schedule_standings(stage_id: int) -> None:
    from ..tasks import update_standings

    update_standings.delay(stage_id)
