"""``manage.py seed_demo_seasons``: a few past evenings of the demo club, and its season.

Run after ``seed_demo`` (``make run`` does): the "Friday Seep Club" gets three past Friday
evenings (on the last three Fridays before today, in the club's time zone; four teams each,
a round robin in score mode, the pairs changing from one evening to the next, played by the
score-keeper bot through the real services and tasks), a season
that holds them and today's evenings, ranked by places (10, 6, 4, 2), and pages made
public, so its page (``/c/friday-seep-club/``) and every member's have something to show.
The members' ratings and the ladder are what the projections made of those matches. Demo
data: DEBUG only. ``--if-empty`` does nothing when the club has a season already.
"""

from __future__ import annotations

import datetime
import logging
import random

from django.core.management.base import CommandError

from competition import demo, presets
from competition import services as competition
from seasons import services
from seasons.models import Season
from tournaments.clubdate import club_today
from tournaments.models import Club, Player

CLUB_SLUG = "friday-seep-club"
FRIDAY = 4  # date.weekday()'s
#: each past evening's pairs, by member name (all on the demo's roster): partners change
EVENINGS = [
    [("Asha", "Bilal"), ("Chitra", "Dev"), ("Esha", "Farhan"), ("Gita", "Harpreet")],
    [("Asha", "Dev"), ("Bilal", "Esha"), ("Chitra", "Gita"), ("Farhan", "Harpreet")],
    [("Asha", "Chitra"), ("Dev", "Gita"), ("Bilal", "Harpreet"), ("Esha", "Farhan")],
]
PAST = presets.Preset(
    "round_robin", mode="score", confirmation="none", match_format={"bazzis": 1, "deal_cap": 3}
)


def last_friday_before(today: datetime.date) -> datetime.date:
    """Return the last Friday before ``today`` (on a Friday, the one a week before: today's
    evenings are ``seed_demo``'s).

    >>> monday, friday = datetime.date(2026, 12, 7), datetime.date(2026, 12, 4)
    >>> last_friday_before(monday), last_friday_before(friday)
    (datetime.date(2026, 12, 4), datetime.date(2026, 11, 27))
    """
    return today - datetime.timedelta(days=(today.weekday() - FRIDAY - 1) % 7 + 1)


class Command(demo.DemoCommand):
    help = "Add past evenings and a season to the demo club (DEBUG only; after seed_demo)."
    debug_only = "seed_demo_seasons makes demo data"
    if_empty_help = "do nothing if the club has a season"
    default_seed = 32

    def seed(self, rng: random.Random, *, if_empty: bool) -> None:
        club = Club.objects.filter(slug=CLUB_SLUG).first()
        if club is None:
            raise CommandError(f"no club {CLUB_SLUG!r}: run seed_demo first")
        if if_empty and Season.objects.filter(club=club).exists():
            self.stdout.write("seed_demo_seasons: the club has a season already; nothing to do")
            return
        director = club.directors.order_by("pk").first()
        if director is None:
            raise CommandError(f"{club} has no director")
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)  # a line a task
        today = club_today(club)
        roster = {p.name: p for p in Player.objects.filter(club=club)}
        for weeks, pairs in zip((2, 1, 0), EVENINGS, strict=True):
            day = last_friday_before(today) - datetime.timedelta(days=7 * weeks)
            evening = competition.tournament_create(
                actor=director, club=club, name=f"Friday evening, {day:%-d %B}", date=day,
                published=True, stages=presets.stages_for(PAST),
            )  # fmt: skip
            for n, (a, b) in enumerate(pairs, start=1):
                competition.team_enter(
                    actor=director, tournament=evening, name=f"{a} & {b}",
                    people=[roster[a], roster[b]], checked_in=True, seed=n,
                )  # fmt: skip
            stage = evening.stages.get()
            competition.stage_start(actor=director, stage=stage)
            for _ in range(3):  # a round robin of four: three rounds
                round_ = competition.round_pair(actor=director, stage=stage)
                competition.round_publish(actor=director, round=round_)
                for fixture in round_.fixtures.filter(match__isnull=False).select_related("match"):
                    assert fixture.match is not None
                    demo.play(fixture.match, rng)
        services.season_create(
            actor=director, club=club, name=f"Season {today.year}",
            starts_on=today - datetime.timedelta(days=60),
            ends_on=today + datetime.timedelta(days=120), points=[10, 6, 4, 2],
        )  # fmt: skip
        services.club_seasons_update(actor=director, club=club, public=True)
        # a database seeded before this app came has matches no message rated: fold them in
        services.update_club_ratings(club_id=club.pk)
        for tournament_id in club.tournaments.values_list("pk", flat=True):
            services.update_evening(tournament_id=tournament_id)
        self.stdout.write(
            f"seed_demo_seasons: {len(EVENINGS)} past evenings and a season at /c/{club.slug}/"
        )
