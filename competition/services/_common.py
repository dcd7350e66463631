"""What the service modules share: the director check, notices, the standings task."""

from __future__ import annotations

import logging
from typing import Any, TypeVar

from django.db.models import Manager, Model, QuerySet

from tournaments.access import is_director
from tournaments.models import Tournament

from ..errors import NotNow, NotPermitted
from ..models import Fixture, Notice, Stage

log = logging.getLogger(__name__)


_M = TypeVar("_M", bound=Model)


def require_director(actor: Any, tournament: Tournament) -> None:
    if not is_director(actor, tournament):
        raise NotPermitted("only a director of this tournament may do this", code="forbidden")


def notice(stage: Stage, fixture: Fixture | None, code: str, message: str) -> None:
    """Tell the stage's directors something (once while it is unresolved)."""
    Notice.objects.get_or_create(
        stage=stage, fixture=fixture, code=code, message=message, resolved_at__isnull=True
    )


def schedule_standings(stage_id: int) -> None:
    """Send the standings task of a stage (after a commit: ``transaction.on_commit``).

    A failure to send it, or of the task itself where tasks run in-process (the embedded
    default, with no broker), is logged and goes no further: what was committed stays
    committed and its request answers as it did. The standings catch up with the next
    result, publish or start, and with a broker the beat's ``competition.tasks.catch_up``
    recomputes every running stage's standings every ``SCORING_CATCH_UP_SECONDS``.
    """
    from ..tasks import update_standings

    try:
        update_standings.delay(stage_id)
    except Exception:
        log.exception("the standings of stage %s were not brought up to date", stage_id)


def locked_or_gone(queryset: QuerySet[_M] | Manager[_M], pk: int, what: str) -> _M:
    """Return the row ``pk`` of ``queryset`` locked for update, or refuse: it was removed
    meanwhile (a draft discarded, a stage removed, by another director at the same moment)."""
    row = queryset.select_for_update().filter(pk=pk).first()
    if row is None:
        raise NotNow(f"{what} is no longer there: reload the page", code="gone")
    return row
