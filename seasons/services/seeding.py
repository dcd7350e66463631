"""Seeding an evening by its members' ratings: each team's rating from its two members'.

The competition seeds a stage "by rating" from each registration's ``rating`` (a whole
number). ``seed_by_member_ratings`` sets that number for every team of the tournament from
its members' ratings as they stand now (with the drift of time away): the sum of their ``mu``,
or of their conservative estimates (``mu - 3 sigma``: a pair of newcomers seeds low), in
hundredths; sets every pending stage that takes the registered teams to seed by rating; and
records that it did (``RatingSeeding``), which the desk's draft shows. All or nothing, and
only before a stage has started (the competition refuses later, in its own words).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from competition.errors import InvalidSettings
from competition.models import Registration, Stage
from competition.services import registration_update, stage_update
from tournaments.clubdate import club_today
from tournaments.models import Club, Tournament

from .. import rating
from ..models import RatingSeeding
from ..selectors import ratings_now

SUM, CONSERVATIVE = RatingSeeding.Measure.SUM, RatingSeeding.Measure.CONSERVATIVE


def seed_by_member_ratings(*, actor: Any, tournament: Tournament, measure: str) -> RatingSeeding:
    """Set each team's rating from its members' (``measure``: SUM or CONSERVATIVE); return
    the record of it. Refused (competition's errors) for an actor who does not direct the
    tournament, a tournament of no club, an unknown measure, or once a stage has started."""
    if measure not in RatingSeeding.Measure.values:
        raise InvalidSettings(
            gettext("measure: %(measure)s is not one of %(measures)s")
            % {"measure": repr(measure), "measures": ", ".join(RatingSeeding.Measure.values)},
            code="bad_seeding",
        )
    if tournament.club_id is None:
        raise InvalidSettings(
            gettext("only a club's evening is seeded by its members' ratings"),
            code="bad_seeding",
        )
    with transaction.atomic():
        registrations = list(
            Registration.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
            .select_related("team", "team__tournament")
            .order_by("team_id")
        )
        players = [
            p for r in registrations for p in (r.team.first_player_id, r.team.second_player_id)
        ]
        club = Club.objects.get(pk=tournament.club_id)
        # an undated evening: as of today where the club plays (docs/seasons.md)
        now = ratings_now(players=players, on=tournament.date or club_today(club))
        for registration in registrations:
            team = registration.team
            members = [
                now.get(team.first_player_id, rating.Rating()),
                now.get(team.second_player_id, rating.Rating()),
            ]
            strength = rating.team_strength(members, conservative=measure == CONSERVATIVE)
            registration_update(
                actor=actor, team=team, seed=registration.seed, rating=round(strength * 100)
            )
        stages = Stage.objects.filter(
            tournament=tournament, status=Stage.Status.PENDING, entry=Stage.Entry.REGISTERED
        )
        for stage in stages:
            if stage.seeding != Stage.Seeding.RATING:
                stage_update(actor=actor, stage=stage, seeding=Stage.Seeding.RATING)
        record, _ = RatingSeeding.objects.update_or_create(
            tournament=tournament,
            defaults={
                "measure": measure,
                "teams": len(registrations),
                "seeded_at": timezone.now(),
                "seeded_by": actor if getattr(actor, "pk", None) else None,
            },
        )
    return record
