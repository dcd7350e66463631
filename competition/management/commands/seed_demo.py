"""``manage.py seed_demo``: a club evening, organized in stages and played by bots.

The evenings are made as a director makes them on the desk: the club's roster first (its
members, each with an account), then each tournament in one step from a preset of the
desk's "New evening" (``services.tournament_create`` with ``presets.stages_for``), its
stages adjusted before they start (``services.stage_update``) where the demo differs from
the preset, and its teams registered from lines naming the club's members
(``services.teams_register``), so a member is the same person from one evening to the next.

The club evening: twelve teams, "a Swiss of 4 rounds, then the top 8 in a knockout". The
Swiss is in score mode (a score-keeper bot enters each deal's result, which counts at once);
the knockout is of digital matches played by bots that choose random legal moves, its final
left in progress so there is something live. Every pairing, publication and bracket
advancement goes through the competition services, every result through the append service
and the real scoring tasks (in-process on the embedded default, on the workers when
REDIS_URL is set). ``--seed`` makes the bots' choices; the digital matches' decks come from
``secrets``, as every match's do, so the hands of the final's deal in play are nobody's
to know from the seed (two runs deal differently). A second, smaller tournament
("Tuesday ladder", four teams, a round robin in score mode) has its first round just
published and every match waiting for its first deal, with the other team's confirmation
asked: the web pages' phone score-keeping can be tried on it at once. Two of the club
evening's players (Asha and Dev) play the ladder too, each with a new partner. A third
("Online friendly", two of the ladder's teams) is one digital match, dealt and waiting for
its players to bid and play on their seat pages (``/play/<id>/``). A fourth ("Table
night", two of the club evening's teams) is one match played with real cards, waiting for the
score-keeper to record it card by card (``/record/<id>/``).
Both belong to one club, "Friday Seep Club" (time zone Asia/Kolkata), which the organizer
directs; its players are the club's members, one member per person: a name the club has
already (case and spacing ignored) is that member again, in any of its tournaments (and in
the tournaments a second run adds).
Development data: it creates an ``organizer`` superuser whose password is ``organizer``, a
``scorekeeper``, and an account for every member (user name and password: the member's name
in lower case), so it refuses to run unless DEBUG is on.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import random
import time
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.utils.crypto import get_random_string

from competition import demo, presets, services
from competition.models import Fixture, Round, Stage
from competition.selectors import standings_for_stage
from competition.teamlines import TeamLine
from tournaments import clubs, matchlog
from tournaments.clubdate import club_today
from tournaments.models import Club, Match, Player, Tournament

USERNAME = PASSWORD = "organizer"
SCOREKEEPER = "scorekeeper"
CLUB, CLUB_SLUG, CLUB_TIME_ZONE = "Friday Seep Club", "friday-seep-club", "Asia/Kolkata"
PLACE = "The community hall"

#: the club evening's teams, (team, first player, second player), seeded in this order
EVENING_TEAMS = [
    ("Aces", "Asha", "Bilal"), ("Kings", "Chitra", "Dev"), ("Queens", "Esha", "Farhan"),
    ("Jacks", "Gita", "Harpreet"), ("Tens", "Imran", "Jaya"), ("Spades", "Kabir", "Leela"),
    ("Hearts", "Mohan", "Nisha"), ("Diamonds", "Omar", "Priya"), ("Clubs", "Qasim", "Rekha"),
    ("Sweepers", "Sanjay", "Tara"), ("Builders", "Uday", "Veena"), ("Bidders", "Wasim", "Yamini"),
]  # fmt: skip
#: the ladder's teams, seeded in this order: Asha and Dev played the club evening too
#: (for Aces and Kings), each with another partner
LADDER_TEAMS = [
    ("Jokers", "Anil", "Bina"), ("Tigers", "Chetan", "Asha"), ("Lotus", "Eshan", "Dev"),
    ("Peacocks", "Govind", "Hema"),
]  # fmt: skip
#: the club's roster: everyone who plays in either, once
MEMBERS = list(dict.fromkeys(p for _, *pair in EVENING_TEAMS + LADDER_TEAMS for p in pair))
SWISS_FORMAT = {"bazzis": 1, "deal_cap": 3}  # a short club-night match; a draw can happen
#: one deal, or more until the difference decides (a knockout has no draws)
KNOCKOUT_FORMAT = {"bazzis": 1, "deal_cap": 1, "draws": False}
#: the club evening: "a Swiss of 4 rounds, then the top 8 in a knockout", score entry that
#: counts at once (a trusted score-keeper); its knockout is made digital on its desk
EVENING = presets.Preset(
    "swiss_knockout", rounds=4, top=8, mode="score", confirmation="none",
    match_format=SWISS_FORMAT,
)  # fmt: skip
#: the ladder: a round robin, score entry with the other team confirming, no tie-breaks
LADDER = presets.Preset(
    "round_robin", mode="score", confirmation="other_team", match_format=SWISS_FORMAT,
    tiebreaks=(),
)  # fmt: skip
FINAL_MOVES = 30  # how far into the final the bots play
#: a digital match for people, not bots: dealt, waiting for its bid on the players' seat pages
ONLINE_TEAMS = [("Jokers", "Anil", "Bina"), ("Peacocks", "Govind", "Hema")]
ONLINE = presets.Preset("round_robin", mode="digital", match_format={"bazzis": 1, "deal_cap": 2})
#: a table played with real cards, waiting for its score-keeper to record it card by card
TABLE_TEAMS = [("Spades", "Kabir", "Leela"), ("Hearts", "Mohan", "Nisha")]
TABLE = presets.Preset(
    "round_robin", mode="table", confirmation="none", match_format={"bazzis": 1, "deal_cap": 2}
)


class Command(demo.DemoCommand):
    help = (
        "Create a demo club evening (DEBUG only): an 'organizer' superuser (password "
        "'organizer'), 12 teams, a 4-round Swiss stage then a top-8 knockout, played by bots."
    )
    debug_only = "seed_demo creates a superuser with a known password"
    if_empty_help = "do nothing if any tournament exists"
    default_seed = 116

    def seed(self, rng: random.Random, *, if_empty: bool) -> None:
        if if_empty and Tournament.objects.exists():
            self.stdout.write("seed_demo: the database has tournaments already; nothing to do")
            return
        began = time.perf_counter()
        with _quiet("celery.app.trace"):
            organizer, scorekeeper = self._users()
            club = self._club(organizer)
            roster = {name: self._member(club, organizer, name) for name in MEMBERS}
            tournament = self._club_evening(club, organizer, scorekeeper, roster, rng)
            swiss, knockout = tournament.stages.order_by("order")
            services.stage_start(actor=organizer, stage=swiss)
            for _ in range(swiss.rounds or 0):
                round_ = services.round_pair(actor=organizer, stage=swiss)
                services.round_publish(actor=organizer, round=round_)
                self._play_round(round_, rng, scorekeeper)
            found = services.cut_for_stage(knockout)
            for tie in found.undecided if found is not None else []:  # the director draws lots
                services.cut_draw_lot(actor=organizer, stage=knockout, tie=tie.key)
            services.stage_start(actor=organizer, stage=knockout)
            first = knockout.round_set.order_by("number").first()
            assert first is not None
            services.round_publish(actor=organizer, round=first)
            self._play_bracket(knockout, rng)
            ladder = self._ladder(club, organizer, scorekeeper, roster)
            online = self._online(club, organizer, roster)
            table = self._table(club, organizer, scorekeeper, roster)
        self._report(tournament, swiss, knockout, time.perf_counter() - began)
        self.stdout.write(
            f'  "{ladder}": round 1 is being played, its results waiting for a score-keeper '
            "and the other team's confirmation"
        )
        self.stdout.write(
            f'  "{online.tournament}": {online} waits for its players at /play/{online.pk}/ '
            "(each signed in as themselves, or through their team's link)"
        )
        self.stdout.write(
            f'  "{table.tournament}": {table}, played with real cards, waits for the '
            f"score-keeper to record it card by card at /record/{table.pk}/"
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

    def _register(
        self,
        club: Club,
        organizer: Any,
        tournament: Tournament,
        teams: list[tuple[str, str, str]],
        roster: dict[str, Player],
        ratings: list[int | None],
    ) -> None:
        """Register ``teams`` as lines pasted on the desk, naming the club's members."""

        def typed(name: str) -> str:
            # the name alone, as a director types it; "Name #id" only if the club has two
            alone = len(clubs.members_named(club=club, name=name)) == 1
            return name if alone else f"{name} #{roster[name].pk}"

        lines = [
            TeamLine(n, team, typed(first), typed(second), seed=n, rating=rating)
            for n, ((team, first, second), rating) in enumerate(
                zip(teams, ratings, strict=True), start=1
            )
        ]
        services.teams_register(
            actor=organizer, tournament=tournament, lines=lines, checked_in=True
        )

    def _ladder(
        self, club: Club, organizer: Any, scorekeeper: Any, roster: dict[str, Player]
    ) -> Tournament:
        """A round-robin ladder in score mode whose first round waits for its first deals."""
        ladder = services.tournament_create(
            actor=organizer, club=club, name="Tuesday ladder", date=_today(club), place=PLACE,
            published=True, match_format=SWISS_FORMAT, stages=presets.stages_for(LADDER),
        )  # fmt: skip
        stage = ladder.stages.get()
        services.stage_update(actor=organizer, stage=stage, scorekeepers=[scorekeeper])
        self._register(club, organizer, ladder, LADDER_TEAMS, roster, [None] * len(LADDER_TEAMS))
        services.stage_start(actor=organizer, stage=stage)
        services.round_publish(
            actor=organizer, round=services.round_pair(actor=organizer, stage=stage)
        )
        return ladder

    def _online(self, club: Club, organizer: Any, roster: dict[str, Player]) -> Match:
        """A digital friendly of two teams, its match started (dealt from secrets) and
        waiting for its players: each plays their seat on their own phone (``/play/<id>/``)."""
        online = services.tournament_create(
            actor=organizer, club=club, name="Online friendly", date=_today(club), place=PLACE,
            published=True, stages=presets.stages_for(ONLINE),
        )  # fmt: skip
        self._register(club, organizer, online, ONLINE_TEAMS, roster, [None] * len(ONLINE_TEAMS))
        stage = online.stages.get()
        services.stage_start(actor=organizer, stage=stage)
        services.round_publish(
            actor=organizer, round=services.round_pair(actor=organizer, stage=stage)
        )
        return Match.objects.get(tournament=online)

    def _table(
        self, club: Club, organizer: Any, scorekeeper: Any, roster: dict[str, Player]
    ) -> Match:
        """A table played with real cards (table mode): its match published, not started,
        for the score-keeper to record card by card (``/record/<id>/``): who deals first, the
        bid with the floor, each play."""
        night = services.tournament_create(
            actor=organizer, club=club, name="Table night", date=_today(club), place=PLACE,
            published=True, stages=presets.stages_for(TABLE),
        )  # fmt: skip
        stage = night.stages.get()
        services.stage_update(
            actor=organizer, stage=stage, scorekeepers=[scorekeeper], start_matches=False
        )
        self._register(club, organizer, night, TABLE_TEAMS, roster, [None] * len(TABLE_TEAMS))
        services.stage_start(actor=organizer, stage=stage)
        services.round_publish(
            actor=organizer, round=services.round_pair(actor=organizer, stage=stage)
        )
        return Match.objects.get(tournament=night)

    def _club_evening(
        self,
        club: Club,
        organizer: Any,
        scorekeeper: Any,
        roster: dict[str, Player],
        rng: random.Random,
    ) -> Tournament:
        """The club evening, its stages adjusted and its teams registered, none started."""
        slug = services.unique_slug("Club evening", club=club)  # club-evening, -2, ...
        name = "Club evening" + slug.removeprefix("club-evening").replace("-", " ")
        tournament = services.tournament_create(
            actor=organizer, club=club, name=name, slug=slug, date=_today(club), place=PLACE,
            published=True, match_format=SWISS_FORMAT, stages=presets.stages_for(EVENING),
        )  # fmt: skip
        swiss, knockout = tournament.stages.order_by("order")
        # What the preset does not say, changed on the desk before the stages start: the
        # score-keeper enters the Swiss; the knockout is digital, one deal a match; the bots
        # draw each match's first dealer (from the seed) as they start it, dealt from secrets.
        services.stage_update(
            actor=organizer, stage=swiss, start_matches=False, scorekeepers=[scorekeeper]
        )
        services.stage_update(
            actor=organizer, stage=knockout, mode="digital", confirmation="none",
            match_format=KNOCKOUT_FORMAT, start_matches=False,
        )  # fmt: skip
        ratings: list[int | None] = [rng.randrange(1200, 1800) for _ in EVENING_TEAMS]
        self._register(club, organizer, tournament, EVENING_TEAMS, roster, ratings)
        return tournament

    def _play_round(self, round_: Round, rng: random.Random, scorekeeper: Any) -> None:
        for fixture in round_.fixtures.filter(match__isnull=False).select_related("match"):
            assert fixture.match is not None
            demo.play(fixture.match, rng, actor=scorekeeper, decks=matchlog.secure_deck)

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
            demo.play(
                fixture.match, rng, moves=FINAL_MOVES if final else None,
                decks=matchlog.secure_deck,
            )  # fmt: skip
            if final:
                return

    def _report(
        self, tournament: Tournament, swiss: Stage, knockout: Stage, seconds: float
    ) -> None:
        write = self.stdout.write
        matches = Match.objects.filter(tournament=tournament)
        finished = matches.filter(status=Match.Status.FINISHED).count()
        write(
            f'seed_demo: "{tournament}": {len(EVENING_TEAMS)} teams, {matches.count()} matches '
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
    return club_today(club)


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
