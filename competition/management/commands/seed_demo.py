"""``manage.py seed_demo``: a club evening, organized in stages and played by bots.

Twelve teams, a Swiss stage of 4 rounds (score mode: score-keeper bots enter each deal's
result), then the top 8 in a single-elimination stage of digital matches played by bots that
choose random legal moves, its final left in progress so there is something live. Every
pairing, publication and bracket advancement goes through the competition services, every
result through the append service and the real scoring tasks (in-process on the embedded
default, on the workers when REDIS_URL is set). Deterministic for a given ``--seed``.
A second, smaller tournament ("Tuesday ladder", four teams, round robin in score mode) has its
first round just published and every match waiting for its first deal, with the other team's
confirmation asked: the web pages' phone score-keeping can be tried on it at once.
Both belong to one club, "Friday Seep Club" (time zone Asia/Kolkata), which the organizer
directs; its players are the club's members, one member per person: a name the club has
already (case and spacing ignored) is that member again, in any of its tournaments (and in
the tournaments a second run adds).
Development data: it creates an ``organizer`` superuser whose password is ``organizer``, a
``scorekeeper``, and an account for every player (user name and password: the player's name
in lower case), so it refuses to run unless DEBUG is on.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import random
import time
import zoneinfo
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.crypto import get_random_string

from competition import demo, services
from competition.models import Fixture, Round, Stage
from competition.selectors import standings_for_stage
from tournaments import clubs
from tournaments.models import Club, Match, Player, Tournament

USERNAME = PASSWORD = "organizer"
SCOREKEEPER = "scorekeeper"
CLUB, CLUB_SLUG, CLUB_TIME_ZONE = "Friday Seep Club", "friday-seep-club", "Asia/Kolkata"
PLACE = "The community hall"

PLAYERS = [
    "Asha", "Bilal", "Chitra", "Dev", "Esha", "Farhan", "Gita", "Harpreet", "Imran", "Jaya",
    "Kabir", "Leela", "Mohan", "Nisha", "Omar", "Priya", "Qasim", "Rekha", "Sanjay", "Tara",
    "Uday", "Veena", "Wasim", "Yamini",
]  # fmt: skip
LADDER_PLAYERS = ["Anil", "Bina", "Chetan", "Divya", "Eshan", "Fatima", "Govind", "Hema"]
LADDER_TEAMS = ["Jokers", "Tigers", "Lotus", "Peacocks"]
TEAMS = [
    "Aces", "Kings", "Queens", "Jacks", "Tens", "Spades", "Hearts", "Diamonds", "Clubs",
    "Sweepers", "Builders", "Bidders",
]  # fmt: skip
SWISS_FORMAT = {"bazzis": 1, "deal_cap": 3}  # a short club-night match; a draw can happen
KNOCKOUT_FORMAT = {"bazzis": 1, "deal_cap": 1}  # one deal, or more until the difference decides
FINAL_MOVES = 30  # how far into the final the bots play


class Command(BaseCommand):
    help = (
        "Create a demo club evening (DEBUG only): an 'organizer' superuser (password "
        "'organizer'), 12 teams, a 4-round Swiss stage then a top-8 knockout, played by bots."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing if any tournament exists"
        )
        parser.add_argument("--seed", type=int, default=116, help="random seed (default 116)")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "seed_demo creates a superuser with a known password: run it with DEBUG=1 only"
            )
        if options["if_empty"] and Tournament.objects.exists():
            self.stdout.write("seed_demo: the database has tournaments already; nothing to do")
            return
        began = time.perf_counter()
        rng = random.Random(options["seed"])
        with _quiet("celery.app.trace"):
            organizer, scorekeeper = self._users()
            club = self._club(organizer)
            tournament = self._club_evening(club, organizer, rng)
            swiss = services.stage_create(
                actor=organizer, tournament=tournament, name="Swiss", format=Stage.Format.SWISS,
                rounds=4, mode="score", match_format=SWISS_FORMAT, start_matches=False,
                tiebreaks=["bazzis_won", "buchholz", "running_difference", "head_to_head"],
            )  # fmt: skip
            swiss.scorekeepers.add(scorekeeper)
            knockout = services.stage_create(
                actor=organizer, tournament=tournament, name="Knockout",
                format=Stage.Format.SINGLE_ELIMINATION, entry=Stage.Entry.TOP, entry_count=8,
                seeding=Stage.Seeding.STANDINGS, mode="digital", match_format=KNOCKOUT_FORMAT,
                start_matches=False,
            )  # fmt: skip
            services.stage_start(actor=organizer, stage=swiss)
            for _ in range(swiss.rounds or 0):
                round_ = services.round_pair(actor=organizer, stage=swiss)
                services.round_publish(actor=organizer, round=round_)
                self._play_round(round_, rng, scorekeeper)
            services.stage_start(actor=organizer, stage=knockout)
            first = knockout.round_set.order_by("number").first()
            assert first is not None
            services.round_publish(actor=organizer, round=first)
            self._play_bracket(knockout, rng)
            ladder = self._ladder(club, organizer, scorekeeper)
        self._report(tournament, swiss, knockout, time.perf_counter() - began)
        self.stdout.write(
            f'  "{ladder}": round 1 is being played, its results waiting for a score-keeper '
            "and the other team's confirmation"
        )

    def _users(self) -> tuple[Any, Any]:
        users = get_user_model()
        organizer, _ = users.objects.get_or_create(
            username=USERNAME, defaults={"email": "organizer@example.org"}
        )
        organizer.is_staff = organizer.is_superuser = True
        organizer.set_password(PASSWORD)
        organizer.save()
        scorekeeper, _ = users.objects.get_or_create(username=SCOREKEEPER)
        scorekeeper.set_password(SCOREKEEPER)
        scorekeeper.save()
        return organizer, scorekeeper

    def _club(self, organizer: Any) -> Club:
        """Return the demo's club (made on the first run), directed by the organizer."""
        club = Club.objects.filter(slug=CLUB_SLUG).first()
        if club is None:
            club = clubs.club_create(actor=organizer, name=CLUB, time_zone=CLUB_TIME_ZONE)
        club.directors.add(organizer)
        return club

    def _member(self, club: Club, organizer: Any, name: str) -> Player:
        """Return the club's member called ``name``, or a new one with an account: user name
        and password are the name, lower case."""
        for member in clubs.members_named(club=club, name=name):
            if member.user is not None and member.user.username == name.lower():
                return member
        users = get_user_model()
        user, _ = users.objects.get_or_create(username=name.lower())
        # Few iterations, for a demo that starts in seconds: Django raises the hash to its
        # full strength at the account's first sign-in (the hasher reads the count it holds).
        user.password = PBKDF2PasswordHasher().encode(name.lower(), get_random_string(12), 1000)
        user.save()
        return clubs.member_add(actor=organizer, club=club, name=name, user=user)

    def _ladder(self, club: Club, organizer: Any, scorekeeper: Any) -> Tournament:
        """A round-robin ladder in score mode whose first round waits for its first deals."""
        slug, n = "tuesday-ladder", 1
        while Tournament.objects.filter(slug=slug).exists():
            n += 1
            slug = f"tuesday-ladder-{n}"
        ladder = Tournament(
            name="Tuesday ladder", slug=slug, organizer=organizer, published=True, club=club,
            date=_today(club), place=PLACE,
        )  # fmt: skip
        ladder.full_clean()
        ladder.save()
        players = [self._member(club, organizer, name) for name in LADDER_PLAYERS]
        for i, team in enumerate(LADDER_TEAMS):
            services.team_register(
                actor=organizer,
                tournament=ladder,
                name=team,
                first_player=players[2 * i],
                second_player=players[2 * i + 1],
                seed=i + 1,
                checked_in=True,
            )
        stage = services.stage_create(
            actor=organizer,
            tournament=ladder,
            name="Round robin",
            format=Stage.Format.ROUND_ROBIN,
            mode="score",
            match_format=SWISS_FORMAT,
            confirmation="other_team",
            start_matches=True,
        )
        stage.scorekeepers.add(scorekeeper)
        services.stage_start(actor=organizer, stage=stage)
        services.round_publish(
            actor=organizer, round=services.round_pair(actor=organizer, stage=stage)
        )
        return ladder

    def _club_evening(self, club: Club, organizer: Any, rng: random.Random) -> Tournament:
        slug, n = "club-evening", 1
        while Tournament.objects.filter(slug=slug).exists():
            n += 1
            slug = f"club-evening-{n}"
        name = "Club evening" if n == 1 else f"Club evening {n}"
        tournament = Tournament(
            name=name, slug=slug, organizer=organizer, published=True, club=club,
            date=_today(club), place=PLACE,
        )  # fmt: skip
        tournament.full_clean()
        tournament.save()
        players = [self._member(club, organizer, name) for name in PLAYERS]
        for i, team in enumerate(TEAMS):
            services.team_register(
                actor=organizer, tournament=tournament, name=team,
                first_player=players[2 * i], second_player=players[2 * i + 1],
                seed=i + 1, rating=rng.randrange(1200, 1800), checked_in=True,
            )  # fmt: skip
        return tournament

    def _play_round(self, round_: Round, rng: random.Random, scorekeeper: Any) -> None:
        for fixture in round_.fixtures.filter(match__isnull=False).select_related("match"):
            assert fixture.match is not None
            demo.play(fixture.match, rng, actor=scorekeeper)

    def _play_bracket(self, stage: Stage, rng: random.Random) -> None:
        """Play the bracket's matches as they become ready; leave the final in progress."""
        while True:
            ready = (
                Fixture.objects.filter(stage=stage, result="", match__isnull=False)
                .exclude(match__status=Match.Status.FINISHED)
                .select_related("match", "round")
                .order_by("round__number", "key")
            )
            fixture = ready.first()
            if fixture is None:
                return
            assert fixture.match is not None
            final = not fixture.winner_to and fixture.round.part == "main"
            demo.play(fixture.match, rng, moves=FINAL_MOVES if final else None)
            if final:
                return

    def _report(
        self, tournament: Tournament, swiss: Stage, knockout: Stage, seconds: float
    ) -> None:
        write = self.stdout.write
        matches = Match.objects.filter(tournament=tournament)
        finished = matches.filter(status=Match.Status.FINISHED).count()
        write(
            f'seed_demo: "{tournament}": {TEAMS.__len__()} teams, {matches.count()} matches '
            f"({finished} finished) in {seconds:.1f} s"
        )
        rows = standings_for_stage(stage=Stage.objects.get(pk=swiss.pk))
        top = ", ".join(f"{r.rank}. {r.team.name} ({r.points})" for r in rows[:8])
        write(f"  {swiss.name} after {swiss.rounds} rounds: {top}")
        live = Fixture.objects.filter(stage=knockout, result="", match__isnull=False).first()
        if live is not None:
            write(f"  {knockout.name}: the {live.round} is being played (match {live.match_id})")
        write(
            f"Admin: /admin/ with user {USERNAME!r}, password {PASSWORD!r}; score-keeper "
            f"{SCOREKEEPER!r}, password {SCOREKEEPER!r}; every player: the name in lower case "
            "as user name and password (demo data: DEBUG only)"
        )


def _today(club: Club) -> datetime.date:
    """Return today's date where the club plays."""
    return timezone.now().astimezone(zoneinfo.ZoneInfo(club.time_zone)).date()


@contextlib.contextmanager
def _quiet(logger_name: str) -> Iterator[None]:
    """Silence a logger's INFO lines for the block."""
    logger = logging.getLogger(logger_name)
    level = logger.level
    logger.setLevel(max(logging.WARNING, logger.getEffectiveLevel()))
    try:
        yield
    finally:
        logger.setLevel(level)
