"""The score-keeper's phone page: pick a match, enter a deal's result, answer the other side's.

Every command goes through the one append service with the page's ``expected_seq`` and the
client's own id as the idempotency key (``web.commands``), so a phone that lost its
connection and sends again writes the command once. A form posted by a browser without
JavaScript gets the page back (with its message); the page's script posts with
``Accept: application/json`` and gets ``{"ok", "message"}``.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from competition import selectors as competition_reads
from scoring import selectors as scoring
from tournaments import errors as store_errors
from tournaments import matchlog, phones
from tournaments import selectors as store
from tournaments.access import directed_tournaments
from tournaments.models import Match
from tournaments.reads import consistent_read

from .. import commands, forms, pages
from .. import links as team_links
from ..access import DIRECTOR, PLAYER, SCOREKEEPER, match_role, side_of
from ..announce import keep_words
from ..board import result_words as board_words
from ..clubtime import use_club_time
from ..commands import (
    append_command,
    plain_words,
    refused_json,
    status_code,
    wants_json,
    written,
)
from ..heard import heard_from
from ..recorder import recorded_by, table_matches
from .common import POLL_MS, conditional, etag_of
from .offline import keep_offline

K = matchlog.Kind


def _actor(request: HttpRequest, match: Match, state: matchlog.MatchState) -> Any:
    """Who appends: the signed-in person if they have a part in the match, else the team
    link this browser holds for one of its teams."""
    if match_role(request.user, match, state) is not None:
        return request.user
    link = team_links.acting_for(request, match)
    return request.user if link is None else link


def match_and_role(request: HttpRequest, pk: int) -> tuple[Match, matchlog.MatchState, str]:
    # Deal results are entered in score matches; digital and table matches record moves.
    match = get_object_or_404(
        pages.match_for_page(Match.objects.all()), pk=pk, mode=Match.Mode.SCORE
    )
    state = store.match_state(match)
    role = match_role(request.user, match, state)
    if role is None and team_links.viewing_for(request, match) is not None:
        role = PLAYER  # through the team's private link (of a tournament over: to see the end)
    if role is None:
        if team_links.held(request).stopped:
            raise team_links.LinkStopped()
        raise Http404("no such match to keep score at")
    use_club_time(match.tournament)
    _heard(request, match, state)
    return match, state, role


def _heard(request: HttpRequest, match: Match, state: matchlog.MatchState) -> None:
    """Write down that a team's phone at the match's table was heard from (a team's link, or
    a seated player's account), with the entries it says it holds unsent."""
    if state.status != matchlog.IN_PROGRESS:
        return
    link = team_links.viewing_for(request, match)
    side = link.side_in(match) if link is not None else side_of(request.user, state, match)
    if side is not None:
        heard_from(request, match, side)


@team_links.signed_in_or_linked
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """Pick a match: the score matches you keep score at, play in, or direct."""
    linked = team_links.held(request)
    mine = list(pages.keeper_matches(request.user, teams=team_links.team_ids(request)))
    directed = [
        m
        for m in pages.director_score_matches(directed_tournaments(request.user))
        if m.pk not in {x.pk for x in mine}
    ]
    context = {
        "mine": mine,
        "playing": list(
            pages.keeper_matches(
                request.user, teams=team_links.team_ids(request), mode=Match.Mode.DIGITAL
            )
        ),
        "recording": list(table_matches(request.user)),
        "directed": directed,
        "links": linked.live,
        "teams_now": [_team_now(link) for link in [*linked.live, *linked.ended]],
        "stopped": linked.stopped,
    }
    response = render(request, "web/keep_index.html", context)
    # the phone's own pick list may be kept on it (web.views.offline); a director's is not
    return response if directed else keep_offline(response)


def _team_now(link: Any) -> dict[str, Any]:
    """What a held link's team has now: its match, a bye, a wait, or the tournament's end."""
    return {
        "team": link.team,
        "tournament": link.team.tournament,
        **_next_for(link.team_id, link.team.tournament_id),
    }


def _next_for(team_id: int, tournament_id: int) -> dict[str, Any]:
    """What a team plays next: at the tournament's end ``over``, ``champion`` (a Team or
    None) and ``champion_is_mine``; else ``match`` or ``bye`` (``competition.team_now``)."""
    if competition_reads.tournaments_over([tournament_id]):
        champion = competition_reads.tournament_champion(tournament_id=tournament_id)
        return {
            "over": True,
            "champion": champion,
            "champion_is_mine": champion is not None and champion.pk == team_id,
        }
    return competition_reads.team_now(team_id=team_id)


def _in_order(values: Any, teams: tuple[str, str], mine: int | None) -> list[dict[str, Any]]:
    """A pair of per-team values (points, sweeps...) as the reader's columns order them."""
    return [
        {"name": teams[i], "mine": i == mine, "value": values[i]}
        for i in commands.reader_order(mine)
    ]


def _team_words(side: int | None, mine: int | None, teams: tuple[str, str]) -> str:
    """A team named from the reader's side: "your team" for their own."""
    if side is None:
        return ""
    return _("your team") if side == mine else teams[side]


def _context(
    request: HttpRequest,
    match: Match,
    state: matchlog.MatchState,
    role: str,
    *,
    entry_form: forms.DealResult | None = None,
    reject_form: forms.Reject | None = None,
) -> dict[str, Any]:
    user = request.user
    side = side_of(user, state, match)
    me = user.pk
    link = team_links.viewing_for(request, match) if role == PLAYER and side is None else None
    # a link of a tournament that is over shows the end, and acts no more
    ended = link is not None and team_links.acting_for(request, match) is None
    if link is not None:  # acting through the team's link: its author is its side
        side = link.side_in(match)
        me = None if side is None else matchlog.link_author(side)
    teams = (match.team0.name, match.team1.name)
    names = [p.name for _seat, p, _team in pages.seat_list(match)]
    lines = pages.entry_lines(match, state)
    in_play = state.status == matchlog.IN_PROGRESS and not ended
    confirmation = state.confirmation if state.users is not None else match.confirmation
    can_enter = in_play and not state.disputed
    if confirmation == matchlog.Confirmation.NONE:
        can_enter = can_enter and role in (SCOREKEEPER, DIRECTOR)
    elif confirmation == matchlog.Confirmation.OTHER_TEAM:
        can_enter = can_enter and not state.entries
    else:
        can_enter = can_enter and not any(
            e.actor == me or (side is not None and e.side == side) for e in state.entries
        )
    answerable = [
        line
        for line in lines
        if role in (PLAYER, DIRECTOR)
        and not ended
        and not state.disputed
        and line.entry.actor != me
        and (side is None or line.entry.side != side)
        and not (confirmation == matchlog.Confirmation.BOTH_ENTER and role == PLAYER)
    ]
    client_id = uuid.uuid4().hex
    initial = {"expected_seq": match.last_seq, "client_id": client_id}
    if entry_form is None:
        entry_form = forms.DealResult(initial=initial, rules=match.rules, teams=teams)
    if reject_form is None:
        reject_form = forms.Reject(rules=match.rules, teams=teams)
    progress = state.progress
    confirmed = pages.last_answer(match, state) if state.deal_no else None
    if confirmed is not None and confirmed["side"] is not None and confirmed["side"] == side:
        confirmed["by"] = _("your team (%(name)s)") % {"name": confirmed["by"]}
    shown_entries = [
        {
            "line": line,
            "by": _team_words(line.entry.side, side, teams) or line.by,
            "yours": side is not None and line.entry.side == side,
            "teams": [
                {
                    "name": teams[i],
                    "mine": i == side,
                    "points": line.entry.points[i],
                    "sweeps": line.entry.sweeps[i],
                    "total": line.entry.total[i],
                }
                for i in commands.reader_order(side)
            ],
            "answerable": line in answerable,
        }
        for line in lines
    ]
    # one phone a table: the other team confirms this phone's team's entry with its code
    acting = None if ended else team_links.acting_for(request, match)
    by_code = (
        acting is not None
        and confirmation == matchlog.Confirmation.OTHER_TEAM
        and not state.disputed
        and any(line.entry.side == side for line in lines)
    )
    # ... or, where both sides enter, enters its own numbers on it with its code
    code_entry = (
        acting is not None
        and side is not None
        and confirmation == matchlog.Confirmation.BOTH_ENTER
        and not state.disputed
        and any(line.entry.side == side for line in lines)
        and not any(line.entry.side == 1 - side for line in lines)
    )
    table = phones.table_of(match.pk) if by_code or code_entry else None
    codes_locked = table is not None and table.locked_at is not None
    for shown in shown_entries:
        shown["by_code"] = by_code and not codes_locked and shown["yours"]
        shown["code_entry"] = code_entry and not codes_locked and shown["yours"]
    code_form = None
    if code_entry and not codes_locked:
        code_form = forms.CodeEntry(
            initial=initial, rules=match.rules, teams=teams, auto_id="code-%s"
        )
    finished = state.status == matchlog.FINISHED
    page = {
        "match": match,
        "state": state,
        "role": role,
        "side": None if side is None else teams[side],
        "mine": side,
        "ended": ended,
        "teams": teams,
        "entries": lines,
        "shown_entries": shown_entries,
        "answerable": answerable,
        "can_enter": can_enter,
        "confirmation": confirmation,
        "deal_no": state.deal_no + 1,
        "dealer": None if progress is None or progress.over else names[progress.dealer],
        "progress": progress,
        "standing": _standing(progress, teams, side),
        "deals": list(scoring.deal_results(match=match)),
        "entry_form": entry_form,
        "columns": commands.columns(entry_form, teams, side),
        "reject_form": reject_form,
        "reject_columns": commands.columns(reject_form, teams, side),
        "client_id": client_id,
        "rejected": _rejections(match) if state.disputed else [],
        "confirmed": confirmed,
        "after": _after(match, progress, teams, side) if finished else None,
        "reopened": _reopened(match) if state.status == matchlog.IN_PROGRESS else None,
        "poll_ms": POLL_MS,
        "rules": entry_form.rules,
        "settle": [] if ended else settle_options(state, me, teams),
        "codes_locked": codes_locked,
        # the other team's numbers on this phone: its own team first, as it reads them
        "code_columns": []
        if code_form is None
        else commands.columns(code_form, teams, 1 - (side or 0)),
        # a table that plays on one phone shows the code box open; two phones, folded away
        "one_phone": table is not None and table.one_phone_at is not None,
    }
    page["announce"] = keep_words(page)
    return page


def _reopened(match: Match) -> dict[str, Any] | None:
    """Why the match is being played again, while nothing was counted since a director's
    correction reopened it: the correction's reason (one query)."""
    last = list(
        store.match_events(match)
        .filter(
            kind__in=(
                K.DEAL_ENDED,
                K.MATCH_REOPENED,
                K.DEAL_CORRECTED,
                K.DEAL_VOIDED,
                K.SCORE_ADJUSTED,
            )
        )
        .order_by("-seq")
        .values_list("kind", "payload")[:2]
    )
    if not last or last[0][0] != K.MATCH_REOPENED:
        return None
    reason = last[1][1].get("reason") if len(last) > 1 else None
    return {"reason": reason if isinstance(reason, str) else ""}


def _standing(progress: Any, teams: tuple[str, str], mine: int | None) -> dict[str, Any] | None:
    """Where the match stands, from the reader's side: each team's bazzis (theirs first)
    and who leads on the running difference (team 0's minus team 1's)."""
    if progress is None:
        return None
    difference = progress.difference
    leader = None if difference == 0 else (0 if difference > 0 else 1)
    return {
        "bazzis": _in_order(progress.bazzis, teams, mine),
        "leader": _team_words(leader, mine, teams),
        "leader_mine": leader is not None and leader == mine,
        "lead": abs(difference),
    }


def _after(match: Match, progress: Any, teams: tuple[str, str], mine: int | None) -> dict[str, Any]:
    """What a finished match's phone says next: who won, and what the reader's team plays
    now (its next match, a bye, or the tournament's end and its champion)."""
    bazzis = progress.bazzis if progress is not None else (0, 0)
    winner = None if progress is None else progress.winner  # by bazzis, else the difference
    out: dict[str, Any] = {
        "winner": _team_words(winner, mine, teams),
        "won": winner is not None and winner == mine,
        "bazzis": _in_order(bazzis, teams, mine),
    }
    if mine is not None:
        now = _next_for((match.team0_id, match.team1_id)[mine], match.tournament_id)
        out.update(now, next=now.get("match"))
    elif competition_reads.tournaments_over([match.tournament_id]):  # a score-keeper's
        out.update(_next_for(match.team0_id, match.tournament_id), champion_is_mine=False)
    return out


def _rejections(match: Match) -> list[dict[str, Any]]:
    """The reasons the next deal was rejected (the selector the desk and the API read)."""
    disputed = store.disputed_deals(tournament_id=match.tournament_id, match_id=match.pk)
    return disputed[0]["rejections"] if disputed else []


@team_links.signed_in_or_linked
@require_GET
def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        with consistent_read():
            match, state, role = match_and_role(request, pk)
            context = _context(request, match, state, role)
    except Http404:
        if recorded_by(request.user).filter(pk=pk).exists():  # a table, card by card
            return redirect(reverse("web:record", args=[pk]))
        raise
    return _keep_page(request, match, context)


@team_links.signed_in_or_linked
@require_GET
def status(request: HttpRequest, pk: int) -> HttpResponse:
    """The page's live part (entries, answers, deals so far), with an ETag on the log's head."""
    with consistent_read():
        match, state, role = match_and_role(request, pk)  # 404 unless one of its people

        def build() -> HttpResponse:  # not for a 304: the ETag needs only the head
            context = _context(request, match, state, role)
            return render(request, "web/_keep_status.html", context)

        return conditional(request, _version(request, match), build)


def _keep_page(
    request: HttpRequest, match: Match, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """The whole phone page, with the ETag its live part polls with (only the page needs
    it: the part's own answer has it in its header)."""
    context["etag"] = etag_of(request, _version(request, match))
    response = render(request, "web/keep.html", context, status=status)
    # a team's or a score-keeper's phone page may be kept on the phone (web.views.offline):
    # it holds no card, only the match's results; a director's view of it is not kept
    if status == 200 and context["role"] != DIRECTOR:
        keep_offline(response)
    return response


def _version(request: HttpRequest, match: Match) -> str:
    """The phone page's live part's version: the log's head, and the team link it acts
    through (two links of one match see two parts), with the tournament's phones' tag (a
    table locked out of codes, or let try again, shows or hides its code box: a cache read)."""
    link = team_links.viewing_for(request, match)
    over = "" if link is None or team_links.acting_for(request, match) else "-over"
    version = f"k{match.pk}-{match.last_seq}" + ("" if link is None else f"-l{link.link_id}{over}")
    if link is not None:
        version += f"-p{phones.board_tag(match.tournament_id)}"
    if match.status == Match.Status.FINISHED:  # it leads on: to each team's next match, a bye
        nexts = []
        for team_id in (match.team0_id, match.team1_id):
            now = competition_reads.team_now(team_id=team_id)
            nexts.append(
                f"{getattr(now.get('match'), 'pk', '')}.{getattr(now.get('bye'), 'pk', '')}"
            )
        ended = bool(competition_reads.tournaments_over([match.tournament_id]))
        version += f"-n{'.'.join(nexts)}-o{int(ended)}"
    return version


def _done(request: HttpRequest, match: Match, message: str) -> HttpResponse:
    return written(request, message, reverse("web:keep-match", args=[match.pk]))


def _refused(
    request: HttpRequest,
    match: Match,
    message: str,
    exc: store_errors.AppendRefused | None = None,
    *,
    entry_form: forms.DealResult | None = None,
    reject_form: forms.Reject | None = None,
    moved: bool = False,
) -> HttpResponse:
    """Tell why nothing was recorded; the page comes back with what was typed still in it
    (``moved``: the match moved on, and the page shows where it stands instead)."""
    code = status_code(exc)
    if wants_json(request):
        if moved:  # the page reloads to show it: the words go with it
            messages.info(request, message)
        return refused_json(match, message, code, moved=moved, code=getattr(exc, "code", ""))
    messages.error(request, message)
    match, state, role = match_and_role(request, match.pk)
    if entry_form is not None:  # the page's new head, the person's own numbers
        data = request.POST.copy()
        data["expected_seq"] = str(match.last_seq)
        entry_form = forms.DealResult(
            data, rules=match.rules, teams=(match.team0.name, match.team1.name)
        )
        entry_form.is_valid()
    context = _context(request, match, state, role, entry_form=entry_form, reject_form=reject_form)
    return _keep_page(request, match, context, status=code)


def team_command(
    view: Callable[[HttpRequest, Match, matchlog.MatchState], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Make ``view`` a POST on score match ``pk`` by one of its people (signed in, or through
    a team's link), called with the match and its state: the one fetch-and-check of the
    commands a team sends. A link of a tournament that is over is told so (``OVER``) and
    ``view`` never runs."""

    @team_links.signed_in_or_linked
    @require_POST
    @functools.wraps(view)
    def command(request: HttpRequest, pk: int) -> HttpResponse:
        match, state, _role = match_and_role(request, pk)
        if _ended_for(request, match, state):
            return _refused(request, match, str(OVER), _over())
        return view(request, match, state)

    return command


@team_command
def enter(request: HttpRequest, match: Match, state: matchlog.MatchState) -> HttpResponse:
    """Enter the next deal's result (counted at once when the match asks no confirmation)."""
    teams = (match.team0.name, match.team1.name)
    form = forms.DealResult(request.POST, rules=match.rules, teams=teams)
    if not form.is_valid():
        return _refused(request, match, commands.form_errors(form), entry_form=form)
    confirmation = state.confirmation
    kind = K.DEAL_ENDED if confirmation == matchlog.Confirmation.NONE else K.DEAL_ENTERED
    deal = state.deal_no + 1
    if kind == K.DEAL_ENDED:
        done = _("Deal %(deal)s recorded.") % {"deal": deal}
    elif confirmation == matchlog.Confirmation.OTHER_TEAM:
        done = _("Deal %(deal)s entered: it counts once the other team confirms it.") % {
            "deal": deal
        }
    else:
        done = _("Deal %(deal)s entered: it counts once the other side's entry agrees.") % {
            "deal": deal
        }
    actor = _actor(request, match, state)
    refused = append_command(request, match, kind, form.payload(), form, actor)
    if refused is not None:
        crossed = _crossed(request, match, refused, form)
        if crossed is not None:  # the other team's entry is on the page now, to answer
            return _refused(request, match, crossed, refused, moved=True)
        return _refused(request, match, plain_words(refused), refused, entry_form=form)
    return _done(request, match, done)


#: what a phone of a tournament that is over is told when it sends something
OVER = gettext_lazy(
    "The tournament is over: nothing more can be entered. Its results are on this page."
)
#: refusals that mean the match moved on while the phone's numbers were on their way
MOVED = {"stale_expected_seq", "entry_pending", "already_entered"}


def _over() -> store_errors.AppendRefused:
    return store_errors.MatchStateConflict(str(OVER), code="tournament_over")


def _ended_for(request: HttpRequest, match: Match, state: matchlog.MatchState) -> bool:
    """Whether this browser sees ``match`` only through a link of a tournament that is over."""
    if match_role(request.user, match, state) is not None:
        return False
    return (
        team_links.acting_for(request, match) is None
        and team_links.viewing_for(request, match) is not None
    )


def _crossed(
    request: HttpRequest, match: Match, refused: store_errors.AppendRefused, form: Any
) -> str | None:
    """If an entry was refused because the other team's entry of the same deal got there
    first (both teams sent at once), say so, and what to do; else None."""
    if refused.code not in MOVED:
        return None
    fresh = Match.objects.select_related("team0", "team1").get(pk=match.pk)
    state = store.match_state(fresh)
    link = team_links.acting_for(request, fresh)
    side = link.side_in(fresh) if link is not None else side_of(request.user, state, fresh)
    if side is None:  # a score-keeper's: no team of theirs to confirm the other's entry
        return None
    theirs = [e for e in state.entries if e.side != side]
    if not theirs or state.disputed:
        return None
    entry = theirs[-1]
    teams = (fresh.team0.name, fresh.team1.name)
    who = _("The other team") if entry.side is None else teams[entry.side]
    sent = form.payload()
    same = (
        list(entry.points) == sent["points"] and [list(x) for x in entry.sweeps] == sent["sweeps"]
    )
    then = (
        _("They entered the same numbers as you: confirm them below.")
        if same
        else _("Their numbers are below: confirm them if they are right, or reject them.")
    )
    crossed = _("%(who)s entered deal %(deal)d at the same moment as you.") % {
        "who": who,
        "deal": state.deal_no + 1,
    }
    return f"{crossed} {then}"


@team_command
def answer(request: HttpRequest, match: Match, state: matchlog.MatchState) -> HttpResponse:
    """Confirm or reject an entered result (the other team's phone, or a director's)."""
    action = request.POST.get("action")
    if action == "confirm":
        form: forms.Answer = forms.Answer(request.POST)
    elif action == "reject":
        teams = (match.team0.name, match.team1.name)
        form = forms.Reject(request.POST, rules=match.rules, teams=teams)
    else:
        return _refused(request, match, _("Choose whether you confirm or reject the result."))
    if not form.is_valid():
        reject_form = form if isinstance(form, forms.Reject) else None
        return _refused(request, match, commands.form_errors(form), reject_form=reject_form)
    data = form.cleaned_data
    deal = state.deal_no + 1
    if action == "confirm":
        done = _("Deal %(deal)s confirmed.") % {"deal": deal}
        kind, payload = K.DEAL_CONFIRMED, {"entry": data["entry"]}
    else:
        assert isinstance(form, forms.Reject)
        kind, payload = K.DEAL_REJECTED, form.payload()  # with the team's own numbers, if given
        done = _("Deal %(deal)s rejected: the director will decide it.") % {"deal": deal}
    refused = append_command(request, match, kind, payload, form, _actor(request, match, state))
    if refused is not None:
        reject_form = form if isinstance(form, forms.Reject) else None
        return _refused(request, match, plain_words(refused), refused, reject_form=reject_form)
    return _done(request, match, done)


def _on_this_phone_with_code(
    request: HttpRequest,
    match: Match,
    state: matchlog.MatchState,
    form: forms.CodeConfirm | forms.CodeEntry,
    kind: str,
    payload: dict[str, Any],
    said: str,
) -> HttpResponse:
    """Append ``kind`` as the other team, on this phone, with the code on its card (one phone
    a table): its link is the author and the log says on which phone; the code is judged
    first (``tournaments.phones.code_confirmer``: a wrong one counted, the table locked out of
    codes at the limit). ``said``: what is told once it is done (``%(deal)d``, ``%(team)s``)."""
    phone = team_links.acting_for(request, match)
    if phone is None:  # a signed-in player's or a director's phone: no code to take
        return _refused(request, match, str(commands.CODE_PLAIN["not_your_match"]))
    try:
        other = phones.code_confirmer(phone=phone, match=match, code=form.cleaned_data["code"])
    except phones.CodeRefused as exc:
        return _refused(request, match, commands.code_words(exc), exc)
    except store_errors.NotPermitted as exc:  # a link of neither team
        return _refused(request, match, str(commands.CODE_PLAIN["not_your_match"]), exc)
    refused = append_command(request, match, kind, payload, form, other)
    if refused is not None:
        return _refused(request, match, plain_words(refused), refused)
    team = (match.team0, match.team1)[1 - (phone.side_in(match) or 0)].name
    return _done(request, match, said % {"deal": state.deal_no + 1, "team": team})


@team_command
def confirm_with_code(
    request: HttpRequest, match: Match, state: matchlog.MatchState
) -> HttpResponse:
    """Confirm this phone's team's entry for the other team, on this phone, with the code on
    the other team's card (one phone a table)."""
    form = forms.CodeConfirm(request.POST)
    if not form.is_valid():
        return _refused(request, match, commands.form_errors(form))
    payload = {"entry": form.cleaned_data["entry"]}
    said = _("Deal %(deal)d confirmed by %(team)s with their code.")
    return _on_this_phone_with_code(request, match, state, form, K.DEAL_CONFIRMED, payload, said)


@team_command
def enter_with_code(request: HttpRequest, match: Match, state: matchlog.MatchState) -> HttpResponse:
    """Enter the other team's own numbers for the next deal on this phone, with the code on
    its card (one phone a table, a match whose sides both enter): the two entries count when
    they agree, as from two phones."""
    teams = (match.team0.name, match.team1.name)
    form = forms.CodeEntry(request.POST, rules=match.rules, teams=teams)
    if not form.is_valid():
        return _refused(request, match, commands.form_errors(form))
    said = _("Deal %(deal)d entered by %(team)s with their code.")
    return _on_this_phone_with_code(
        request, match, state, form, K.DEAL_ENTERED, form.payload(), said
    )


@login_required
@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a scheduled score match (a score-keeper or a director at the table)."""
    match, _state, _role = match_and_role(request, pk)
    form = forms.Command(request.POST)
    if not form.is_valid():
        return _refused(request, match, commands.form_errors(form))
    refused = append_command(request, match, K.MATCH_STARTED, {}, form)
    if refused is not None:
        return _refused(request, match, plain_words(refused), refused)
    return _done(request, match, _("The match has started."))


# --- disputes the table settles: an entry withdrawn, the other team's numbers accepted ----

#: the refusals of a withdrawal or an acceptance, in words a player understands
SETTLE_PLAIN: dict[str, Promise] = {
    "not_your_entry": gettext_lazy(
        "Only the team that entered this result can withdraw it or accept other numbers instead."
    ),
    "own_version": gettext_lazy(
        "These are your own team's numbers: the team that entered the result accepts them."
    ),
    "not_disputed": gettext_lazy(
        "The other team has not rejected this entry: there are no other numbers to accept."
    ),
    "no_version": gettext_lazy(
        "The other team rejected this result without giving numbers of its own: withdraw your"
        " entry and enter the deal again, or wait for the director."
    ),
    "no_such_entry": gettext_lazy(
        "That entry is no longer waiting: the page now shows where things stand."
    ),
    "deal_counted": gettext_lazy(
        "This deal counts already (the director decided it): only the director can change it now."
    ),
}


@dataclass(frozen=True)
class Settle:
    """An entry the person holding the phone made (they or their team), which they may
    withdraw, and the other team's numbers they may accept instead, if there are some."""

    entry: int
    words: str  # the entry's numbers, in words
    team: bool  # a team's entry ("our entry"), not a score-keeper's ("my entry")
    disputed: bool
    version: str | None  # the other numbers in words, if they may be accepted
    version_by: str  # whose they are ("Lotus", "the score-keeper")


def settle_options(
    state: matchlog.MatchState, me: int | None, teams: tuple[str, str]
) -> list[Settle]:
    """Return the next deal's entries ``me`` (a user's id, or a team link's author) may
    withdraw, each with the other version they may accept instead: the store's own test of
    who may (``matchlog.owns``, ``matchlog.other_version``)."""
    if me is None or state.status != matchlog.IN_PROGRESS:
        return []
    out = []
    for entry in state.entries:
        if entry.actor is None or not matchlog.owns(state, entry, me):
            continue
        version = matchlog.other_version(state, entry)
        mine = state.side_of(me)
        if version is not None and (
            version.actor == me or (mine is not None and mine == version.side)
        ):
            version = None  # their own team's numbers: never theirs to accept
        by = (
            _("the score-keeper")
            if version is None or version.side is None
            else teams[version.side]
        )
        out.append(
            Settle(
                entry.number,
                board_words(entry.points, entry.sweeps, teams),
                entry.side is not None,
                state.disputed,
                None if version is None else board_words(version.points, version.sweeps, teams),
                by,
            )
        )
    return out


def _settle(
    request: HttpRequest, match: Match, state: matchlog.MatchState, kind: str, done: str
) -> HttpResponse:
    form = forms.Answer(request.POST)
    if not form.is_valid():
        return _refused(request, match, commands.form_errors(form))
    payload = {"entry": form.cleaned_data["entry"], "deal": state.deal_no + 1}
    refused = append_command(request, match, kind, payload, form, _actor(request, match, state))
    if refused is not None:
        settle = SETTLE_PLAIN.get(refused.code)
        words = str(settle) if settle is not None else plain_words(refused)
        return _refused(request, match, words, refused)
    return _done(request, match, done % {"deal": state.deal_no + 1})


@team_command
def withdraw(request: HttpRequest, match: Match, state: matchlog.MatchState) -> HttpResponse:
    """Take back your team's entry of the next deal (unanswered, or disputed): the deal is
    entered again, by either team."""
    done = _("Your entry of deal %(deal)s is withdrawn: enter it again.")
    return _settle(request, match, state, K.ENTRY_WITHDRAWN, done)


@team_command
def accept_version(request: HttpRequest, match: Match, state: matchlog.MatchState) -> HttpResponse:
    """Accept the other team's numbers for the deal your team entered: it counts with them."""
    done = _("You accepted their numbers: deal %(deal)s counts with them.")
    return _settle(request, match, state, K.VERSION_ACCEPTED, done)
