from enum import StrEnum


class SeedingEnum(StrEnum):
    MANUAL = "manual"
    RANDOM = "random"
    RATING = "rating"
    STANDINGS = "standings"

    def __str__(self) -> str:
        return str(self.value)
