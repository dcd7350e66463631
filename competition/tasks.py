"""The competition's tasks: standings after results, and the catch-up for lost messages.

Like scoring's, every task takes ids and is safe to run twice, concurrently or late: the work
is claimed in the database (``standings.update_stage_standings`` locks its checkpoints,
``services.fixture_match_completed`` the stage's row).
"""

from __future__ import annotations

import logging

from celery import shared_task

from scoring.task_options import RELIABLE, RETRIED

from . import services, standings
from .models import Stage

log = logging.getLogger(__name__)


@shared_task(**RELIABLE, **RETRIED, soft_time_limit=50, time_limit=60)
def update_standings(stage_id: int) -> int:
    """Bring stage ``stage_id``'s standings up to its results; return the rows written."""
    return standings.update_stage_standings(stage_id=stage_id)


@shared_task(**RELIABLE, soft_time_limit=50, time_limit=60)
def catch_up() -> int:
    """Record completions whose message was lost, and refresh every running stage's standings.

    Returns how many completions it recorded. Run by Celery beat with scoring's catch-up.
    """
    missed = services.unrecorded_completions()
    for match_id in missed:
        services.fixture_match_completed(match_id=match_id)
    if missed:
        log.info("competition catch-up: %d completion(s) recorded late: %s", len(missed), missed)
    for stage_id in Stage.objects.filter(status=Stage.Status.RUNNING).values_list("pk", flat=True):
        update_standings.delay(stage_id)
    return len(missed)
