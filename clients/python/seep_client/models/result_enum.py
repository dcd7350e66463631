from enum import StrEnum


class ResultEnum(StrEnum):
    A = "a"
    B = "b"
    BYE = "bye"
    DRAW = "draw"
    FORFEIT_A = "forfeit_a"
    FORFEIT_B = "forfeit_b"
    VOID = "void"

    def __str__(self) -> str:
        return str(self.value)
