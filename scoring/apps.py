from typing import Any

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from tournaments.signals import log_appended

        log_appended.connect(_project_after_append, dispatch_uid="scoring.project_after_append")


def _project_after_append(sender: Any, match_id: int, **kwargs: Any) -> None:
    """Schedule the match's projection: the log it folds has grown."""
    from .tasks import schedule_projection

    schedule_projection(match_id)
