"""The pages' live parts pushed: server-sent events from the push process (live.server).

Each stream's view is an ordinary Django view (middleware, sessions, who may see what), run
by the push process in one of its few database threads; it answers a
``live.FeedResponse``, whose events the push process then writes from its event
loop, subscribed to the process's hub: a change is published once, heard once per process,
read and rendered once per process (in one of its render processes, which also make the
patch from the version before), and the same bytes are written to every viewer of it. A
viewer that waits costs its socket and a place in the hub's timer wheel (a comment line every
``HEARTBEAT_SECONDS``): no thread, no database connection, no query.

- ``t/<slug>/``: the tournament page's live part (``event: part``, the whole HTML; then
  ``event: patch``, the lines that changed since the version the viewer holds);
- ``m/<pk>/``: the match sheet's live part, the same way;
- ``keep/<pk>/`` and ``t/<slug>/wall/``: the phone page's and the wall's parts are not the
  same for every viewer (forms, a team's link, panels), so their streams only say that the
  part changed (``event: changed``) and the page fetches it as it polls;
- ``play/<pk>/``: a seat page's live part, whole then patched like the tournament's, but a
  feed of its own for each viewer: admitted by the page's own check (the seat this browser
  holds), rendered for that seat alone (its own hand, never another's), asked again at every
  load whether the browser still holds the seat (it ends when it does not), and sent with the
  viewer's own CSRF token and client id in its form.

The tournament's, the wall's and the match sheet's feeds are shared by every viewer, and
public while the tournament is published. Once it is not (made private, unpublished), its
items say so, and each viewer's access is asked again, as the page would ask it (its
session, read afresh), before anything more is sent: a viewer who may no longer see it is
sent ``event: end`` and the stream closes (the page then polls, and is answered 404).

Every event's ``id`` is its version (a digest of the part): a reconnecting EventSource sends
it back (``Last-Event-ID``) and gets nothing until the part changes again. Without a push
process (``LIVE_PUSH`` off, or the stream refused) the pages poll as before (live.js).

A rendered part is in the language of the page that asked for it: the stream's URL carries
it (``?lang=hi``; none: the site's, ``LANGUAGE_CODE``), and a feed is kept for each
(part, language) that some viewer watches, rendered in that language (``translation.override``
in the render process) and shared by every viewer of that language. A language no one watches
a part in has no feed, and costs no render.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import secrets
import time
from collections.abc import Callable
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.urls import path, reverse, set_urlconf
from django.utils import translation
from django.views.decorators.http import require_GET

import live
from competition.access import may_see
from competition.selectors import tournament_at
from live.frames import Frames, Rendered, Renders, event, rendered, stream
from tournaments import quotas
from tournaments import selectors as store
from tournaments.access import is_director
from tournaments.models import Match, Tournament

from . import links as team_links
from . import pages
from .clubtime import use_club_time
from .views import common, keeper, public
from .views import seat as seat_views
from .views.desk import board as desk_board

app_name = "push"


# --- what each feed reads -------------------------------------------------------------------


def _read(read: Any) -> Any:
    """Run ``read`` in one of the hub's database threads, against the site's URLs."""

    def run() -> Any:
        set_urlconf(None)  # the site's URLs (a stream's request set the push process's)
        return read()

    return live.hub().db(run)


def tournament_part(pk: int, language: str | None = None) -> str | None:
    """The tournament page's live part now, in ``language`` (None: the site's) (None: the
    tournament is gone); run by the hub's render processes."""
    set_urlconf(None)  # the site's URLs (a stream's request set the push process's)
    t = Tournament.objects.select_related("club").filter(pk=pk).first()
    if t is None:
        return None
    use_club_time(t)
    with translation.override(language or settings.LANGUAGE_CODE):
        html, _ = common.live_part(t)
    return html


def match_part(pk: int, language: str, head: str) -> str | None:
    """The match sheet's live part at ``head`` (its log's and its projection's seqs), in
    ``language`` (None: the match is gone); run by the hub's render processes, and kept under
    its head for the other push processes."""
    set_urlconf(None)

    def render() -> str:
        match = pages.match_for_page(Match.objects.all()).filter(pk=pk).first()
        if match is None:
            raise Match.DoesNotExist
        use_club_time(match.tournament)
        with translation.override(language):
            return public.match_live_part(match)

    try:
        return common.rendered_once(f"web:match:{pk}:{head}:{language}", render)
    except Match.DoesNotExist:
        return None


