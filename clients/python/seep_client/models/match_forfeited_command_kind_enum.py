from enum import StrEnum


class MatchForfeitedCommandKindEnum(StrEnum):
    MATCH_FORFEITED = "match_forfeited"

    def __str__(self) -> str:
        return str(self.value)
