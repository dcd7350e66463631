"""What the pages' views share: the tournament or match a visitor may see (else 404), and the
live parts they poll (an ETag on the part's version, a 304 while the browser holds it).

A live part is asked for every ``POLL_MS`` by ``live.js`` (or pushed, ``web.push``); a
tournament's part is the same for every viewer, so it is rendered once a version and kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import translation

from competition.selectors import tournament_at
from tournaments.models import Match, Tournament
from tournaments.reads import consistent_read

from .. import pages
from ..access import visible_or_404
from ..clubtime import use_club_time

#: how often the live parts of a page ask whether anything changed (milliseconds; 3000
#: unless LIVE_POLL_MS says otherwise)
POLL_MS = settings.LIVE_POLL_MS
#: how long a rendered live part is kept (a version change replaces it at once)
LIVE_SECONDS = 60
#: how long a process waits for the part another one is rendering (seconds), and how often
#: it looks; past the wait it renders the part itself (the other one died, or is stuck)
SHARED_WAIT_SECONDS, SHARED_LOOK_SECONDS = 2.0, 0.01


def rendered_once(key: str, render: Callable[[], str]) -> str:
    """The part kept at ``key`` in the cache, else rendered by ``render()`` and kept: by one
    process at a time. The push processes all hear a change at the same moment and each
    wants the part: one renders it, the others wait for it in the cache (each render of a big
    tournament's part is a core busy for a tenth of a second)."""
    html: str | None = cache.get(key)
    if html is not None:
        return html
    rendering = f"{key}:rendering"
    mine = cache.add(rendering, 1, SHARED_WAIT_SECONDS)
    if not mine:  # another process renders it (with the cache down, no one says so)
        deadline = time.monotonic() + SHARED_WAIT_SECONDS
        while time.monotonic() < deadline and cache.has_key(rendering):
            time.sleep(SHARED_LOOK_SECONDS)
            html = cache.get(key)
            if html is not None:
                return html
        html = cache.get(key)  # (kept just as the mark went)
        if html is not None:
            return html
    try:
        html = render()
        cache.set(key, html, LIVE_SECONDS)
    finally:
        if mine:
            cache.delete(rendering)
    return html


def refusal(request: HttpRequest, exc: Exception) -> None:
    """Show a service's refusal as a sentence (the desk's pages, a member's data)."""
    text = getattr(exc, "message", str(exc))
    messages.error(request, text[:1].upper() + text[1:] + ("" if text.endswith(".") else "."))


def visible_tournament(request: HttpRequest, slug: str) -> Tournament:
    """Return the tournament the visitor finds at ``slug`` (its club's clock set): the
    published one holding it, else one they may see (``competition.selectors.tournament_at``);
    with none, 404, as for a slug nobody holds."""
    t = tournament_at(request.user, slug)
    if t is None:
        raise Http404("no such tournament")
    use_club_time(t)
    return t


def visible_match(request: HttpRequest, pk: int) -> Match:
    """Return match ``pk`` if the visitor may see its tournament (its club's clock set);
    anyone else: 404."""
    match = get_object_or_404(pages.match_for_page(Match.objects.all()), pk=pk)
    visible_or_404(request.user, match.tournament)
    use_club_time(match.tournament)
    return match


def etag_of(request: HttpRequest, version: str) -> str:
    """Return the ETag of a fragment's ``version`` as this viewer sees it (their account, in
    their language: a phone that switches language is not answered 304 with the other's)."""
    viewer = request.user.pk if request.user.is_authenticated else 0
    return f'"{version}-{viewer}-{translation.get_language()}"'


def _etag_matches(request: HttpRequest, etag: str) -> bool:
    held = request.headers.get("If-None-Match", "")
    return etag in [t.strip() for t in held.split(",")]


def conditional(
    request: HttpRequest, version: str, build: Callable[[], HttpResponse]
) -> HttpResponse:
    """Answer 304 when the browser holds this version of the fragment, else ``build`` it."""
    etag = etag_of(request, version)
    response = HttpResponseNotModified() if _etag_matches(request, etag) else build()
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie"
    return response


#: what a part rendered once for many viewers carries in its forms' place of the viewer's CSRF
#: token, each viewer's own filled in as it is sent (the director's board, a pushed seat part)
CSRF_MARK = "push-csrf-token-of-the-viewer"


def live_part(
    t: Tournament,
    template: str = "web/_live.html",
    version: str | None = None,
    context: Callable[[Tournament], dict[str, Any]] | None = None,
) -> tuple[str, str]:
    """Return the tournament's live part (standings, brackets, tables) and its version.

    The same for every viewer of a language, so it is rendered once per version and
    language and kept in the cache
    (a wall screen and a hundred phones polling cost one render per result). The version
    and the part are read in one consistent snapshot; the cache entry also expires, for
    what the version does not follow (a team renamed in the admin). ``context``: what the
    template shows (the tournament page's stages unless said: the wall's panels).
    """
    with consistent_read():
        if version is None:
            version = pages.tournament_version(t)
        key = f"web:{template}:{t.pk}:{version}:{translation.get_language()}"

        def render_part() -> str:
            shown = {"stages": pages.tournament_page(t)} if context is None else context(t)
            return render_to_string(template, {"tournament": t, **shown})

        html = rendered_once(key, render_part)
    return html, version


def live_page(
    request: HttpRequest,
    t: Tournament,
    template: str,
    part: tuple[str, str],
    **more: Any,
) -> HttpResponse:
    """A page of the tournament around its live ``part`` (the html and its version, which
    the page polls with), with what else it shows (``more``)."""
    html, version = part
    context = {"tournament": t, "live": html, "version": version, "poll_ms": POLL_MS, **more}
    return render(request, template, context)


def live_answer(
    request: HttpRequest, t: Tournament, part: Callable[[Tournament, str], str]
) -> HttpResponse:
    """The tournament's live ``part`` at its current version, with an ETag: 304 while the
    browser holds it."""
    version = pages.tournament_version(t)
    return conditional(request, version, lambda: HttpResponse(part(t, version)))
