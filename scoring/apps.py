from typing import Any

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from tournaments.signals import log_appended

        log_appended.connect(_project_after_append, dispatch_uid="scoring.project_after_append")
        from django.db.models.signals import post_save

        from .models import MatchResult

        post_save.connect(_result_written, sender=MatchResult, dispatch_uid="scoring.live")


def _project_after_append(sender: Any, match_id: int, **kwargs: Any) -> None:
    """Schedule the match's projection: the log it folds has grown."""
    from .tasks import schedule_projection

    schedule_projection(match_id)


def _result_written(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A match's result projection was written: the live parts that show it follow."""
    from tournaments import live

    live.publish("r", instance.match_id)
