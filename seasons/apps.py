import logging
from typing import Any

from django.apps import AppConfig

from competition.signals import standings_changed
from scoring.signals import match_completed, projections_rebuilt
from tournaments.signals import Receivers

log = logging.getLogger(__name__)
receivers = Receivers("seasons")


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = "Seasons"

    def ready(self) -> None:
        from competition.corrections import follow_corrections

        from .corrections import correction_lines

        receivers.connect()
        follow_corrections(correction_lines)


@receivers.on(match_completed, "match_completed")
def _on_match_completed(sender: Any, match_id: int, **kwargs: Any) -> None:
    """A match's result is new or changed: its club's ratings and its evening follow.

    A failure to send (or, with tasks in-process, of the task) is logged and goes no further:
    the sender's work stands, and the beat's ``seasons.tasks.catch_up`` repairs the ratings.
    """
    from .tasks import rate_match

    try:
        rate_match.delay(match_id)
    except Exception:
        log.exception("the ratings after match %s were not brought up to date", match_id)


@receivers.on(standings_changed, "standings")
def _on_standings_changed(sender: Any, stage_id: int, **kwargs: Any) -> None:
    """A stage's standings changed: its evening's places may have."""
    from competition.models import Stage

    from .tasks import update_evening

    tournament_id = Stage.objects.filter(pk=stage_id).values_list("tournament", flat=True).first()
    if tournament_id is None:
        return
    try:
        update_evening.delay(tournament_id)
    except Exception:
        log.exception("the evening of tournament %s was not brought up to date", tournament_id)


@receivers.on(projections_rebuilt, "rebuild")
def _rebuild(sender: Any, **kwargs: Any) -> str:
    """``rebuild_projections`` rebuilt the results and standings: fold the ratings and
    recompute the evenings afresh from them."""
    from .services import rebuild_all_evenings, rebuild_all_ratings

    return f"{rebuild_all_ratings()}; {rebuild_all_evenings()}"
