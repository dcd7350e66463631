from typing import Any

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "API"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from tournaments import quotas
        from tournaments.signals import member_erased

        from . import services, webhooks
        from .models import ApiToken

        webhooks.connect()
        # what the club's desk shows of its quotas: the API's rows, counted here
        quotas.count_with("webhooks", services.club_webhooks)
        quotas.count_with("tokens", services.club_tokens)
        member_erased.connect(_scrub_bodies, dispatch_uid="api-member-erased")
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


def _scrub_bodies(sender: Any, renamed: Any, **kwargs: Any) -> None:
    """A member's erasure: the results log's entries and the webhook deliveries kept of their
    tournaments name them, and their teams, by the new names (docs/privacy.md)."""
    from tournaments.models import Happening

    from .models import ApiToken, WebhookDelivery

    if renamed.retired_account is not None:  # its tokens are its, and named by the person
        ApiToken.objects.filter(user_id=renamed.retired_account).delete()

    for model, where in (
        (Happening, {"tournament__in": renamed.tournaments}),
        (WebhookDelivery, {"webhook__tournament__in": renamed.tournaments}),
    ):
        for pk, body in model.objects.filter(**where).values_list("pk", "body").iterator():
            if renamed.found_in_json(body):
                model.objects.filter(pk=pk).update(body=renamed.scrub_json(body))
