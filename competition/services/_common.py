"""What the service modules share: the director check, the locks, the standings and the live
pages to follow.

The bottom of the chain (``tests/competition/test_services_layering.py``): it imports no
other service, and no task.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import Manager, Model, QuerySet
from django.utils.translation import gettext

import live
from tournaments.access import is_director
from tournaments.models import Tournament

from ..errors import NotNow, NotPermitted
from ..models import Stage
from ..signals import standings_due

log = logging.getLogger(__name__)


_M = TypeVar("_M", bound=Model)


def require_director(actor: Any, tournament: Tournament) -> None:
    if not is_director(actor, tournament):
        raise NotPermitted(
            gettext("only a director of this tournament may do this"), code="forbidden"
        )


def schedule_standings(stage_id: int) -> None:
    """Send the standings task of a stage (after a commit: ``transaction.on_commit``).

    The services tell ``signals.standings_due``; its receiver, connected in ``apps.py``,
    sends ``tasks.update_standings`` (the services sit below the tasks, which call them). A
    failure to send it, or of the task itself where tasks run in-process (the embedded
    default, with no broker), is logged and goes no further: what was committed stays
    committed and its request answers as it did. The standings catch up with the next
    result, publish or start, and with a broker the beat's ``competition.tasks.catch_up``
    recomputes every running stage's standings every ``SCORING_CATCH_UP_SECONDS``.
    """
    try:
        standings_due.send(sender=Stage, stage_id=stage_id)
    except Exception:
        log.exception("the standings of stage %s were not brought up to date", stage_id)


def shown(tournament_id: int, stage_id: int | None = None) -> None:
    """What the tournament's live pages show changed: its teams or registrations, or the
    stage ``stage_id``, its rounds, fixtures, standings, cut or notices. Called by every
    service that changes any of them, in its transaction: the message goes once it commits
    (once per transaction, and never for one rolled back: ``live.publish``). No model receiver
    does this (an ``update()`` passes them by); tests/competition/test_live_messages.py
    fails for a change that names no tournament."""
    if stage_id is None:
        live.publish(live.Topic.TOURNAMENT, tournament_id)
    else:
        live.publish(live.Topic.STAGE, stage_id, tournament=tournament_id)


def locked_or_gone(
    queryset: QuerySet[_M] | Manager[_M], pk: int, gone: str, *, to_delete: bool = False
) -> _M:
    """Return the row ``pk`` of ``queryset`` locked for update, or refuse in the words of
    ``gone``: it was removed meanwhile (a draft discarded, a stage removed, by another
    director at the same moment).
    Locked ``FOR NO KEY UPDATE`` (docs/architecture.md, "Locks"), or ``FOR UPDATE`` when the
    caller deletes the row (``to_delete``: a delete takes that lock anyway; taken first, it
    waits for a foreign-key check rather than upgrading in the middle of the transaction)."""
    row = queryset.select_for_update(no_key=not to_delete).filter(pk=pk).first()
    if row is None:
        raise NotNow(gone, code="gone")
    return row


def stage_gone() -> str:
    """The refusal of a stage removed meanwhile (``locked_or_gone``'s ``gone``)."""
    return gettext("this stage is no longer there: reload the page")


def round_gone() -> str:
    """The refusal of a round removed meanwhile (``locked_or_gone``'s ``gone``)."""
    return gettext("this round is no longer there: reload the page")


def locked_stage(stage: Stage, *, status: str, refusal: str, code: str) -> Stage:
    """Return the stage's row (with its tournament) locked for update, or refuse: it is gone,
    or its status is not ``status`` (NotNow ``code``, in the words of ``refusal``)."""
    locked = locked_or_gone(Stage.objects.select_related("tournament"), stage.pk, stage_gone())
    if locked.status != status:
        raise NotNow(refusal, code=code)
    return locked


@contextmanager
def stage_changing(
    actor: Any, stage: Stage, *, status: str, refusal: str, code: str
) -> Iterator[Stage]:
    """A director's change to a stage: check ``actor`` directs its tournament, then in one
    transaction say the stage's pages change (``shown``) and give its row locked, or refuse
    (``locked_stage``: gone, or its status not ``status``)."""
    require_director(actor, stage.tournament)
    with transaction.atomic():
        shown(stage.tournament_id, stage.pk)
        yield locked_stage(stage, status=status, refusal=refusal, code=code)
