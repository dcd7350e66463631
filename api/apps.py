from typing import Any

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "API"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from tournaments.models import Team

        from . import webhooks
        from .models import ApiToken

        webhooks.connect()
        post_save.connect(_team_changed, sender=Team, dispatch_uid="api-team-changed")
        post_delete.connect(_team_changed, sender=Team, dispatch_uid="api-team-deleted")
        # a token or a user changed: no process trusts a token it verified before (api.auth)
        user = get_user_model()
        post_save.connect(_token_saved, sender=ApiToken, dispatch_uid="api-token-saved")
        post_delete.connect(_forget, sender=ApiToken, dispatch_uid="api-token-deleted")
        post_save.connect(_user_saved, sender=user, dispatch_uid="api-token-user-saved")
        post_delete.connect(_forget, sender=user, dispatch_uid="api-token-user-deleted")


def _forget(sender: Any, **kwargs: Any) -> None:
    from .auth import forget_tokens

    forget_tokens()


def _token_saved(sender: Any, created: bool, **kwargs: Any) -> None:
    if not created:  # a new token is verified when it is first used
        _forget(sender)


def _user_saved(sender: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    # Not for a new user (no token yet), nor for the time of a sign-in, saved on its own.
    if not created and set(update_fields or ()) != {"last_login"}:
        _forget(sender)


def _team_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A team's name is in the cached standings (api.views.StageStandings): renew them once
    the change commits (a table rendered before that has the old name, rightly; at once,
    outside a transaction)."""
    from django.db import transaction

    from .views import renew_team_generation

    transaction.on_commit(lambda: renew_team_generation(instance.tournament_id), robust=True)
