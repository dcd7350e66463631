from enum import StrEnum


class ModeEnum(StrEnum):
    DIGITAL = "digital"
    SCORE = "score"
    TABLE = "table"

    def __str__(self) -> str:
        return str(self.value)
