"""What the director's live board shows: every table of the running stages' current rounds and
where it stands (not started, being played, a deal awaiting confirmation and for how long,
disputed, finished), with what a director may count from there.

Read in a bounded number of queries whatever the size of the round (tests/web/test_queries.py
and tests/web/test_board.py count them): the running stages, their rounds, the fixtures with
their teams, matches and results, the matches' states in one statement
(``tournaments.selectors.match_states``), and the entries and rejections of the deals that
wait, with what each table settled itself (an entry withdrawn, the other version accepted),
in one more; and the phones of the tables being played (``tournaments.phones``: last heard,
one phone a table, locked out of codes) with their fixtures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from competition.models import Fixture, Round, Stage
from scoring.models import MatchResult
from tournaments import matchlog, phones, seats
from tournaments import selectors as store
from tournaments.models import Match, MatchEvent, TablePhones, Tournament

K = matchlog.Kind
#: a table waits too long (and stands out on the board) when a deal has awaited confirmation,
#: or the table has not started since its round was published, for this long; a disputed deal
#: always stands out, since only a director settles it
LATE_MINUTES = 5
LATE_AFTER = timedelta(minutes=LATE_MINUTES)

NOT_STARTED, PLAYING, AWAITING, DISPUTED, FINISHED = (
    "not_started",
    "playing",
    "awaiting",
    "disputed",
    "finished",
)
BYE, CALLED_OFF = "bye", "called_off"
#: each state in words, for the board's count and each table's line (in the page's language)
STATE_WORDS = {
    NOT_STARTED: pgettext_lazy("a table on the board", "not started"),
    PLAYING: pgettext_lazy("a table on the board", "being played"),
    AWAITING: pgettext_lazy("a table on the board", "awaiting confirmation"),
    DISPUTED: pgettext_lazy("a table on the board", "disputed"),
    FINISHED: pgettext_lazy("a table on the board", "finished"),
    BYE: pgettext_lazy("a table on the board", "bye"),
    CALLED_OFF: pgettext_lazy("a table on the board", "called off"),
}


@dataclass
class Version:
    """A result a director may count for a disputed deal with one tap: an entry, or the
    version a team gave when it rejected one."""

    key: str  # what the decide form posts: "entry-1", "rejection-<seq>"
    label: str  # whose it is: "North's entry"
    words: str  # the result in words


@dataclass(frozen=True)
class TablePhonesNow:
    """What the board says of a table's phones: when each team's was last heard from (and
    the entries it holds unsent), whether the table plays on one phone (whose), and whether
    its phone is locked out of codes or the table has gone silent."""

    heard: tuple[tuple[str, int | None, int], ...]  # team, minutes since (None: never), unsent
    one_phone: str  # the team whose phone the table plays on, "" for none
    locked: bool
    failures: int  # wrong codes typed since the last right one
    silent: bool  # heard from before, and not for ``phones.SILENT_AFTER``
    silent_minutes: int = 0
    #: the table plays on the phone its table card opened (codes typed there, for no team)
    on_table_card: bool = False

    @property
    def alerts(self) -> list[str]:
        """What needs the director, in words (for the list of tables that need them)."""
        out = []
        if self.locked:
            out.append(str(_("its phone is locked out of codes")))
        if self.silent:
            out.append(
                str(_("no phone heard for %(minutes)d min") % {"minutes": self.silent_minutes})
            )
        return out


def _phones_now(row: TablePhones | None, teams: tuple[str, str], now: datetime) -> TablePhonesNow:
    """The board's words for a playing table's phones (``row`` None: none heard from yet)."""
    if row is None:
        return TablePhonesNow(((teams[0], None, 0), (teams[1], None, 0)), "", False, 0, False)
    heard = []
    for side, at, unsent in ((0, row.heard0, row.unsent0), (1, row.heard1, row.unsent1)):
        minutes = None if at is None else max(0, int((now - at).total_seconds() // 60))
        heard.append((teams[side], minutes, unsent))
    last = max((at for at in (row.heard0, row.heard1) if at is not None), default=None)
    silent = last is not None and now - last >= phones.SILENT_AFTER
    whose = row.one_phone_side
    one = "" if row.one_phone_at is None or whose is None else teams[whose]
    return TablePhonesNow(
        tuple(heard),
        one,
        row.locked_at is not None,
        row.code_failures,
        silent,
        int((now - last).total_seconds() // 60) if silent and last is not None else 0,
        row.one_phone_at is not None and whose is None,
    )


@dataclass
class BoardTable:
    fixture: Fixture
    label: str  # "Table 4", or the bracket round's name
    state: str  # one of STATE_WORDS
    deal: int = 0  # the deal entered or disputed (awaiting, disputed), else the deals played
    since: datetime | None = None  # since when it waits (awaiting, disputed, not started)
    minutes: int = 0  # for how long, in whole minutes
    late: bool = False
    score: str = ""  # the bazzis and the difference so far, or the result when finished
    entries: list[tuple[int, str, str]] = field(default_factory=list)  # number, by, words
    versions: list[Version] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)  # why an entry was rejected
    #: what the table settled itself: an entry withdrawn (the deal waiting), the other
    #: version accepted (the deal counted last)
    settled: list[str] = field(default_factory=list)
    expected_seq: int = 0
    client_id: str = ""
    #: the seats phones hold through their team's link (a digital match): seat, player
    held_seats: list[tuple[int, str]] = field(default_factory=list)
    #: its phones (``tournaments.phones``), while its match is being played
    phones: TablePhonesNow | None = None

    @property
    def shown(self) -> str:
        """Everything of the table the board shows, as one string: the key its kept fragments
        are found by (web/_board.html), so a table whose words did not change is not rendered
        again (its teams' names, its words and times, its forms' fields; the language and the
        clock's zone are the template's part of the key)."""
        return repr(
            (
                self.match_id,
                self.teams,
                self.label,
                self.state,
                self.deal,
                self.since,
                self.minutes,
                self.late,
                self.score,
                self.entries,
                self.versions,
                self.reasons,
                self.settled,
                self.expected_seq,
                self.client_id,
                self.held_seats,
                self.phones,
            )
        )

    @property
    def needs_you(self) -> bool:
        """Whether the table stands out: late, disputed, locked out of codes, or silent."""
        return self.late or (self.phones is not None and (self.phones.locked or self.phones.silent))

    @property
    def match_id(self) -> int | None:
        return self.fixture.match_id

    @property
    def teams(self) -> str:
        f = self.fixture
        a = f.team_a.name if f.team_a else _("to be decided")
        if f.team_b:
            return _("%(a)s v %(b)s") % {"a": a, "b": f.team_b.name}
        return _("%(team)s has a bye") % {"team": a}

    @property
    def line(self) -> tuple[str, str, str]:
        """Return where the table stands in words, in three parts for the page: the state
        ("Awaiting confirmation"), what follows (": deal 2, waiting for"), and for how long
        ("3 min"; empty when it does not wait)."""
        words = str(STATE_WORDS[self.state]).capitalize()
        if self.state in (AWAITING, DISPUTED) and self.since:
            detail = _(": deal %(deal)s, waiting for") % {"deal": self.deal}
        elif self.state in (AWAITING, DISPUTED, PLAYING):
            detail = _(": deal %(deal)s") % {"deal": self.deal}
        else:
            detail = _(", published for") if self.since else ""
        waited = ""
        if self.since is not None:
            waited = waited_words(self.minutes)
        return words, detail, waited


@dataclass
class BoardStage:
    stage: Stage
    rounds: list[Round]
    tables: list[BoardTable]

    @property
    def counts(self) -> list[tuple[str, int]]:
        """Return how many tables are in each state, in the board's order (none left out)."""
        found: dict[str, int] = {}
        for t in self.tables:
            found[t.state] = found.get(t.state, 0) + 1
        return [(str(STATE_WORDS[s]), found[s]) for s in STATE_WORDS if s in found]


