from enum import StrEnum


class MatchesListStatus(StrEnum):
    CALLED_OFF = "called_off"
    FINISHED = "finished"
    IN_PROGRESS = "in_progress"
    SCHEDULED = "scheduled"

    def __str__(self) -> str:
        return str(self.value)
