from enum import StrEnum


class ScoreAdjustedCommandKindEnum(StrEnum):
    SCORE_ADJUSTED = "score_adjusted"

    def __str__(self) -> str:
        return str(self.value)
