from typing import Any

from django.apps import AppConfig


class CompetitionConfig(AppConfig):
    name = "competition"
    verbose_name = "Competition"

    def ready(self) -> None:
        from scoring.signals import match_completed, projections_rebuilt

        match_completed.connect(_on_match_completed, dispatch_uid="competition.match_completed")
        projections_rebuilt.connect(_rebuild_standings, dispatch_uid="competition.rebuild")


def _on_match_completed(sender: Any, match_id: int, **kwargs: Any) -> None:
    """A match scoring saw end: record its fixture's result and send its teams on."""
    from .services import fixture_match_completed

    fixture_match_completed(match_id=match_id)


def _rebuild_standings(sender: Any, **kwargs: Any) -> str:
    """``rebuild_projections`` rebuilt the match projections: rebuild every stage's standings."""
    from .standings import rebuild_all_standings

    return rebuild_all_standings()
