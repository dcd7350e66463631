from enum import StrEnum


class MatchStartedCommandKindEnum(StrEnum):
    MATCH_STARTED = "match_started"

    def __str__(self) -> str:
        return str(self.value)
