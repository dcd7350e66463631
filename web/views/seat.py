"""The seat page of a digital match: each player, on their own phone, plays their own seat.

Who sits where is the log's (``match_started`` fixed the seats' accounts): a signed-in
player is at their seat. A browser holding the team's private link (docs/links.md) acts for
the team, not for a seat: its holder says once which of the team's two players they are
("I am Asha"), and that claim is the server's (``tournaments.seats``): the first browser to
claim a seat holds it until a director releases it, a browser holds one seat of a match, and
the browser is known by a random claim id its session keeps.

The page shows what ``seep_core.view`` shows that seat (``web.seat``, read through the
selector the API's ``state/`` reads) and offers the engine's legal moves; a move is posted
back as its key, found again in the engine's list (``web.moves.chosen``) and appended
through the one append service with the page's ``expected_seq`` and the client's id (its
idempotency key), as the score-keeper's page does (``web.commands``).

Its live part is polled (``seat_live``) or pushed (``web.push``'s ``play/<id>/``): both render
it with :func:`live_part`, and the push process asks :func:`seat_held` again at every change
whether the browser that opened the stream still holds the seat.
"""

from __future__ import annotations

import uuid
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib import auth, messages
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from competition.refusals import status_of
from tournaments import matchlog
from tournaments import seats as seat_claims
from tournaments import selectors as store
from tournaments.access import seat_lineup, seats_in
from tournaments.errors import SeatRefused
from tournaments.models import Match
from tournaments.reads import consistent_read

from .. import commands, forms, moves, pages, seat
from .. import links as team_links
from ..clubtime import use_club_time
from ..heard import heard_from
from .common import POLL_MS, conditional, etag_of

#: the session's claim id: the browser's name in its seat claims (``tournaments.seats``)
SESSION_CLAIM = "seat_claim"
#: what a move refused as no longer offered means to the player
STALE_MOVE = gettext_lazy(
    "That move is not open any more: the deal has moved on. The page now shows where it "
    "stands: choose again."
)


class Viewer:
    """Who is looking at a seat page: the match, its state, the seat (None: a team's link
    whose holder holds no seat), who appends (an account or the team's link), and the seat a
    director released from under this browser (``released``, else None)."""

    def __init__(self, request: HttpRequest, pk: int) -> None:
        match = get_object_or_404(
            pages.match_for_page(Match.objects.all()), pk=pk, mode=Match.Mode.DIGITAL
        )
        state = store.match_state(match)
        users = state.users if state.users is not None else tuple(seat_lineup(match)[1])
        seats = seats_in(users, request.user)
        self.match, self.state = match, state
        self.link = None if seats else team_links.acting_for(request, match)
        self.side: int | None = seats[0] % 2 if seats else None
        self.seat: int | None = seats[0] if seats else None
        self.released: int | None = None
        if self.link is not None:
            self.side = self.link.side_in(match)
            last = seat_claims.last_claim(match, request.session.get(SESSION_CLAIM))
            held = last is not None and self.side is not None and seat_claims.holds(last)
            if held and last is not None and self.side is not None:
                if last.seat in _team_seats(self.side):
                    self.seat = last.seat
            elif last is not None and last.released_by_id is not None:  # a director released it
                self.released = last.seat
        elif not seats:
            if team_links.held(request).stopped:
                raise team_links.LinkStopped()
            raise Http404("no seat of yours at this match")
        use_club_time(match.tournament)

    def version(self) -> str:
        """The live part's version: the log's head, the projection's, the seat (each seat
        sees its own part) and the team link it acts through."""
        result = (
            Match.objects.filter(pk=self.match.pk).values_list("result__seq", flat=True).first()
        )
        link = "" if self.link is None else f"-l{self.link.link_id}"
        released = "" if self.released is None else f"-r{self.released}"
        return f"p{self.match.pk}-{self.match.last_seq}-{result or 0}-s{self.seat}{link}{released}"

    def released_words(self) -> str:
        """What a browser whose seat a director released is told."""
        assert self.released is not None
        name = seat_claims.player_name(self.match, self.released)
        return (
            f"{name}'s seat was released by the director: this phone no longer holds it, and "
            "shows no cards. The next phone to say who it is holds the seat."
        )


