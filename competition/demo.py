"""Bots that play and score matches through the real services: for the demo, tests and benches.

A bot plays a digital match by choosing random legal moves, each sent through the append
service; a score-keeper bot enters each deal's result in a score match, the result of a
deal the engine plays out at random (so the numbers are ones a real deal gives). Everything
they do goes through ``tournaments.services.match_append_event``, and every result is
computed by the real scoring tasks.

The bots' choices come from the random generator they are given; so do the decks of a
digital match, unless ``decks`` says otherwise: tests and benches replay a match from a seed,
while ``seed_demo`` deals from ``matchlog.secure_deck`` as every real match is dealt, so
nobody who knows the demo's seed knows the hands of its deal in play.

``DemoCommand`` is what the demo's commands (``seed_demo``, ``seed_demo_seasons``) share:
DEBUG only, ``--if-empty`` and ``--seed``.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

import seep_core as sc
from tournaments import matchlog
from tournaments.access import SYSTEM
from tournaments.models import Match
from tournaments.selectors import current_deal, match_state
from tournaments.services import match_append_event


class DemoCommand(BaseCommand):
    """A command that makes demo data: refused unless DEBUG, with ``--if-empty`` and ``--seed``.

    A subclass says why it runs with DEBUG only (``debug_only``), what ``--if-empty`` looks
    for (``if_empty_help``) and its default seed, and makes its data in ``seed``.
    """

    debug_only = "it makes demo data"
    if_empty_help = "do nothing if there is demo data already"
    default_seed = 0

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--if-empty", action="store_true", help=self.if_empty_help)
        parser.add_argument(
            "--seed",
            type=int,
            default=self.default_seed,
            help=f"random seed (default {self.default_seed})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(f"{self.debug_only}: run it with DEBUG=1 only")
        self.seed(random.Random(options["seed"]), if_empty=options["if_empty"])

    def seed(self, rng: random.Random, *, if_empty: bool) -> None:
        """Make the demo data, its random choices from ``rng``."""
        raise NotImplementedError


#: a safety net per match: a random game ends long before (not a rule)
MOVE_LIMIT = 20_000


def start(
    match: Match,
    rng: random.Random,
    actor: Any = SYSTEM,
    *,
    decks: matchlog.Shuffle | None = None,
) -> None:
    """Start a scheduled match with a first dealer drawn from ``rng``, dealt from ``decks``
    (None: decks drawn from ``rng``)."""
    match.refresh_from_db()
    if match.status != Match.Status.SCHEDULED:
        return
    match_append_event(
        match=match, expected_seq=match.last_seq, kind=matchlog.MATCH_STARTED,
        payload={"first_dealer": rng.randrange(4)}, actor=actor,
        shuffle=decks or matchlog.repeatable_decks(rng),
    )  # fmt: skip


def random_deal_result(rng: random.Random, dealer: int, rules: sc.Rules) -> dict[str, Any]:
    """Return the score of a deal the engine plays out with random legal moves."""
    while True:
        deck = sc.ordered_deck()
        rng.shuffle(deck)
        deal = sc.new_deal(dealer, deck, rules)
        while deal.phase not in ("over", "redealt"):
            deal = sc.apply(deal, rng.choice(sc.legal_moves(deal)))
        if deal.phase == "over":
            return sc.score(deal)


def play(
    match: Match,
    rng: random.Random,
    *,
    moves: int | None = None,
    actor: Any = SYSTEM,
    decks: matchlog.Shuffle | None = None,
) -> int:
    """Play (digital) or score (score mode) ``match`` to its end, or for ``moves`` appends,
    its deals dealt from ``decks`` (None: decks drawn from ``rng``).

    Returns how many appends were made.
    """
    match.refresh_from_db()
    start(match, rng, decks=decks)
    match.refresh_from_db()
    limit = MOVE_LIMIT if moves is None else moves
    shuffle = decks or matchlog.repeatable_decks(rng)
    made = 0
    rules = sc.Rules.from_dict(match.rules)
    while made < limit and match.status == Match.Status.IN_PROGRESS:
        if match.mode == Match.Mode.DIGITAL:
            deal = current_deal(match)
            assert deal is not None  # a digital match in progress has a deal in play
            kind, payload = matchlog.MOVE_PLAYED, {"move": rng.choice(sc.legal_moves(deal))}
        else:
            progress = match_state(match).progress
            assert progress is not None  # a match in progress
            score = random_deal_result(rng, progress.dealer, rules)
            kind, payload = (
                matchlog.DEAL_ENDED,
                {"points": score["points"], "sweeps": score["sweeps"]},
            )
        result_ = match_append_event(
            match=match, expected_seq=match.last_seq, kind=kind, payload=payload, actor=actor,
            shuffle=shuffle,
        )  # fmt: skip
        made += 1
        match.last_seq = result_.last_seq
        match.refresh_from_db(fields=["status", "last_seq", "last_hash"])
    return made
