"""``manage.py seed_demo``: a small club evening, played by bots through the real append service.

Six teams, five digital matches played to the end by bots that pick a random legal move, and
one match left in progress. Every move goes through ``tournaments.services.match_append_event``
(validated by the engine, chained, snapshotted) and every result is computed by the real
scoring tasks (in-process on the embedded default, by the workers when REDIS_URL is set).
Deterministic for a given ``--seed``. Development data: it creates an ``organizer`` superuser
whose password is ``organizer``, so it refuses to run unless DEBUG is on.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

import seep_core as sc
from scoring.selectors import match_result
from tournaments import matchlog
from tournaments.access import SYSTEM
from tournaments.models import Match, Player, Team, Tournament
from tournaments.services import match_append_event, match_create

USERNAME = PASSWORD = "organizer"

PLAYERS = [
    "Asha", "Bilal", "Chitra", "Dev", "Esha", "Farhan",
    "Gita", "Harpreet", "Imran", "Jaya", "Kabir", "Leela",
]  # fmt: skip
TEAMS = ["Aces", "Kings", "Queens", "Jacks", "Tens", "Spades"]
#: (team0, team1, format) of the matches played to the end, by index in TEAMS
FINISHED = [
    (0, 1, {"bazzis": 1}),
    (2, 3, {"bazzis": 1}),
    (4, 5, {"bazzis": 1}),
    (0, 2, {"bazzis": 2}),
    (1, 4, {"bazzis": 1}),
]
#: the match left in progress, and how many moves into it
IN_PROGRESS = (3, 5, {"bazzis": 3})
IN_PROGRESS_MOVES = 75
MOVE_LIMIT = 20_000  # per match; a random game ends long before (a safety net, not a rule)


class Command(BaseCommand):
    help = (
        "Create a demo club evening (DEBUG only): an 'organizer' superuser (password "
        "'organizer'), 6 teams, 5 digital matches played to the end by bots and 1 in progress."
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
        # One transaction: the demo is there whole or not at all. The projection tasks are
        # sent when it commits, as after any append; their one line each is left out here.
        with _quiet("celery.app.trace"), transaction.atomic():
            organizer = self._organizer()
            tournament, teams = self._club_evening(organizer)
            finished = [
                self._play(tournament, teams[a], teams[b], fmt, rng, stop_after=None)
                for a, b, fmt in FINISHED
            ]
            a, b, fmt = IN_PROGRESS
            running = self._play(tournament, teams[a], teams[b], fmt, rng, IN_PROGRESS_MOVES)
        self._report(tournament, [*finished, running], time.perf_counter() - began)

    def _organizer(self) -> Any:
        users = get_user_model()
        user, _ = users.objects.get_or_create(
            username=USERNAME, defaults={"email": "organizer@example.org"}
        )
        user.is_staff = user.is_superuser = True
        user.set_password(PASSWORD)
        user.save()
        return user

    def _club_evening(self, organizer: Any) -> tuple[Tournament, list[Team]]:
        slug, n = "club-evening", 1
        while Tournament.objects.filter(slug=slug).exists():
            n += 1
            slug = f"club-evening-{n}"
        name = "Club evening" if n == 1 else f"Club evening {n}"
        tournament = Tournament(
            name=name,
            slug=slug,
            organizer=organizer,
            match_format=sc.MatchFormat(bazzis=1).to_dict(),
        )
        tournament.full_clean()
        tournament.save()
        players = [Player.objects.create(name=name) for name in PLAYERS]
        teams = [
            Team.objects.create(
                tournament=tournament,
                name=name,
                first_player=players[2 * i],
                second_player=players[2 * i + 1],
            )
            for i, name in enumerate(TEAMS)
        ]
        return tournament, teams

    def _play(
        self,
        tournament: Tournament,
        team0: Team,
        team1: Team,
        fmt: dict[str, Any],
        rng: random.Random,
        stop_after: int | None,
    ) -> Match:
        """Create and start a digital match; play random legal moves to its end (or a limit)."""
        match = match_create(
            tournament=tournament, team0=team0, team1=team1, mode="digital", match_format=fmt
        )
        shuffle = matchlog.repeatable_decks(rng)
        state = matchlog.MatchState(match.mode)
        seq = 0

        def append(kind: str, payload: dict[str, Any]) -> None:
            nonlocal state, seq
            result = match_append_event(
                match=match,
                expected_seq=seq,
                kind=kind,
                payload=payload,
                actor=SYSTEM,
                shuffle=shuffle,
            )
            for event in result.events:
                state = matchlog.apply_event(state, event["kind"], event["payload"])
            seq = result.last_seq

        append(matchlog.MATCH_STARTED, {"first_dealer": rng.randrange(4)})
        limit = MOVE_LIMIT if stop_after is None else stop_after
        for _ in range(limit):
            if state.status == matchlog.FINISHED:
                break
            assert state.deal is not None  # a digital match in progress has a deal in play
            append(matchlog.MOVE_PLAYED, {"move": rng.choice(sc.legal_moves(state.deal))})
        if stop_after is None and state.status != matchlog.FINISHED:
            raise CommandError(f"match {match.pk} did not end within {MOVE_LIMIT} moves")
        return match

    def _report(self, tournament: Tournament, matches: list[Match], seconds: float) -> None:
        write = self.stdout.write
        write(f'seed_demo: "{tournament}" with {len(matches)} matches in {seconds:.1f} s')
        for match in matches:
            match.refresh_from_db()
            result = match_result(match=match)
            if result is None or result.seq < match.last_seq:
                outcome = "result pending (a worker will compute it)"
            elif result.over:
                team = match.team0 if result.winner == 0 else match.team1
                winner = "a draw" if result.winner is None else f"won by {team}"
                deals = f"{result.deals} deal" + ("" if result.deals == 1 else "s")
                outcome = f"{winner}, bazzis {result.bazzis0}-{result.bazzis1} in {deals}"
            else:
                outcome = (
                    f"in progress after {result.deals} scored deal(s): running difference "
                    f"{result.difference:+d}, bazzis {result.bazzis0}-{result.bazzis1}"
                )
            write(f"  match {match.pk}: {match} ({match.last_seq} events): {outcome}")
        write(
            f"Admin: /admin/ with user {USERNAME!r}, password {PASSWORD!r} "
            "(demo data: DEBUG only, never in production)"
        )


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