def _team_seats(side: int) -> tuple[int, int]:
    """The two seats of a team (partners sit opposite: S1)."""
    return (side, side + 2)


def _context(request: HttpRequest, viewer: Viewer) -> dict[str, Any]:
    assert viewer.seat is not None
    return {
        **_part_context(viewer.match, viewer.seat, viewer.state, uuid.uuid4().hex),
        "linked": viewer.link is not None,
        "poll_ms": POLL_MS,
    }


def _part_context(
    match: Match, seat_no: int, state: matchlog.MatchState, client_id: str
) -> dict[str, Any]:
    """What the live part shows: ``seat_no``'s view of the match and its form."""
    return {
        "match": match,
        "page": seat.seat_page(match, seat_no, state),
        "form": forms.Command(initial={"expected_seq": match.last_seq, "client_id": client_id}),
    }


def live_part(
    match: Match, seat_no: int, state: matchlog.MatchState, *, csrf_token: str, client_id: str
) -> str:
    """The live part of ``seat_no``'s page: that seat's view (its own hand, never another's)
    and its moves, in a form carrying ``csrf_token`` and ``client_id`` (the viewer's own: the
    polling view's request's; the push process fills them in for each viewer)."""
    context = {**_part_context(match, seat_no, state, client_id), "csrf_token": csrf_token}
    return render_to_string("web/_seat_live.html", context)


def seat_held(session_key: str, pk: int, seat_no: int) -> bool:
    """Whether the browser whose session is ``session_key`` may still see seat ``seat_no`` of
    match ``pk``: the page's own check (:class:`Viewer`), made again for a stream that
    outlives the request that opened it. Signed out, its team link reissued, its seat
    released by a director or its tournament over, the seat is no longer its own."""
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    request.user = auth.get_user(request)
    try:
        return Viewer(request, pk).seat == seat_no
    except (Http404, team_links.LinkStopped):
        return False


def _heard(request: HttpRequest, pk: int) -> Viewer:
    """Return who views seat page ``pk`` (:class:`Viewer`), its team's phone at the table
    written down as heard from (the board's last heard) while the match is played."""
    viewer = Viewer(request, pk)
    if viewer.side is not None and viewer.state.status == matchlog.IN_PROGRESS:
        heard_from(request, viewer.match, viewer.side)
    return viewer


def _choose(request: HttpRequest, viewer: Viewer, status: int = 200) -> HttpResponse:
    """The team link's question: which of the team's two players is holding this phone (a
    seat another phone holds says so)."""
    assert viewer.side is not None
    players = viewer.match.seat_players()
    held = seat_claims.holders(viewer.match)
    choices = [(s, players[s].name, s in held) for s in _team_seats(viewer.side)]
    team = (viewer.match.team0, viewer.match.team1)[viewer.side]
    context = {
        "match": viewer.match,
        "team": team,
        "choices": choices,
        "released": viewer.released_words() if viewer.released is not None else "",
    }
    return render(request, "web/seat_choose.html", context, status=status)


@team_links.signed_in_or_linked
@require_GET
def seat_page(request: HttpRequest, pk: int) -> HttpResponse:
    with consistent_read():
        viewer = _heard(request, pk)
        if viewer.seat is None:
            return _choose(request, viewer)
        context = _context(request, viewer)
        context["etag"] = etag_of(request, viewer.version())
    return render(request, "web/seat.html", context)


@team_links.signed_in_or_linked
@require_GET
def seat_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The seat page's live part: rendered for this seat alone, never from a shared cache."""
    with consistent_read():
        viewer = _heard(request, pk)
        if viewer.seat is None and viewer.released is not None:
            words, match = viewer.released_words(), viewer.match
            return conditional(request, viewer.version(), lambda: _released_part(match, words))
        if viewer.seat is None:
            raise Http404("say which player you are first")

        def build() -> HttpResponse:
            assert viewer.seat is not None
            part = live_part(
                viewer.match,
                viewer.seat,
                viewer.state,
                csrf_token=get_token(request),
                client_id=uuid.uuid4().hex,
            )
            return HttpResponse(part)

        return conditional(request, viewer.version(), build)


