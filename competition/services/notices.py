"""Notices: what the services tell a stage's directors, and their marking it dealt with."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from ..models import Fixture, Notice, Stage
from . import _common


def notice(stage: Stage, fixture: Fixture | None, code: str, message: str) -> None:
    """Tell the stage's directors something (once while it is unresolved)."""
    Notice.objects.get_or_create(
        stage=stage, fixture=fixture, code=code, message=message, resolved_at__isnull=True
    )


def notice_resolve(*, actor: Any, notice: Notice) -> Notice:
    """Mark a notice as dealt with (a director of its tournament)."""
    _common.require_director(actor, notice.stage.tournament)
    with transaction.atomic():
        _common.shown(notice.stage.tournament_id, notice.stage_id)
        Notice.objects.filter(pk=notice.pk, resolved_at__isnull=True).update(
            resolved_at=timezone.now(), resolved_by=actor
        )
    notice.refresh_from_db()
    return notice
