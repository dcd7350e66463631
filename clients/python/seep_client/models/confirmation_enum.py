from enum import StrEnum


class ConfirmationEnum(StrEnum):
    BOTH_ENTER = "both_enter"
    NONE = "none"
    OTHER_TEAM = "other_team"

    def __str__(self) -> str:
        return str(self.value)