def _released_part(match: Match, words: str) -> HttpResponse:
    """The live part of a browser whose seat was released: the words, no hand, no move."""
    context = {"match": match, "words": words}
    return HttpResponse(render_to_string("web/_seat_released.html", context))


@team_links.signed_in_or_linked
@require_POST
def seat_choose(request: HttpRequest, pk: int) -> HttpResponse:
    """Claim the seat a team link's holder chose, for this browser (``tournaments.seats``).

    The first browser to claim a seat holds it until a director releases it; another
    browser's claim of it is refused in words (409), and a browser that holds one seat of the
    match cannot claim the partner's as well, so no phone ever shows both hands."""
    viewer = Viewer(request, pk)
    if viewer.link is None or viewer.side is None:
        return redirect(reverse("web:seat", args=[pk]))  # seated by their account
    try:
        wanted = int(request.POST.get("seat", ""))
    except ValueError:
        wanted = -1
    if viewer.seat is None and wanted not in _team_seats(viewer.side):
        messages.error(request, _("Choose one of your team's two players."))
        return _choose(request, viewer, status=commands.FORM_REFUSED)
    claim_id = seat_claims.claim_id_or_new(request.session.get(SESSION_CLAIM))
    try:
        seat_claims.seat_claim(
            actor=viewer.link, match=viewer.match, seat=wanted, claim_id=claim_id
        )
    except SeatRefused as refused:
        if viewer.seat is not None:  # it holds a seat: it stays on that seat's page
            return _refused(request, viewer, refused.message, status_of(refused))
        messages.error(request, refused.message)
        return _choose(request, viewer, status=status_of(refused))
    request.session[SESSION_CLAIM] = claim_id
    return redirect(reverse("web:seat", args=[pk]))


@team_links.signed_in_or_linked
@require_POST
def seat_move(request: HttpRequest, pk: int) -> HttpResponse:
    """Play one of the moves the engine offered this seat (its key, posted back)."""
    viewer = Viewer(request, pk)
    if viewer.seat is None:
        raise Http404("say which player you are first")
    form = forms.Command(request.POST)
    if not form.is_valid():
        damaged = _("This form is damaged: reload the page.")
        return _refused(request, viewer, damaged, commands.FORM_REFUSED)
    shown = store.match_position(viewer.match, seats=[viewer.seat], state=viewer.state)
    posted = request.POST.get("move", "")
    move = moves.chosen(shown["legal_moves"] or [], posted)
    if move is None and commands.sent_before(viewer.match, form):
        # a resend after a lost answer: the move is written already, and no longer open;
        # the store answers it as it answered the first time (or refuses a changed one)
        move = moves.parsed(posted)
    if move is None:
        return _refused(request, viewer, str(STALE_MOVE), commands.MOVED_ON)
    payload = {"move": dict(move)}
    refused = commands.append_command(
        request, viewer.match, matchlog.MOVE_PLAYED, payload, form, viewer.link
    )
    if refused is not None:
        words = commands.plain_words(refused)
        return _refused(request, viewer, words, commands.status_code(refused))
    done = f"{moves.describe(move, spoken=True)}: played."
    return commands.written(request, done, reverse("web:seat", args=[pk]))


def _refused(request: HttpRequest, viewer: Viewer, message: str, status: int) -> HttpResponse:
    """Tell why nothing was played; the page comes back at the match's head."""
    if commands.wants_json(request):
        return commands.refused_json(viewer.match, message, status)
    messages.error(request, message)
    viewer = Viewer(request, viewer.match.pk)  # read again: the deal may have moved on
    context = _context(request, viewer)
    context["etag"] = etag_of(request, viewer.version())
    return render(request, "web/seat.html", context, status=status)
