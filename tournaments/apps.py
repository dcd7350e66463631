from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from .models import Team, Tournament
        from .signals import follow_rows

        follow_rows(_tournament_changed, (Tournament, Team))


def _tournament_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """The live parts show the tournament and its teams: tell the push processes."""
    import live

    live.publish("t", instance.pk if sender.__name__ == "Tournament" else instance.tournament_id)
