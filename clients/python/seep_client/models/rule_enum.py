from enum import StrEnum


class RuleEnum(StrEnum):
    PLACES = "places"
    WINS = "wins"

    def __str__(self) -> str:
        return str(self.value)
