from enum import StrEnum


class WithdrawalEnum(StrEnum):
    BYE = "bye"
    FORFEIT = "forfeit"

    def __str__(self) -> str:
        return str(self.value)
