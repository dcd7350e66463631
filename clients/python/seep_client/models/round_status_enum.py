from enum import StrEnum


class RoundStatusEnum(StrEnum):
    COMPLETE = "complete"
    DRAFT = "draft"
    PUBLISHED = "published"

    def __str__(self) -> str:
        return str(self.value)
