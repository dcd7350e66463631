from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from .models import Team, Tournament

        for model in (Tournament, Team):
            name = model.__name__
            post_save.connect(_tournament_changed, sender=model, dispatch_uid=f"live.{name}")
            post_delete.connect(_tournament_changed, sender=model, dispatch_uid=f"live-gone.{name}")


def _tournament_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """The live parts show the tournament and its teams: tell the push processes."""
    from . import live

    live.publish("t", instance.pk if sender.__name__ == "Tournament" else instance.tournament_id)
