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
    # a table's recorder taking back the last play before the next one (docs/events.md)
    MOVE_WITHDRAWN = "move_withdrawn"
    DEAL_ENDED = "deal_ended"
    MATCH_ENDED = "match_ended"
    # score entry with confirmation (docs/events.md, "Score mode")
    DEAL_ENTERED = "deal_entered"
    DEAL_CONFIRMED = "deal_confirmed"
    DEAL_REJECTED = "deal_rejected"
    DEAL_DISPUTED = "deal_disputed"
    # disputes the table settles itself (docs/events.md, "Settling at the table")
    ENTRY_WITHDRAWN = "entry_withdrawn"
    VERSION_ACCEPTED = "version_accepted"
    # a director's corrections
    DEAL_CORRECTED = "deal_corrected"
    DEAL_VOIDED = "deal_voided"
    SCORE_ADJUSTED = "score_adjusted"
    MATCH_FORFEITED = "match_forfeited"
    MATCH_REOPENED = "match_reopened"
    # a round taken back before anything was recorded in it (docs/events.md, "Called off")
    MATCH_CALLED_OFF = "match_called_off"


class Status(StrEnum):
    """Where a match is in its life, as its log says."""

    SCHEDULED = "scheduled"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    CALLED_OFF = "called_off"  # taken back before anything was recorded; never played


class Confirmation(StrEnum):
    """Who must agree before an entered deal result counts (score mode)."""

    NONE = "none"  # the score-keeper's entry counts at once
    OTHER_TEAM = "other_team"  # one side enters, someone of the other side confirms
    BOTH_ENTER = "both_enter"  # each side enters; matching entries confirm each other


class Mode(StrEnum):
    """How a match is recorded (docs/rules.md, "What the three play modes check")."""

    DIGITAL = "digital"
    TABLE = "table"
    SCORE = "score"


LABELS: dict[StrEnum, str] = {
    Kind.MATCH_STARTED: "match started",
    Kind.DEAL_STARTED: "deal started",
    Kind.MOVE_PLAYED: "move played",
    Kind.MOVE_WITHDRAWN: "move withdrawn",
    Kind.DEAL_ENDED: "deal ended",
    Kind.MATCH_ENDED: "match ended",
    Kind.DEAL_ENTERED: "deal entered",
    Kind.DEAL_CONFIRMED: "deal confirmed",
    Kind.DEAL_REJECTED: "deal rejected",
    Kind.DEAL_DISPUTED: "deal disputed",
    Kind.ENTRY_WITHDRAWN: "entry withdrawn",
    Kind.VERSION_ACCEPTED: "version accepted",
    Kind.DEAL_CORRECTED: "deal corrected",
    Kind.DEAL_VOIDED: "deal voided",
    Kind.SCORE_ADJUSTED: "score adjusted",
    Kind.MATCH_FORFEITED: "match forfeited",
    Kind.MATCH_REOPENED: "match reopened",
    Kind.MATCH_CALLED_OFF: "match called off",
    Confirmation.NONE: "no confirmation",
    Confirmation.OTHER_TEAM: "the other team confirms",
    Confirmation.BOTH_ENTER: "both teams enter, matching entries count",
    Status.SCHEDULED: "scheduled",
    Status.IN_PROGRESS: "in progress",
    Status.FINISHED: "finished",
    Status.CALLED_OFF: "called off",
    Mode.DIGITAL: "digital (the server deals)",
    Mode.TABLE: "table (every move recorded at a physical table)",
    Mode.SCORE: "score (each deal's result entered)",
}


def choices(enum: type[StrEnum]) -> list[tuple[str, str]]:
    """Return ``enum``'s members as Django field choices: (value, label) pairs."""
    return [(member.value, LABELS[member]) for member in enum]


#: a director's corrections: each a new event with its reason, never a rewrite
CORRECTIONS = (Kind.DEAL_CORRECTED, Kind.DEAL_VOIDED, Kind.SCORE_ADJUSTED, Kind.MATCH_FORFEITED)
#: the kinds a client may ask for; the others are derived by the server
COMMANDS = (
    Kind.MATCH_STARTED,
    Kind.MOVE_PLAYED,
    Kind.MOVE_WITHDRAWN,
    Kind.DEAL_ENDED,
    Kind.DEAL_ENTERED,
    Kind.DEAL_CONFIRMED,
    Kind.DEAL_REJECTED,
    Kind.ENTRY_WITHDRAWN,
    Kind.VERSION_ACCEPTED,
    *CORRECTIONS,
)
#: the kinds only the server's own services append, for a director (a round unpublished:
#: ``competition.round_unpublish``); no client asks for them through the API or the pages
SERVICE_COMMANDS = (Kind.MATCH_CALLED_OFF,)
