from enum import StrEnum


class ReasonEnum(StrEnum):
    LEAD = "lead"
    MINIMUM = "minimum"

    def __str__(self) -> str:
        return str(self.value)
