from enum import StrEnum


class DealEnteredCommandKindEnum(StrEnum):
    DEAL_ENTERED = "deal_entered"

    def __str__(self) -> str:
        return str(self.value)