def _match_head(pk: int) -> tuple[int, int | None] | None:
    """A match's last seq and its result's: its sheet changes with them (None: it is gone)."""
    return Match.objects.filter(pk=pk).values_list("last_seq", "result__seq").first()


def tournament_render(pk: int, language: str, base: tuple[str, str] | None) -> Rendered | None:
    """The tournament page's live part now in ``language``, as frames patched from ``base``."""
    return rendered(tournament_part(pk, language), base)


def match_render(
    pk: int, language: str, head: str, base: tuple[str, str] | None
) -> Rendered | None:
    """The match sheet's live part at ``head`` in ``language``, as frames patched from
    ``base``."""
    return rendered(match_part(pk, language, head), base)


def _published_now(pk: int) -> bool | None:
    """Whether tournament ``pk`` is published (None: it is gone)."""
    return Tournament.objects.filter(pk=pk).values_list("published", flat=True).first()


def unpublished(got: tuple[str, Frames]) -> tuple[str, Frames]:
    """A part of a tournament that is not published: a version of its own (the feed offers
    it to its viewers even when the part reads the same), and not for everyone."""
    version, frames = got
    base = None if frames.base is None else f"{frames.base}.unpublished"  # as its viewers hold it
    return f"{version}.unpublished", dataclasses.replace(frames, base=base, public=False)


def _tournament_loader(pk: int, language: str) -> live.Loader:
    renders = Renders()

    async def load() -> tuple[str, Frames] | None:
        published = await _read(functools.partial(_published_now, pk))
        if not published:
            _forget_published(pk)
        if published is None:
            return None
        got = await renders.next(tournament_render, pk, language)
        if got is None or published:
            return got
        return unpublished(got)

    return load


def _match_view_head(pk: int) -> tuple[int, int | None, bool] | None:
    """A match's head (``_match_head``) and whether its tournament is published."""
    return (
        Match.objects.filter(pk=pk)
        .values_list("last_seq", "result__seq", "tournament__published")
        .first()
    )


def _visibility_loader(pk: int) -> live.Loader:
    """Whether tournament ``pk`` is published, as a feed's item (gone: None)."""

    async def load() -> tuple[str, Frames] | None:
        published = await live.hub().db(_published_now, pk)
        if published is None:
            return None
        version = "published" if published else "private"
        said = event("changed", version, version)
        return version, Frames(full=said, base=None, patch=None, changed=said)

    return load


def visibility_topic(tournament: int) -> str:
    """The topic a tournament's match sheets follow to learn it was made private (or public
    again): a feed of its own reads it once per change of the tournament, for all of them."""
    return f"visible:{tournament}"


def _match_loader(pk: int, language: str, tournament: int) -> live.Loader:
    renders = Renders()
    shown: list[Any] = [None, None]  # the head the last render was of, and its frames
    visibility = (
        visibility_topic(tournament),
        [live.key(live.Topic.TOURNAMENT, tournament)],
        _visibility_loader(tournament),
    )

    async def load() -> tuple[str, Frames] | None:
        hub = live.hub()
        await hub.relay(*visibility)  # (made by the first sheet of the tournament to load)
        head = await hub.db(_match_view_head, pk)
        if head is None:
            return None
        if not head[2]:
            _forget_published(tournament)
        if head == shown[0]:  # nothing new in the log or its projection: no render
            return shown[1]  # type: ignore[no-any-return]
        got = await renders.next(match_render, pk, language, f"{head[0]}-{head[1]}")
        if got is None:
            return None
        if not head[2]:
            got = unpublished(got)
        shown[:] = [head, got]
        return got

    return load


def _head_loader(pk: int) -> live.Loader:
    """A match's head and projection: the phone page's part changes with them."""

    def read() -> tuple[str, Frames] | None:
        row = _match_head(pk)
        if row is None:
            return None
        version = f"k{pk}-{row[0]}-{row[1] or 0}"
        changed = event("changed", version, version)
        return version, Frames(full=changed, base=None, patch=None, changed=changed)

    return lambda: _read(read)


