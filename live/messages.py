"""The live messages: what changed, typed, and its few bytes on the channel.

A message names one thing that changed (:class:`Topic` and an id) and, for a thing inside a
tournament, that tournament: a push process pokes the feeds of both without reading the
database to learn which tournament a match or a stage belongs to. On the channel a message is
``"<letter> <id>"``, or ``"<letter> <id> <tournament>"``; anything else there is ignored.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Topic(enum.StrEnum):
    """What a message says changed (its value: the letter it is sent as)."""

    #: a match's log grew (a move, a deal entered or confirmed, a correction)
    LOG = "m"
    #: a match's result projection was written
    RESULT = "r"
    #: a stage, its rounds, its fixtures or its standings changed
    STAGE = "s"
    #: the tournament itself or its teams changed
    TOURNAMENT = "t"
    #: the tournament's happenings grew (its results log: tournaments.happenings)
    HAPPENINGS = "x"
    #: what the director's board says of the tournament's tables changed (a phone heard, a
    #: seat claimed or released, a table locked out of codes)
    BOARD = "b"


#: the topics whose id is a tournament's own: their message carries no second one
OF_A_TOURNAMENT = frozenset({Topic.TOURNAMENT, Topic.HAPPENINGS, Topic.BOARD})
#: the topics a tournament's live parts follow besides its own (a result, a stage)
SHOWN_ON_THE_TOURNAMENT = frozenset({Topic.RESULT, Topic.STAGE})
#: the topics the director's board follows besides the tournament's and its own: an entry
#: waiting for its confirmation shows there (and on no public page, which are spared a render)
SHOWN_ON_THE_BOARD = frozenset({Topic.LOG})


@dataclass(frozen=True, slots=True)
class Message:
    """One change: ``topic`` of the thing ``id``, inside ``tournament`` (None: not said)."""

    topic: Topic
    id: int
    tournament: int | None = None

    def encode(self) -> str:
        if self.tournament is None or self.topic in OF_A_TOURNAMENT:
            return f"{self.topic.value} {self.id}"
        return f"{self.topic.value} {self.id} {self.tournament}"

    @classmethod
    def decode(cls, raw: str | bytes) -> Message | None:
        """The message ``raw`` says, or None for anything else on the channel."""
        if isinstance(raw, bytes):
            raw = raw.decode("ascii", "replace")
        parts = raw.split(" ")
        if not 2 <= len(parts) <= 3 or not all(p.isdigit() for p in parts[1:]):
            return None
        try:
            topic = Topic(parts[0])
        except ValueError:
            return None
        tournament = int(parts[2]) if len(parts) == 3 else None
        return cls(topic, int(parts[1]), tournament)

    def feeds(self) -> list[str]:
        """The feed topics this message pokes: its own thing's; its tournament's for a result
        or a stage (the tournament's page shows both; the board follows the tournament's
        too); the tournament's board for a match's log."""
        keys = [key(self.topic, self.id)]
        if self.tournament is not None and self.topic in SHOWN_ON_THE_TOURNAMENT:
            keys.append(key(Topic.TOURNAMENT, self.tournament))
        if self.tournament is not None and self.topic in SHOWN_ON_THE_BOARD:
            keys.append(key(Topic.BOARD, self.tournament))
        return keys


def key(topic: Topic, pk: int) -> str:
    """The name a feed follows ``topic`` of ``pk`` by (``"t12"``)."""
    return f"{topic.value}{int(pk)}"
