from enum import StrEnum


class VersionAcceptedCommandKindEnum(StrEnum):
    VERSION_ACCEPTED = "version_accepted"

    def __str__(self) -> str:
        return str(self.value)
