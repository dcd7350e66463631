"""A team's private link opened on a phone (docs/links.md): the browser then acts for the
team in its tournament's score matches, with no account."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournaments import links

from .. import links as team_links
from ..access import kept_by_nobody


@require_GET
def open_link(request: HttpRequest, key: str) -> HttpResponse:
    """Keep the link in this browser's session and show the team's matches (of a tournament
    that is over: how it ended); a link reissued since is refused in words."""
    link = links.link_for_key(key)
    if link is None:
        if links.was_reissued(key):  # its card is out of date
            return kept_by_nobody(team_links.stopped_page(request))
        return kept_by_nobody(render(request, "404.html", status=404))
    team_links.hold(request, link)
    return kept_by_nobody(redirect(reverse("web:keep")))
