"""Withdrawals: a team withdrawn (its fixtures not yet played settled as its stages say),
and a withdrawal undone while no forfeit of it counts yet."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.models import Match, Team

from .. import happenings as told
from ..errors import NotNow
from ..models import Fixture, Registration, Round, Stage
from . import _common, follow
from .registration import enter_late, locked_registration


def team_withdraw(*, actor: Any, team: Team) -> Registration:
    """Withdraw a team: it is paired no more, and its fixtures not yet played become
    forfeits or byes for its opponents, as each running stage says."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        _common.shown(team.tournament_id)
        registration = locked_registration(team)
        if registration.withdrawn_at is not None:
            return registration
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["withdrawn_at"])
        pending = Fixture.objects.select_related("stage", "match").filter(
            Q(team_a=team) | Q(team_b=team), result=Fixture.Result.PENDING
        )
        stages = set()
        for fixture in pending:
            if fixture.match is not None and fixture.match.status != Match.Status.SCHEDULED:
                continue  # a match under way is played out (or forfeited by a director)
            follow.withdrawn_from(fixture, team)
            stages.add(fixture.stage_id)
        for stage_id in sorted(stages):
            stage = Stage.objects.get(pk=stage_id)
            if stage.elimination:
                follow.reconcile_bracket(stage)
            for round_ in stage.round_set.filter(status=Round.Status.PUBLISHED):
                follow.complete_round_if_done(round_)
        told.team_changed(team, "withdrawn")
    return registration


def team_reinstate(*, actor: Any, team: Team) -> Registration:
    """Undo a withdrawal, all or nothing: the team is paired again from the next round, and
    each fixture its withdrawal decided (a forfeit, or a bye for its opponent) is its own
    again, pending, with its match (the one it had, or a new one) where its round is published.

    Refused (NotNow ``forfeit_counted``, nothing changed) once a forfeit counts: a round
    holding a fixture its withdrawal decided is complete, or, in a bracket, the team its
    forfeit sent on has begun (or finished) its next match. A round paired while it was
    withdrawn goes on without it (in Swiss it is simply absent from that round). A team
    checked in that is in no running stage is entered as a late check-in is
    (``registration.team_check_in``), or the undo is refused as that check-in would be.
    """
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        _common.shown(team.tournament_id)
        registration = locked_registration(team)
        if registration.withdrawn_at is None:
            return registration
        # the stages' rows first: a result comes in under its stage's lock, so no round
        # completes between the look at it here and the fixtures given back
        list(Stage.objects.select_for_update(no_key=True).filter(tournament_id=team.tournament_id))
        decided = list(
            Fixture.objects.select_for_update(no_key=True, of=("self",))
            .filter(stage__tournament_id=team.tournament_id, withdrawal__team=team.pk)
            .select_related("stage", "round", "team_a", "team_b")
            .order_by("stage__order", "round__number", "table", "key", "pk")
        )
        for fixture in decided:
            _refuse_if_counted(team, fixture)
        registration.withdrawn_at = None
        registration.save(update_fields=["withdrawn_at"])
        stages = {f.stage_id: f.stage for f in decided}
        for fixture in decided:
            _give_back(team, fixture)
        for stage in stages.values():
            if stage.elimination:
                problems = follow.reconcile_bracket(stage)
                if problems:  # rolled back whole, the notices with it
                    raise NotNow(
                        gettext("%(team)s's withdrawal cannot be undone: %(problems)s")
                        % {"team": team, "problems": "; ".join(m for _, m in problems)},
                        code="forfeit_counted",
                    )
            transaction.on_commit(partial(_common.schedule_standings, stage.pk), robust=True)
        if registration.checked_in_at is not None:
            enter_late(team)
        told.team_changed(team, "reinstated")
    return registration


def _refuse_if_counted(team: Team, fixture: Fixture) -> None:
    """Refuse to undo a withdrawal whose forfeit (or bye) in ``fixture`` counts already."""
    stage, round_ = fixture.stage, fixture.round
    named = round_.name or gettext("round %(number)s") % {"number": round_.number}
    where = gettext("%(round)s of %(stage)s") % {"round": named, "stage": stage.name}
    if fixture.result == Fixture.Result.BYE:
        what = gettext("its withdrawal gave %(team)s a bye in %(where)s") % {
            "team": fixture.team_a,
            "where": where,
        }
    else:
        what = gettext("it forfeited %(where)s") % {"where": where}
    if round_.status == Round.Status.COMPLETE or stage.status == Stage.Status.COMPLETE:
        raise NotNow(
            gettext(
                "%(team)s's withdrawal can no longer be undone: %(what)s, and that round is "
                "complete"
            )
            % {"team": team, "what": what},
            code="forfeit_counted",
        )
    if not stage.elimination or not fixture.winner_to:
        return
    key, _, _side = fixture.winner_to.partition(":")
    following = Fixture.objects.filter(stage=stage, key=key).select_related("match").first()
    if following is None:
        return
    begun = following.match is not None and following.match.last_seq > 0
    if following.result != Fixture.Result.PENDING or begun:
        raise NotNow(
            gettext(
                "%(team)s's withdrawal can no longer be undone: %(what)s, and %(winner)s has "
                "played on in %(round)s since"
            )
            % {"team": team, "what": what, "winner": fixture.winner(), "round": following.round},
            code="forfeit_counted",
        )


def _give_back(team: Team, fixture: Fixture) -> None:
    """Make a fixture a withdrawal decided pending again, the team in it, its match made
    again where its round is published (a bracket's: by ``reconcile_bracket``)."""
    record = fixture.withdrawal
    if fixture.result == Fixture.Result.BYE and fixture.team_b_id is None:
        other = fixture.team_a_id
        if record.get("side") == "a":
            fixture.team_a_id, fixture.team_b_id = team.pk, other
        else:
            fixture.team_b_id = team.pk
    fixture.result = Fixture.Result.PENDING
    fixture.withdrawal = {}
    kept = record.get("match")
    if kept is not None and fixture.match_id is None:
        unlinked = Match.objects.filter(
            pk=kept, status=Match.Status.SCHEDULED, last_seq=0, fixture__isnull=True
        ).first()
        if unlinked is not None and {unlinked.team0_id, unlinked.team1_id} == {
            fixture.team_a_id,
            fixture.team_b_id,
        }:
            fixture.match = unlinked
    fixture.save(update_fields=["team_a", "team_b", "result", "match", "withdrawal"])
    published = fixture.round.status == Round.Status.PUBLISHED
    if published and not fixture.stage.elimination and fixture.match_id is None:
        follow.create_match(fixture.stage, fixture)
