from enum import StrEnum


class ActionEnum(StrEnum):
    BID = "bid"
    BUILD = "build"
    CAPTURE = "capture"
    REDEAL = "redeal"
    THROW = "throw"

    def __str__(self) -> str:
        return str(self.value)
