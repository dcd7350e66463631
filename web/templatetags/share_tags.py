"""Template filters of the share buttons (``{% load share_tags %}``): which texts a stage of
the tournament page can share now (``web.share.shares``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from competition.models import Notice, Round
from tournaments.models import Tournament
from tournaments.site import absolute_url

from .. import share
from ..pages import StagePage

register = template.Library()


@register.filter("share_kinds")
def share_kinds(page: StagePage) -> list[str]:
    """Return the kinds of text (pairings, results, standings) the stage can share now."""
    return share.shares(page)


def _page_url(context: template.Context, tournament: Tournament) -> str:
    """Return the tournament's public page as a whole address, or "" while it is unpublished
    (the group could not open it)."""
    if not tournament.published:
        return ""
    return absolute_url(context["request"], reverse("web:tournament", args=[tournament.slug]))


@register.simple_tag(takes_context=True)
def notice_share_url(context: template.Context, notice: Notice, tournament: Tournament) -> str:
    """Return the wa.me link that shares a desk's notice (with the public page, if any)."""
    text = share.notice_text(
        tournament.name, notice.stage.name, notice.message, _page_url(context, tournament)
    )
    return share.whatsapp_url(text)


@register.simple_tag
def team_link_share_url(card: dict[str, Any], tournament: Tournament) -> str:
    """Return the wa.me link that hands a team its private link (``card``: the desk's card)."""
    return share.whatsapp_url(share.team_link_text(tournament.name, card["team"].name, card["url"]))


@register.simple_tag(takes_context=True)
def round_share_url(
    context: template.Context, round_: Round, rows: list[dict[str, Any]], tournament: Tournament
) -> str:
    """Return the wa.me link that shares a published round's pairings from the desk (``rows``:
    the page's rows of its fixtures), or "" for a draft (only directors see it: nothing of it
    goes to a group)."""
    if round_.status == Round.Status.DRAFT:
        return ""
    url = _page_url(context, tournament)
    text = share.round_pairings_text(tournament.name, round_, rows, url)
    return share.whatsapp_url(text)
