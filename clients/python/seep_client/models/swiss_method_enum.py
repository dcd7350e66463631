from enum import StrEnum


class SwissMethodEnum(StrEnum):
    ADJACENT = "adjacent"
    FOLD = "fold"
    SLIDE = "slide"

    def __str__(self) -> str:
        return str(self.value)
