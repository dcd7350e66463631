from enum import StrEnum


class MoveWithdrawnCommandKindEnum(StrEnum):
    MOVE_WITHDRAWN = "move_withdrawn"

    def __str__(self) -> str:
        return str(self.value)
