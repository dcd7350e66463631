from enum import StrEnum


class MovePlayedCommandKindEnum(StrEnum):
    MOVE_PLAYED = "move_played"

    def __str__(self) -> str:
        return str(self.value)
