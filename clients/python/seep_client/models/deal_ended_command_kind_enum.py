from enum import StrEnum


class DealEndedCommandKindEnum(StrEnum):
    DEAL_ENDED = "deal_ended"

    def __str__(self) -> str:
        return str(self.value)