def _board_loader(pk: int) -> live.Loader:
    """The director's board: that it changed (each director fetches its part, with their own
    token), never for everyone (each director's access asked again before it is sent)."""

    def read() -> tuple[str, Frames] | None:
        t = Tournament.objects.filter(pk=pk).first()
        if t is None:
            return None
        version = desk_board.board_version(t)
        changed = event("changed", version, version)
        return version, Frames(full=changed, base=None, patch=None, changed=changed, public=False)

    return lambda: _read(read)


#: what a seat's part carries in its form's place of the viewer's CSRF token and client id:
#: rendered once per change for the seat, each viewer's own filled in as it is sent
CSRF_MARK = common.CSRF_MARK
CLIENT_MARK = "push-client-id-of-the-viewer"


def seat_part(pk: int, seat: int, language: str | None = None) -> str | None:
    """The live part of seat ``seat``'s page of the digital match ``pk`` now, in ``language``
    (None: the site's), its form's CSRF token and client id marked (None: the match is gone);
    run by the hub's render processes."""
    set_urlconf(None)
    match = (
        pages.match_for_page(Match.objects.all())
        .filter(pk=pk, mode=Match.Mode.DIGITAL)
        .select_related("tournament")
        .first()
    )
    if match is None:
        return None
    use_club_time(match.tournament)
    state = store.match_state(match)
    with translation.override(language or settings.LANGUAGE_CODE):
        return seat_views.live_part(match, seat, state, csrf_token=CSRF_MARK, client_id=CLIENT_MARK)


def seat_render(pk: int, seat: int, language: str, base: tuple[str, str] | None) -> Rendered | None:
    """A seat's live part now in ``language``, as frames patched from ``base``."""
    return rendered(seat_part(pk, seat, language), base)


def _seat_head(session_key: str, pk: int, seat: int) -> tuple[int, int | None] | None:
    """The match's head, while the browser of ``session_key`` still holds ``seat`` (None:
    it does not, or the match is gone)."""
    if not seat_views.seat_held(session_key, pk, seat):
        return None
    return _match_head(pk)


def _own(frames: Frames, version: str, csrf_token: str, seed: str) -> Frames:
    """``frames`` with one viewer's CSRF token and a client id of its own for ``version``
    (the idempotency key of the move the form plays: never another viewer's; after a move
    the page reloads, after a refusal keeper.js makes a new one, as with a polled part)."""
    client_id = hashlib.sha256(f"{seed}:{version}".encode()).hexdigest()[:32]

    def fill(chunk: bytes) -> bytes:
        chunk = chunk.replace(CSRF_MARK.encode(), csrf_token.encode("ascii"))
        return chunk.replace(CLIENT_MARK.encode(), client_id.encode())

    patch = None if frames.patch is None else fill(frames.patch)
    return Frames(full=fill(frames.full), base=frames.base, patch=patch, changed=frames.changed)


def _seat_loader(
    pk: int, seat: int, session_key: str, csrf_token: str, language: str
) -> live.Loader:
    """One viewer's feed of a seat's part: its access asked again at every load, the part
    rendered only when the match moved, and sent with the viewer's own form."""
    renders = Renders()
    seed = secrets.token_hex(16)
    shown: list[Any] = [None, None]  # the head the last render was of, and what was sent

    async def load() -> tuple[str, Frames] | None:
        head = await live.hub().db(_seat_head, session_key, pk, seat)
        if head is None:
            return None
        if head == shown[0]:
            return shown[1]  # type: ignore[no-any-return]
        got = await renders.next(seat_render, pk, seat, language)
        if got is None:
            return None
        version, frames = got
        mine = (version, _own(frames, version, csrf_token, seed))
        shown[:] = [head, mine]
        return mine

    return load


# --- the streams ----------------------------------------------------------------------------


def shipped(language: str) -> bool:
    """Whether ``language`` is one the site ships (``settings.LANGUAGES``)."""
    return language in dict(settings.LANGUAGES)


def stream_language(request: HttpRequest) -> str:
    """The language the page that opened the stream is in (``?lang=``; none: the site's),
    which its parts are rendered in; a language the site does not ship: 404 (the pages never
    ask for one)."""
    asked = request.GET.get("lang", "") or settings.LANGUAGE_CODE
    if not shipped(asked):
        raise Http404("no such language")
    return asked


