from enum import StrEnum


class BracketFixtureStatusEnum(StrEnum):
    BYE = "bye"
    DECIDED = "decided"
    PLAYING = "playing"
    READY = "ready"
    VOID = "void"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
