"""A match's history without the database: its words, its state, the fold and the planner.

- ``kinds``: event kinds, match statuses and play modes (the models take their choices here);
- ``state``: ``MatchState``, where a match stands between events (what a snapshot stores);
- ``fold``: ``apply_event``/``replay``, the one place a match's state changes;
- ``planner``: ``plan``, the events a client's command makes;
- ``decks``: shuffled decks for digital deals.
"""

from .decks import Shuffle, repeatable_decks, secure_deck
from .fold import Event, apply_event, match_outcome, other_version, owns, replay
from .kinds import (
    COMMANDS,
    CORRECTIONS,
    SERVICE_COMMANDS,
    Confirmation,
    Kind,
    Mode,
    Status,
    choices,
)
from .ledger import Counted
from .planner import MatchSetup, plan
from .state import (
    LINK_VIA,
    Entry,
    LogInconsistent,
    MatchState,
    author,
    link_author,
    link_side,
    link_via,
)

MATCH_STARTED, DEAL_STARTED, MOVE_PLAYED = Kind.MATCH_STARTED, Kind.DEAL_STARTED, Kind.MOVE_PLAYED
DEAL_ENDED, MATCH_ENDED = Kind.DEAL_ENDED, Kind.MATCH_ENDED
SCHEDULED, IN_PROGRESS, FINISHED = Status.SCHEDULED, Status.IN_PROGRESS, Status.FINISHED
CALLED_OFF = Status.CALLED_OFF
DIGITAL, TABLE, SCORE = Mode.DIGITAL, Mode.TABLE, Mode.SCORE

__all__ = [
    "CALLED_OFF",
    "COMMANDS",
    "CORRECTIONS",
    "DEAL_ENDED",
    "DEAL_STARTED",
    "DIGITAL",
    "FINISHED",
    "IN_PROGRESS",
    "LINK_VIA",
    "MATCH_ENDED",
    "MATCH_STARTED",
    "MOVE_PLAYED",
    "SCHEDULED",
    "SCORE",
    "SERVICE_COMMANDS",
    "TABLE",
    "Confirmation",
    "Counted",
    "Entry",
    "Event",
    "Kind",
    "LogInconsistent",
    "MatchSetup",
    "MatchState",
    "Mode",
    "Shuffle",
    "Status",
    "apply_event",
    "author",
    "choices",
    "link_author",
    "link_side",
    "link_via",
    "match_outcome",
    "other_version",
    "owns",
    "plan",
    "repeatable_decks",
    "replay",
    "secure_deck",
]