@dataclass
class Board:
    stages: list[BoardStage]
    now: datetime

    @property
    def attention(self) -> list[BoardTable]:
        """Return the tables that need the director: disputed first, then the late ones."""
        tables = [t for s in self.stages for t in s.tables if t.needs_you]
        return sorted(tables, key=lambda t: (t.state != DISPUTED, -t.minutes))


def waited_words(minutes: int) -> str:
    """Return how long a table has waited, in words: "3 min", "less than a minute"."""
    if not minutes:
        return _("less than a minute")
    return _("%(minutes)s min") % {"minutes": minutes}


def result_words(points: Any, sweeps: Any, teams: tuple[str, str]) -> str:
    """Return a deal's result in words: ``North 64 + sweeps 50, South 36``."""
    parts = []
    for name, p, s in zip(teams, points, sweeps, strict=True):
        swept = sum(s)
        said = f"{name} {p}"
        parts.append(
            _("%(said)s + sweeps %(swept)s") % {"said": said, "swept": swept} if swept else said
        )
    return pgettext("list separator", ", ").join(parts)


def _label(f: Fixture) -> str:
    if f.table:
        return _("Table %(table)s") % {"table": f.table}
    return f.round.name or _("Round %(number)s") % {"number": f.round.number}


def _current_rounds(stage: Stage, rounds: list[Round]) -> list[Round]:
    """Return the rounds whose tables are being played: a bracket's published rounds (several
    may run at once), else the first published round, else the last one."""
    published = [r for r in rounds if r.status == Round.Status.PUBLISHED]
    if stage.elimination and published:
        return published
    return published[:1] or rounds[-1:]


