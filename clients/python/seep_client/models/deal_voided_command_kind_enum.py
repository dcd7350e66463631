from enum import StrEnum


class DealVoidedCommandKindEnum(StrEnum):
    DEAL_VOIDED = "deal_voided"

    def __str__(self) -> str:
        return str(self.value)
