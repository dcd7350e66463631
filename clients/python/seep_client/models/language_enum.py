from enum import StrEnum


class LanguageEnum(StrEnum):
    BN = "bn"
    EN = "en"
    HI = "hi"
    PA = "pa"
    UR = "ur"

    def __str__(self) -> str:
        return str(self.value)
