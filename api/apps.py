from typing import Any

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "API"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from tournaments.models import Team

        from . import webhooks

        webhooks.connect()
        post_save.connect(_team_changed, sender=Team, dispatch_uid="api-team-changed")
        post_delete.connect(_team_changed, sender=Team, dispatch_uid="api-team-deleted")


def _team_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A team's name is in the cached standings (api.views.StageStandings): renew them once
    the change commits (a table rendered before that has the old name, rightly; at once,
    outside a transaction)."""
    from django.db import transaction

    from .views import renew_team_generation

    transaction.on_commit(lambda: renew_team_generation(instance.tournament_id), robust=True)
