from typing import Any

from django.apps import AppConfig

from scoring.signals import match_completed, projections_rebuilt
from tournaments.signals import Receivers, member_erased, verifying

from .signals import standings_due

receivers = Receivers("competition")


class CompetitionConfig(AppConfig):
    name = "competition"
    verbose_name = "Competition"

    def ready(self) -> None:
        from tournaments import happenings

        from .happenings import name_match_sources

        receivers.connect()
        happenings.shape_with(happenings.MATCH_COMPLETED, name_match_sources)
        happenings.shape_with(happenings.MATCH_REOPENED, name_match_sources)


@receivers.on(standings_due, "standings_due")
def _send_standings_task(sender: Any, stage_id: int, **kwargs: Any) -> None:
    """A committed change the stage's standings must follow: send its standings task. A send
    the broker refuses is kept and tried again until it answers (``scoring.resend``: within
    about a second of the broker coming back, one message a stage), as the projection's are;
    while sends are held, this one is kept without a try. Any other failure is the sender's
    to log (``services._common.schedule_standings``)."""
    from scoring import resend

    from .tasks import update_standings

    def send() -> None:
        update_standings.delay(stage_id)

    if update_standings.app.conf.task_always_eager:
        send()
    elif not resend.held.try_send(send):
        resend.held.keep(("standings", stage_id), send)


@receivers.on(match_completed, "match_completed")
def _on_match_completed(sender: Any, match_id: int, **kwargs: Any) -> None:
    """A match's result is new or changed: its fixture follows, and what follows from it."""
    from .services import fixture_match_completed

    fixture_match_completed(match_id=match_id)


@receivers.on(projections_rebuilt, "rebuild")
def _rebuild_standings(sender: Any, **kwargs: Any) -> str:
    """``rebuild_projections`` rebuilt the match projections: rebuild every stage's standings."""
    from .standings import rebuild_all_standings

    return rebuild_all_standings()


@receivers.on(verifying, "round_records")
def _round_records(sender: Any, match_id: int, **kwargs: Any) -> list[Any]:
    """``verify_match``: the heads of the match's log each completed round recorded."""
    from .services import round_record_anchors

    return round_record_anchors(match_id)


@receivers.on(member_erased, "member_erased")
def _scrub_notices(sender: Any, renamed: Any, **kwargs: Any) -> None:
    """A member's erasure: the desk's notices of their tournaments name them no more."""
    from .models import Notice

    for notice in Notice.objects.filter(stage__tournament__in=renamed.tournaments):
        message = renamed.scrub(notice.message)
        if message != notice.message:
            Notice.objects.filter(pk=notice.pk).update(message=message)
