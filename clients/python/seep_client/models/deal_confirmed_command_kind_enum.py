from enum import StrEnum


class DealConfirmedCommandKindEnum(StrEnum):
    DEAL_CONFIRMED = "deal_confirmed"

    def __str__(self) -> str:
        return str(self.value)
