from enum import StrEnum


class DealRejectedCommandKindEnum(StrEnum):
    DEAL_REJECTED = "deal_rejected"

    def __str__(self) -> str:
        return str(self.value)
