"""The words of a match's history, defined once: event kinds, match statuses and play modes.

Plain string enums (no Django): the fold and the planner compare stored strings with them, and
the models take their database choices from them (``choices``), so a new kind is added here
and nowhere else.
"""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """What an event records; past-tense facts (docs/events.md)."""

    MATCH_STARTED = "match_started"
    DEAL_STARTED = "deal_started"
    MOVE_PLAYED = "move_played"
    DEAL_ENDED = "deal_ended"
    MATCH_ENDED = "match_ended"


class Status(StrEnum):
    """Where a match is in its life, as its log says."""

    SCHEDULED = "scheduled"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"


class Mode(StrEnum):
    """How a match is recorded (docs/rules.md, "What the three play modes check")."""

    DIGITAL = "digital"
    TABLE = "table"
    SCORE = "score"


LABELS: dict[StrEnum, str] = {
    Kind.MATCH_STARTED: "match started",
    Kind.DEAL_STARTED: "deal started",
    Kind.MOVE_PLAYED: "move played",
    Kind.DEAL_ENDED: "deal ended",
    Kind.MATCH_ENDED: "match ended",
    Status.SCHEDULED: "scheduled",
    Status.IN_PROGRESS: "in progress",
    Status.FINISHED: "finished",
    Mode.DIGITAL: "digital (the server deals)",
    Mode.TABLE: "table (every move recorded at a physical table)",
    Mode.SCORE: "score (each deal's result entered)",
}


def choices(enum: type[StrEnum]) -> list[tuple[str, str]]:
    """Return ``enum``'s members as Django field choices: (value, label) pairs."""
    return [(member.value, LABELS[member]) for member in enum]


#: the kinds a client may ask for; the others are derived by the server
COMMANDS = (Kind.MATCH_STARTED, Kind.MOVE_PLAYED, Kind.DEAL_ENDED)
