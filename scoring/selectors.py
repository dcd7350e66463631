"""Reading the scoring read models (and finding the matches whose projection lags its log)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, F, OuterRef, Q, QuerySet

from tournaments.models import Match, MatchEvent

from .models import DealResult, MatchResult


def match_result(*, match: Match | int) -> MatchResult | None:
    """Return the match's result as far as the projection has folded its log (None: not yet).

    ``result.seq`` is the last event folded in; compare it with ``match.last_seq`` to tell
    whether the result is current.
    """
    match_id = match.pk if isinstance(match, Match) else match
    return MatchResult.objects.filter(match_id=match_id).first()


def deal_results(*, match: Match | int) -> QuerySet[DealResult]:
    """Return the match's scored deals in deal order."""
    match_id = match.pk if isinstance(match, Match) else match
    return DealResult.objects.filter(match_id=match_id).order_by("deal")


def lagging_matches(*, recorded_before: datetime | None = None) -> QuerySet[Match]:
    """Return the matches whose projection is behind their log, oldest first.

    A match lags when it has events and no result row, or a checkpoint before the head of
    its log. With ``recorded_before``, only matches whose last event was recorded by then:
    a match appended to a moment ago has its own task on the way.
    """
    lagging = Match.objects.filter(last_seq__gt=0).filter(
        Q(result__isnull=True) | Q(result__seq__lt=F("last_seq"))
    )
    if recorded_before is not None:
        head = MatchEvent.objects.filter(
            match=OuterRef("pk"), seq=OuterRef("last_seq"), recorded_at__lte=recorded_before
        )
        lagging = lagging.filter(Exists(head))
    return lagging.order_by("pk")
