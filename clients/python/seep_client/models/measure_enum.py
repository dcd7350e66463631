from enum import StrEnum


class MeasureEnum(StrEnum):
    CONSERVATIVE = "conservative"
    SUM = "sum"

    def __str__(self) -> str:
        return str(self.value)
