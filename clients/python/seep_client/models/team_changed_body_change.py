from enum import StrEnum


class TeamChangedBodyChange(StrEnum):
    CHECKED_IN = "checked_in"
    CHECKED_OUT = "checked_out"
    REGISTERED = "registered"
    REINSTATED = "reinstated"
    RENAMED = "renamed"
    WITHDRAWN = "withdrawn"

    def __str__(self) -> str:
        return str(self.value)
