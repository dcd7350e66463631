"""A team's private link opened on a phone (docs/links.md): the browser then acts for the
team in its tournament's score matches, with no account."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournaments import links

from .. import languages
from .. import links as team_links
from ..access import key_in_address


@key_in_address
@require_GET
def open_link(request: HttpRequest, key: str) -> HttpResponse:
    """Keep the link in this browser's session and show the team's matches (of a tournament
    that is over: how it ended), in the team's language if the phone chose none yet; a link
    reissued since is refused in words.

    The session gets a new id first (as signing in does): an id planted in this browser
    before (session fixation) must not come to hold the team's link.
    """
    link = links.link_for_key(key)
    if link is None:
        if links.was_reissued(key):  # its card is out of date
            return team_links.stopped_page(request)
        return render(request, "404.html", status=404)
    request.session.cycle_key()
    team_links.hold(request, link)
    response = redirect(reverse("web:keep"))
    # the card's language from now on on this phone, unless its person chose one already
    languages.keep_team_language(request, response, link.team)
    return response
