from enum import StrEnum


class DealCorrectedCommandKindEnum(StrEnum):
    DEAL_CORRECTED = "deal_corrected"

    def __str__(self) -> str:
        return str(self.value)
