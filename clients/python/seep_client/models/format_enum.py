from enum import StrEnum


class FormatEnum(StrEnum):
    DOUBLE_ELIMINATION = "double_elimination"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    GROUPS = "groups"
    ROUND_ROBIN = "round_robin"
    SINGLE_ELIMINATION = "single_elimination"
    SWISS = "swiss"

    def __str__(self) -> str:
        return str(self.value)
