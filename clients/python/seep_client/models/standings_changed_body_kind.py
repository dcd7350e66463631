from enum import StrEnum


class StandingsChangedBodyKind(StrEnum):
    DEAL_CORRECTED = "deal.corrected"
    DEAL_RECORDED = "deal.recorded"
    DEAL_VOIDED = "deal.voided"
    FIXTURE_FILLED = "fixture.filled"
    MATCH_COMPLETED = "match.completed"
    MATCH_MADE = "match.made"
    MATCH_REOPENED = "match.reopened"
    ROUND_PUBLISHED = "round.published"
    ROUND_UNPUBLISHED = "round.unpublished"
    STANDINGS_CHANGED = "standings.changed"
    TEAM_CHANGED = "team.changed"
    TOURNAMENT_CHANGED = "tournament.changed"

    def __str__(self) -> str:
        return str(self.value)