def _viewer(session_key: str) -> Any:
    """The account the browser of ``session_key`` is signed in as now, read afresh as the
    session middleware and the authentication middleware would (anonymous once signed out,
    its session gone, its password changed or its account turned off)."""
    browser = HttpRequest()
    browser.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return get_user(browser)


def still_sees(request: HttpRequest, pk: int) -> Callable[[], bool]:
    """Whether the viewer of ``request`` may still see tournament ``pk``, asked again (in a
    database thread) as its page would ask it."""
    # the browser's cookie, nothing read yet: a published tournament's admission asks for no
    # session and no account (the check reads them only before a part not for everyone)
    session_key = request.session.session_key

    def check() -> bool:
        t = Tournament.objects.filter(pk=pk).first()
        if t is None:
            return False
        return may_see(AnonymousUser() if session_key is None else _viewer(session_key), t)

    return check


def still_directs(request: HttpRequest, pk: int) -> Callable[[], bool]:
    """Whether the viewer of ``request`` still directs tournament ``pk``, asked again (in a
    database thread) as the desk would ask it."""
    session_key = request.session.session_key

    def check() -> bool:
        t = Tournament.objects.filter(pk=pk).first()
        return t is not None and session_key is not None and is_director(_viewer(session_key), t)

    return check


def counted(response: HttpResponse, tournament_id: int) -> HttpResponse:
    """Return a stream's response counted against its club's quota of streams open at once
    in a push process (``tournaments.quotas.streams_quota``; live.server refuses past it)."""
    if isinstance(response, live.StreamResponse):
        response.quota = quotas.streams_quota(tournament_id)
    return response


def _match_topics(pk: int) -> list[str]:
    """A match's feeds follow its log and its result."""
    return [live.key(live.Topic.LOG, pk), live.key(live.Topic.RESULT, pk)]


#: how long a push process keeps what an admission found at an address (or of a match) when
#: it is a published tournament, the same for every viewer, and admits the next streams of it
#: without asking again (seconds): a room coming back at once (its push process went away)
#: asks for one address thousands of times a second, and each admission was a query of its
#: own. Made private meanwhile, its feed's next item says so and each viewer's access is asked
#: again before it is sent (``still_sees``), as for a viewer admitted just before.
PUBLISHED_SECONDS = 2.0
_published: dict[str, tuple[float, int]] = {}  # "t:<slug>" or "m:<pk>": (until, tournament)


def _published_tournament(key: str) -> int | None:
    """The published tournament a recent admission found for ``key``, if not too old."""
    found = _published.get(key)
    if found is None or found[0] < time.monotonic():
        return None
    return found[1]


def _keep_published(key: str, tournament: Tournament) -> None:
    if tournament.published:
        _published[key] = (time.monotonic() + PUBLISHED_SECONDS, tournament.pk)


def _forget_published(pk: int) -> None:
    """Tournament ``pk`` is not published (a feed's load found it so): its addresses are
    asked again at the next admission (a new stream is refused as its page is, 404)."""
    for key, (_, tournament) in list(_published.items()):
        if tournament == pk:
            _published.pop(key, None)


