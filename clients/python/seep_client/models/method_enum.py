from enum import StrEnum


class MethodEnum(StrEnum):
    LOT = "lot"
    ORDER = "order"

    def __str__(self) -> str:
        return str(self.value)
