"""A club to run tournaments in, and bots to play its rounds through the real services."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from competition import demo, services
from competition.models import Fixture, Round, Stage
from tests.scoring.helpers import committed
from tournaments.models import Match, Player, Team, Tournament


@dataclass
class Club:
    organizer: Any
    tournament: Tournament
    teams: list[Team]

    def stage(self, **settings: Any) -> Stage:
        settings.setdefault("name", f"stage {self.tournament.stages.count() + 1}")
        settings.setdefault("mode", "score")
        settings.setdefault("match_format", {"bazzis": 1, "deal_cap": 2})
        if settings.get("format") in ("single_elimination", "double_elimination"):
            settings.setdefault("review_draw", True)  # the desk's way: the draw is reviewed
        return services.stage_create(actor=self.organizer, tournament=self.tournament, **settings)

    def start(self, stage: Stage) -> Stage:
        with committed():
            return services.stage_start(actor=self.organizer, stage=stage)

    def pair(self, stage: Stage) -> Round:
        return services.round_pair(actor=self.organizer, stage=stage)

    def publish(self, round_: Round) -> Round:
        with committed():
            return services.round_publish(actor=self.organizer, round=round_)

    def play(self, round_: Round, rng: random.Random) -> None:
        """Play every match of the round that can be played now, to its end."""
        for fixture in Fixture.objects.filter(round=round_, match__isnull=False, result=""):
            assert fixture.match is not None
            with committed():
                demo.play(fixture.match, rng)

    def play_stage(self, stage: Stage, rng: random.Random) -> None:
        """Pair, publish and play every round of a paired stage, or a whole bracket."""
        stage.refresh_from_db()
        if stage.elimination:
            first = stage.round_set.order_by("number").first()
            assert first is not None
            if first.status == Round.Status.DRAFT:
                self.publish(first)
            while True:
                ready = Fixture.objects.filter(stage=stage, result="", match__isnull=False).exclude(
                    match__status=Match.Status.FINISHED
                )
                fixture = ready.order_by("round__number", "key").first()
                if fixture is None:
                    return
                assert fixture.match is not None
                with committed():
                    demo.play(fixture.match, rng)
        while stage.status == Stage.Status.RUNNING:
            round_ = self.pair(stage)
            self.publish(round_)
            self.play(round_, rng)
            stage.refresh_from_db()


def make_club(n: int, *, slug: str = "club-cup", rated: bool = True) -> Club:
    """Return a tournament with ``n`` teams registered and checked in, seeded 1..n."""
    users = get_user_model().objects
    organizer = users.create_user(f"organizer-{slug}")
    tournament = Tournament.objects.create(name=slug.title(), slug=slug, organizer=organizer)
    teams = []
    for i in range(n):
        first = Player.objects.create(name=f"{slug} player {2 * i + 1}")
        second = Player.objects.create(name=f"{slug} player {2 * i + 2}")
        teams.append(
            services.team_register(
                actor=organizer,
                tournament=tournament,
                name=f"Team {i + 1:02d}",
                first_player=first,
                second_player=second,
                seed=i + 1,
                rating=2000 - 10 * i if rated else None,
                checked_in=True,
            )
        )
    return Club(organizer, tournament, teams)