def _tournament_feed(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    """The tournament's feed in the page's language, shared by the tournament pages and the
    walls of that language."""
    language = stream_language(request)
    pk = _published_tournament(f"t:{slug}")
    if pk is None:
        t = common.visible_tournament(request, slug)
        _keep_published(f"t:{slug}", t)
        pk = t.pk
    loader = _tournament_loader(pk, language)
    topics = [live.key(live.Topic.TOURNAMENT, pk)]
    answer = stream(request, f"t:{pk}:{language}", topics, loader, mode, still_sees(request, pk))
    return counted(answer, pk)


@require_GET
def tournament_stream(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament page's live part, as it changes."""
    return _tournament_feed(request, slug, "part")


@require_GET
def wall_stream(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall screen's part changed (it fetches its panels as it polls)."""
    return _tournament_feed(request, slug, "changed")


@require_GET
def match_stream(request: HttpRequest, pk: int) -> HttpResponse:
    """The match sheet's live part, as it changes."""
    language = stream_language(request)
    tournament = _published_tournament(f"m:{pk}")
    if tournament is None:
        match = common.visible_match(request, pk)
        _keep_published(f"m:{pk}", match.tournament)
        tournament = match.tournament_id
    # its tournament's visibility too: made private, the sheet's viewers are asked again
    topics = [*_match_topics(pk), visibility_topic(tournament)]
    check = still_sees(request, tournament)
    loader = _match_loader(pk, language, tournament)
    answer = stream(request, f"m:{pk}:{language}", topics, loader, "part", check)
    return counted(answer, tournament)


@require_GET
def keep_stream(request: HttpRequest, pk: int) -> HttpResponse:
    """The phone page's part changed (each phone fetches its own: forms, its team's link)."""
    try:
        match, _, _ = keeper.match_and_role(request, pk)  # 404 unless one of its people
    except team_links.LinkStopped:  # 204: an EventSource stops asking; the page's poll says why
        return HttpResponse(status=204)
    topics = _match_topics(match.pk)
    answer = stream(request, f"k:{match.pk}", topics, _head_loader(match.pk), "changed")
    return counted(answer, match.tournament_id)


@require_GET
def board_stream(request: HttpRequest, slug: str) -> HttpResponse:
    """The director's board changed: a table's deal, a phone heard, a seat claimed (the board
    fetches its part as it polls); only for the tournament's directors, and only while they
    are."""
    t = tournament_at(request.user, slug, directing=True)  # as the desk finds it
    if t is None:
        raise Http404("no such board")
    topics = [live.key(live.Topic.TOURNAMENT, t.pk), live.key(live.Topic.BOARD, t.pk)]
    loader = _board_loader(t.pk)
    answer = stream(request, f"b:{t.pk}", topics, loader, "changed", still_directs(request, t.pk))
    return counted(answer, t.pk)


@require_GET
def seat_stream(request: HttpRequest, pk: int) -> HttpResponse:
    """A seat page's live part, as the match moves: only for the browser that holds the seat
    (the page's own check; anyone else gets the page's 404), and only while it does."""
    language = stream_language(request)
    try:
        viewer = seat_views.Viewer(request, pk)  # 404 unless seated here (or the team's link)
    except team_links.LinkStopped:  # 204: an EventSource stops asking; the page's poll says why
        return HttpResponse(status=204)
    session_key = request.session.session_key
    if viewer.seat is None or session_key is None:  # a link's holder who has not said who
        raise Http404("say which player you are first")
    loader = _seat_loader(pk, viewer.seat, session_key, get_token(request), language)
    key = f"p:{pk}:{viewer.seat}:{secrets.token_hex(8)}"  # one viewer's: its own access, form
    return counted(
        stream(request, key, _match_topics(pk), loader, "part"), viewer.match.tournament_id
    )


urlpatterns = [
    path("t/<slug:slug>/", tournament_stream, name="tournament"),
    path("t/<slug:slug>/wall/", wall_stream, name="wall"),
    path("m/<int:pk>/", match_stream, name="match"),
    path("keep/<int:pk>/", keep_stream, name="keep"),
    path("play/<int:pk>/", seat_stream, name="seat"),
    path("t/<slug:slug>/board/", board_stream, name="board"),
]


#: the streams whose parts the push process renders (the wall's feed is the tournament's): a
#: page's stream URL says the page's language, which they are rendered in; the phone page's
#: stream (keep) says only "changed", and the page fetches its part in its own language
RENDERED = frozenset({"tournament", "wall", "match", "seat"})


def page_language() -> str:
    """The language of the page being rendered, as one the site ships (else the site's)."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    if shipped(language):
        return language
    try:
        return translation.get_supported_language_variant(language)
    except LookupError:
        return str(settings.LANGUAGE_CODE)


def push_url(name: str, *args: Any) -> str:
    """The URL of a page's stream, or "" when the pages do not offer one (they poll). A
    rendered part's stream says the page's language (``?lang=``) unless it is the site's,
    so that the push process renders it in that language (docs/languages.md)."""
    if not getattr(settings, "LIVE_PUSH", False):
        return ""
    origin = getattr(settings, "LIVE_PUSH_ORIGIN", "") or ""
    url = origin + "/push" + reverse(name, urlconf="web.push", args=args)
    language = page_language()
    if name in RENDERED and language != settings.LANGUAGE_CODE:
        url += f"?lang={language}"
    return url
