from enum import StrEnum


class PlayerEnum(StrEnum):
    FIRST = "first"
    SECOND = "second"

    def __str__(self) -> str:
        return str(self.value)
