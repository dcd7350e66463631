from enum import StrEnum


class StageStatusEnum(StrEnum):
    COMPLETE = "complete"
    PENDING = "pending"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
