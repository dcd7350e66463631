from enum import StrEnum


class RoundUnpublishedBodyKind(StrEnum):
    DEAL_RECORDED = "deal.recorded"
    MATCH_COMPLETED = "match.completed"
    ROUND_PUBLISHED = "round.published"
    ROUND_UNPUBLISHED = "round.unpublished"
    STANDINGS_CHANGED = "standings.changed"

    def __str__(self) -> str:
        return str(self.value)