def _bazzis(result: MatchResult) -> str:
    """Return the bazzis and the running difference, as "1 to 0 bazzis, difference +40"."""
    return _("%(bazzis)s bazzis, difference %(difference)s") % {
        "bazzis": f"{result.bazzis0} \N{EN DASH} {result.bazzis1}",
        "difference": f"{result.difference:+d}",
    }


def _score(result: MatchResult | None) -> str:
    if result is None or not result.started:
        return ""
    return ngettext(
        "%(score)s after %(deals)s deal", "%(score)s after %(deals)s deals", result.deals
    ) % {"score": _bazzis(result), "deals": result.deals}


def _match_teams(f: Fixture) -> tuple[str, str]:
    """Return the names of the fixture's match's team0 and team1 (its teams, read already)."""
    assert f.match is not None and f.team_a is not None and f.team_b is not None
    names = {f.team_a_id: f.team_a.name, f.team_b_id: f.team_b.name}
    return names.get(f.match.team0_id, ""), names.get(f.match.team1_id, "")


def _finished(f: Fixture, result: MatchResult | None) -> str:
    teams = (f.team_a.name if f.team_a else "", f.team_b.name if f.team_b else "")
    if result is not None and result.over and f.match is not None:
        score = _bazzis(result)
        if result.winner is not None:
            winner = _match_teams(f)[result.winner]
            return _("%(team)s won: %(score)s") % {"team": winner, "score": score}
        return _("Drawn: %(score)s") % {"score": score}
    words = {
        Fixture.Result.A: _("%(team)s won") % {"team": teams[0]},
        Fixture.Result.B: _("%(team)s won") % {"team": teams[1]},
        Fixture.Result.DRAW: pgettext("a match", "Drawn"),
        Fixture.Result.FORFEIT_A: _("%(team)s forfeited") % {"team": teams[0]},
        Fixture.Result.FORFEIT_B: _("%(team)s forfeited") % {"team": teams[1]},
        Fixture.Result.VOID: _("Not played"),
    }
    return str(words.get(Fixture.Result(f.result), pgettext("a match", "Finished")))


#: what the table did to settle a deal itself (docs/events.md, "Settling at the table")
SETTLED_KINDS = (K.ENTRY_WITHDRAWN, K.VERSION_ACCEPTED)


def _waits(
    matches: list[Match], states: dict[int, matchlog.MatchState]
) -> dict[int, list[MatchEvent]]:
    """Return the entries, rejections and disputes of each waiting match's next deal, and
    what each match's table settled itself of its next deal or its last counted one (one
    query: the match's deals before them are left out in Python, a few rows a match)."""
    waiting = [m.pk for m in matches if states[m.pk].entries or states[m.pk].disputed]
    # only a score match whose results are confirmed can be settled at its table
    confirmed = [
        m.pk
        for m in matches
        if states[m.pk].mode == matchlog.SCORE
        and states[m.pk].confirmation != matchlog.Confirmation.NONE
    ]
    out: dict[int, list[MatchEvent]] = {m.pk: [] for m in matches}
    if not (waiting or confirmed):
        return out
    kinds = (K.DEAL_ENTERED, K.DEAL_REJECTED, K.DEAL_DISPUTED)
    wanted = Q(match_id__in=waiting, kind__in=kinds) | Q(
        match_id__in=confirmed, kind__in=SETTLED_KINDS
    )
    for event in (
        MatchEvent.objects.filter(wanted)
        .only("match_id", "seq", "kind", "payload", "actor_id", "via", "recorded_at")
        .order_by("match_id", "seq")
    ):
        deal, state = event.payload.get("deal"), states[event.match_id]
        if deal == state.deal_no + 1 or (
            event.kind == K.VERSION_ACCEPTED and deal == state.deal_no
        ):
            out[event.match_id].append(event)
    return out


