"""Decks for digital deals: shuffled with the operating system's CSPRNG, or repeatable for demos."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

import seep_core as sc

Shuffle = Callable[[], list[str]]


def secure_deck() -> list[str]:
    """Return the 52 card codes shuffled with the operating system's CSPRNG (``secrets``)."""
    deck = sc.ordered_deck()
    secrets.SystemRandom().shuffle(deck)
    return deck


def repeatable_decks(seed: int | random.Random) -> Shuffle:
    """Return a shuffle that deals the same decks again for the same seed.

    For demos, tests and benchmarks only: real matches are dealt with ``secure_deck``.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def shuffle() -> list[str]:
        deck = sc.ordered_deck()
        rng.shuffle(deck)
        return deck

    return shuffle
