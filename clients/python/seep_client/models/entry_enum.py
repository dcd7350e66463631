from enum import StrEnum


class EntryEnum(StrEnum):
    REGISTERED = "registered"
    TOP = "top"
    TOP_PER_GROUP = "top_per_group"

    def __str__(self) -> str:
        return str(self.value)
