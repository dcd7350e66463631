"""The seasons app's tasks: ratings and evenings after a result, and the catch-up.

Like scoring's, every task takes ids and is safe to run twice, concurrently or late: the work
is claimed in the database (the club's ``RatingCheckpoint`` row is locked first).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from competition.models import Stage
from scoring.models import MatchResult
from scoring.task_options import RELIABLE, RETRIED
from tournaments.models import Match

from . import services

log = logging.getLogger(__name__)


@shared_task(**RELIABLE, **RETRIED, soft_time_limit=50, time_limit=60)
def rate_match(match_id: int) -> str:
    """A match's result is new or changed: bring its club's ratings and its evening up to it.

    Returns what the ratings did (``services.CURRENT``, ``APPENDED``, ``REFOLDED``), or
    "no club" for a match of no club's tournament.
    """
    row = Match.objects.filter(pk=match_id).values_list("tournament__club", "tournament").first()
    if row is None or row[0] is None:
        return "no club"
    club_id, tournament_id = row
    outcome = services.update_club_ratings(club_id=club_id, match_id=match_id).outcome
    services.update_evening(tournament_id=tournament_id)
    return outcome


@shared_task(**RELIABLE, **RETRIED, soft_time_limit=50, time_limit=60)
def update_evening(tournament_id: int) -> int:
    """Bring a tournament's evening rows up to its results and standings."""
    return services.update_evening(tournament_id=tournament_id)


@shared_task(**RELIABLE, soft_time_limit=110, time_limit=120)
def catch_up(window_minutes: int = 60) -> int:
    """For every club with a result changed in the last ``window_minutes``, compare its games
    with what was rated and fold again where they differ (a lost message, a worker killed);
    recompute the evenings of the tournaments with a result changed then or a stage running.
    Returns the clubs refolded. (An idle club costs nothing; ``rebuild_projections`` checks
    everything.)"""
    since = timezone.now() - timedelta(minutes=window_minutes)
    changed = MatchResult.objects.filter(updated_at__gte=since)
    clubs = sorted(
        set(
            changed.exclude(match__tournament__club=None).values_list(
                "match__tournament__club", flat=True
            )
        )
    )
    refolded = 0
    for club_id in clubs:
        if services.update_club_ratings(club_id=club_id).outcome != services.CURRENT:
            refolded += 1
    recent = set(changed.values_list("match__tournament", flat=True)) | set(
        Stage.objects.filter(status=Stage.Status.RUNNING).values_list("tournament", flat=True)
    )
    for tournament_id in sorted(recent):
        services.update_evening(tournament_id=tournament_id)
    if refolded:
        log.info("seasons catch-up: %d club(s) whose ratings lagged their results", refolded)
    return refolded