def _settled(
    state: matchlog.MatchState, events: list[MatchEvent], teams: tuple[str, str]
) -> list[str]:
    """Return what the table settled itself, in words: "Deal 2: entry withdrawn by Tigers",
    "Deal 1: Lotus accepted Tigers' version (Tigers 55, Lotus 45)"."""
    lines = []
    for event in events:
        if event.kind not in SETTLED_KINDS:
            continue
        side = state.side_of(matchlog.author(event.actor_id, event.via))  # a link: its side
        deal = event.payload["deal"]
        if event.kind == K.ENTRY_WITHDRAWN:
            by = _("the score-keeper") if side is None else teams[side]
            lines.append(_("Deal %(deal)s: entry withdrawn by %(by)s") % {"deal": deal, "by": by})
            continue
        words = result_words(event.payload["points"], event.payload["sweeps"], teams)
        if side is None:
            line = _(
                "Deal %(deal)s: the score-keeper accepted the other team's version (%(result)s)"
            )
            lines.append(line % {"deal": deal, "result": words})
        else:
            line = _("Deal %(deal)s: %(by)s accepted %(other)s's version (%(result)s)")
            said = {"deal": deal, "by": teams[side], "other": teams[1 - side], "result": words}
            lines.append(line % said)
    return lines


def _in_progress(
    table: BoardTable,
    match: Match,
    state: matchlog.MatchState,
    events: list[MatchEvent],
    teams: tuple[str, str],
    now: datetime,
) -> None:
    """Fill in a table whose match is being played: a deal that waits, its entries, and
    what a director may count."""
    table.deal = state.deal_no + 1
    table.expected_seq = match.last_seq
    # the forms' client id, the same at every render of this position (the table's kept
    # fragment, web/_board.html, shows it): two directors' taps on one render were always
    # one command (sent twice: the second is told it is recorded), and so are two renders'
    # of one position; the position moves on at every append, and the id with it
    table.client_id = salted_hmac(
        "web.board.client_id", f"{match.pk}:{match.last_seq}"
    ).hexdigest()[:32]
    table.settled = _settled(state, events, teams)
    if not (state.entries or state.disputed):
        table.state = PLAYING
        return
    # only what still stands: an entry withdrawn takes its rejection (or dispute) with it;
    # the k-th entry of a deal in the log is its entry k (numbers are never given twice)
    standing = {e.number for e in state.entries}
    entered = [
        e
        for number, e in enumerate((e for e in events if e.kind == K.DEAL_ENTERED), start=1)
        if number in standing
    ]
    flagged = [
        e
        for e in events
        if (e.kind == K.DEAL_REJECTED and e.payload.get("entry") in standing)
        or (e.kind == K.DEAL_DISPUTED and set(e.payload.get("entries", ())) <= standing)
    ]
    table.state = DISPUTED if state.disputed else AWAITING
    started = flagged[:1] if state.disputed else entered[:1]
    table.since = started[0].recorded_at if started else None
    table.minutes = int((now - table.since).total_seconds() // 60) if table.since else 0
    table.late = state.disputed or (table.since is not None and now - table.since >= LATE_AFTER)
    for e in state.entries:
        by = _("the score-keeper") if e.side is None else teams[e.side]
        table.entries.append((e.number, by, result_words(e.points, e.sweeps, teams)))
        if state.disputed:
            words = result_words(e.points, e.sweeps, teams)
            whose = (
                _("the score-keeper's entry")
                if e.side is None
                else _("%(team)s's entry") % {"team": teams[e.side]}
            )
            table.versions.append(Version(f"entry-{e.number}", whose, words))
    for event in flagged:
        if event.kind != K.DEAL_REJECTED:
            continue
        side = state.side_of(matchlog.author(event.actor_id, event.via))  # a link: its side
        by = _("a director") if side is None else teams[side]
        table.reasons.append(f"{by}: {event.payload.get('reason', '')}")
        if "points" in event.payload:
            words = result_words(event.payload["points"], event.payload["sweeps"], teams)
            whose = (
                _("a director's version")
                if side is None
                else _("%(team)s's version") % {"team": teams[side]}
            )
            table.versions.append(Version(f"rejection-{event.seq}", whose, words))


def _phones_row(match: Match) -> TablePhones | None:
    """Return the match's phones' row, read with its fixture (None: none heard from yet)."""
    try:
        return match.phones
    except TablePhones.DoesNotExist:
        return None


def live_board(tournament: Tournament, now: datetime | None = None) -> Board:
    """Return the board: each running stage's current round(s), table by table."""
    now = now or timezone.now()
    stages = list(
        Stage.objects.filter(tournament=tournament, status=Stage.Status.RUNNING).order_by("order")
    )
    rounds: dict[int, list[Round]] = {s.pk: [] for s in stages}
    for r in (
        Round.objects.filter(stage__in=stages)
        .exclude(status=Round.Status.DRAFT)
        .order_by("stage_id", "number")
    ):
        rounds[r.stage_id].append(r)
    current = {s.pk: _current_rounds(s, rounds[s.pk]) for s in stages}
    fixtures = list(
        Fixture.objects.filter(round__in=[r for rs in current.values() for r in rs])
        # a bracket's fixture still waiting for a team is not a table yet
        .filter(Q(result=Fixture.Result.BYE) | Q(team_a__isnull=False, team_b__isnull=False))
        .select_related("team_a", "team_b", "match__result", "match__phones")
        .order_by("round__number", "table", "key", "pk")
    )
    rounds_by_id = {r.pk: r for rs in current.values() for r in rs}
    for f in fixtures:
        f.round = rounds_by_id[f.round_id]  # the round read above: no query a table
    playing = [
        f.match
        for f in fixtures
        if f.match is not None and f.match.status == Match.Status.IN_PROGRESS
    ]
    states = store.match_states(playing)
    waits = _waits([m for m in playing if m.pk in states], states)
    held = seats.held_in([m.pk for m in playing if m.mode == Match.Mode.DIGITAL])
    by_stage: dict[int, list[BoardTable]] = {s.pk: [] for s in stages}
    for f in fixtures:
        table = _table(f, states, waits, now)
        if table.state not in (FINISHED, CALLED_OFF) and f.match_id in held:
            table.held_seats = held[f.match_id]
        if table.state not in (FINISHED, CALLED_OFF, NOT_STARTED, BYE) and (
            f.match is not None and f.match.mode in (Match.Mode.SCORE, Match.Mode.DIGITAL)
        ):
            table.phones = _phones_now(_phones_row(f.match), _match_teams(f), now)
        by_stage[f.stage_id].append(table)
    return Board(
        [BoardStage(s, current[s.pk], by_stage[s.pk]) for s in stages],
        now,
    )


def _table(
    f: Fixture,
    states: dict[int, matchlog.MatchState],
    waits: dict[int, list[MatchEvent]],
    now: datetime,
) -> BoardTable:
    table = BoardTable(f, _label(f), NOT_STARTED)
    match = f.match
    if f.result == Fixture.Result.BYE:
        table.state = BYE
        return table
    result: MatchResult | None = None
    if match is not None:
        try:
            result = match.result
        except MatchResult.DoesNotExist:
            result = None
    if match is None or match.status == Match.Status.SCHEDULED:
        if f.result:  # decided without a match played (a forfeit, a void)
            table.state, table.score = FINISHED, _finished(f, result)
            return table
        table.since = f.round.published_at
        if table.since is not None:
            table.minutes = int((now - table.since).total_seconds() // 60)
            table.late = now - table.since >= LATE_AFTER
        return table
    if match.status == Match.Status.CALLED_OFF:
        table.state = CALLED_OFF
        return table
    if match.status == Match.Status.FINISHED or match.pk not in states:
        table.state, table.score = FINISHED, _finished(f, result)
        return table
    table.score = _score(result)
    teams = _match_teams(f)
    _in_progress(table, match, states[match.pk], waits.get(match.pk, []), teams, now)
    return table


def decided_result(match: Match, version: str) -> dict[str, Any] | None:
    """Return the ``deal_ended`` payload of a version the board offers for ``match``'s
    disputed deal (``entry-N``, ``rejection-SEQ``), as the log holds it now; None if it holds
    no such version (answered or decided since the board was drawn)."""
    state = store.match_state(match)
    if not state.disputed:
        return None
    kind, _dash, number = version.partition("-")
    if not number.isascii() or not number.isdigit() or len(number) > 18:
        return None
    if kind == "entry":
        entry = next((e for e in state.entries if e.number == int(number)), None)
        if entry is None:
            return None
        return {"points": list(entry.points), "sweeps": [list(s) for s in entry.sweeps]}
    if kind == "rejection":
        event = MatchEvent.objects.filter(
            match=match, seq=int(number), kind=K.DEAL_REJECTED
        ).first()
        if event is None or event.payload.get("deal") != state.deal_no + 1:
            return None
        if event.payload.get("entry") not in {e.number for e in state.entries}:
            return None  # the entry it rejected was withdrawn since
        if "points" not in event.payload:
            return None
        return {"points": event.payload["points"], "sweeps": event.payload["sweeps"]}
    return None
