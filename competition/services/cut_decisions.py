"""Deciding a tie at a qualification's cut: a lot drawn here, or the director's order.

The cut itself (who goes through, the ties at its line) is read by ``competition.cut``; a
decision is a ``CutDecision`` row, made once, with the stage's row locked.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from ..cut import CutTie, cut_for_stage, decision_words, previous_stage
from ..errors import InvalidSettings, NotNow
from ..models import CutDecision, Stage
from . import _common


def _locked_tie(actor: Any, stage: Stage, tie: str) -> tuple[Stage, CutTie]:
    """Lock the stage, check it can still be decided, and return the tie named ``tie``."""
    _common.require_director(actor, stage.tournament)
    locked = _common.locked_stage(
        stage,
        status=Stage.Status.PENDING,
        refusal=gettext("the stage has started: its teams are fixed"),
        code="stage_started",
    )
    before = previous_stage(locked)
    if before is None:
        raise NotNow(gettext("this stage takes the registered teams: it has no cut"), code="no_cut")
    if before.status != Stage.Status.COMPLETE:
        raise NotNow(
            gettext("the stage before is not complete: its table can still change"),
            code="previous_running",
        )
    cut = cut_for_stage(locked, previous=before)
    assert cut is not None
    found = next((t for t in cut.ties if t.key == tie), None)
    if found is None:
        raise NotNow(
            gettext(
                "there is no such tie at the cut (the table may have changed): reload the page"
            ),
            code="no_such_tie",
        )
    if found.decision is not None:
        raise NotNow(
            gettext("this tie was decided already (%(decision)s): a tie is decided once")
            % {"decision": decision_words(found.decision)},
            code="cut_tie_decided",
        )
    return locked, found


def _record(actor: Any, stage: Stage, tie: CutTie, **decided: Any) -> CutDecision:
    try:
        with transaction.atomic():  # a savepoint: a decision made meanwhile refuses this one
            return CutDecision.objects.create(
                stage=stage, tie=tie.key, group=tie.group, teams=list(tie.teams),
                decided_by=actor, decided_by_name=actor.get_username(),
                decided_at=timezone.now(), **decided,
            )  # fmt: skip
    except IntegrityError:
        raise NotNow(gettext("this tie was decided already: a tie is decided once"),
                     code="cut_tie_decided") from None  # fmt: skip


def cut_draw_lot(*, actor: Any, stage: Stage, tie: str) -> CutDecision:
    """Decide a tie at the stage's cut by a lot drawn here: a random seed, recorded with the
    order it draws (the highest first), who drew it and when. Once only."""
    with transaction.atomic():
        _common.shown(stage.tournament_id, stage.pk)
        locked, found = _locked_tie(actor, stage, tie)
        seed = secrets.randbits(48)
        order = list(found.teams)
        random.Random(seed).shuffle(order)
        return _record(actor, locked, found, method=CutDecision.Method.LOT, order=order,
                       lot_seed=seed)  # fmt: skip


def cut_set_order(*, actor: Any, stage: Stage, tie: str, order: Sequence[Any]) -> CutDecision:
    """Decide a tie at the stage's cut by the director's order of its teams (the highest
    first): every tied team once, and no other. Once only."""
    with transaction.atomic():
        _common.shown(stage.tournament_id, stage.pk)
        locked, found = _locked_tie(actor, stage, tie)
        given = list(order)
        if (
            not all(type(t) is int for t in given)
            or len(given) != len(found.teams)
            or sorted(given) != list(found.teams)
        ):
            raise InvalidSettings(
                gettext("the order names each tied team once, and no other team"),
                code="bad_cut_order",
                fields={"order": [gettext("name each tied team once, and no other team")]},
            )
        return _record(actor, locked, found, method=CutDecision.Method.ORDER, order=given)
