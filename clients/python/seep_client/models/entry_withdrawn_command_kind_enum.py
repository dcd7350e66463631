from enum import StrEnum


class EntryWithdrawnCommandKindEnum(StrEnum):
    ENTRY_WITHDRAWN = "entry_withdrawn"

    def __str__(self) -> str:
        return str(self.value)
