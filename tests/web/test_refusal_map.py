"""One map from a refusal to its HTTP status (``competition.refusals``): the table in
docs/architecture.md is the map, no row hides behind another, every kind of refusal answers
its row's status, and a refusal sent through the API, a phone page and the desk answers the
same status on each."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from rest_framework.test import APIClient

import seep_core as sc
from api.problems import exception_handler
from competition import errors as competition_errors
from competition import refusals
from tournaments import errors as store_errors
from tournaments import matchlog
from tournaments.models import Match
from tournaments.selectors import match_state
from tournaments.services import match_append_event
from web import commands, forms, moves

from .conftest import Club

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
APPS = ("seep_core", "tournaments", "scoring", "competition", "seasons", "api", "web")
DEFAULT_TITLE = "(the status's phrase)"


def docs_table() -> list[list[str]]:
    """The rows of the table under "A refusal over HTTP" in docs/architecture.md."""
    section = ARCHITECTURE.read_text().split("## A refusal over HTTP", 1)[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [[cell.strip().strip("`") for cell in row.strip().strip("|").split("|")] for row in rows]


def name(kind: type) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


def test_the_table_in_the_docs_is_the_map() -> None:
    assert docs_table() == [
        [name(r.kind), str(r.status), r.title or DEFAULT_TITLE, r.meaning]
        for r in refusals.REFUSALS
    ]


def test_no_row_hides_behind_an_earlier_one() -> None:
    """A refusal answers as the first row it is an instance of: a row after one of its own
    base classes would never answer."""
    for i, row in enumerate(refusals.REFUSALS):
        earlier = [r.kind for r in refusals.REFUSALS[:i] if issubclass(row.kind, r.kind)]
        assert earlier == [], f"{name(row.kind)} is hidden behind {earlier}"
    assert all(refusals.refusal_of(root) is not None for root in refusals.ROOTS)


def every_kind() -> Iterator[type[Exception]]:
    """Every kind of refusal the apps define (each module imported, its classes known)."""
    for app in APPS:
        package = importlib.import_module(app)
        for found in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" not in found.name and not found.name.endswith("__main__"):
                importlib.import_module(found.name)
    seen: set[type[Exception]] = set()
    todo = list(refusals.ROOTS)
    while todo:
        kind = todo.pop()
        if kind not in seen:
            seen.add(kind)
            todo.extend(kind.__subclasses__())
    yield from sorted(seen, key=name)


def a_refusal(kind: type[Exception]) -> Exception:
    """A refusal of ``kind`` as a service raises it (its constructor skipped: each takes what
    it says in its own way), with whatever the API reads of its kind."""
    exc = kind.__new__(kind)
    for attr, value in {
        "code": "some_refusal", "message": "refused", "rule": None, "current_seq": 3,
        "problems": ["a rematch"], "fields": {}, "preview": SimpleNamespace(as_dict=dict),
    }.items():  # fmt: skip
        setattr(exc, attr, value)
    return exc


def test_every_kind_of_refusal_answers_its_rows_status_on_the_api_and_the_pages() -> None:
    kinds = list(every_kind())
    assert store_errors.StaleSequence in kinds and sc.IllegalMove in kinds
    for kind in kinds:
        row = refusals.refusal_of(kind)
        assert row is not None, name(kind)
        exc = a_refusal(kind)
        answer = exception_handler(exc, {})
        assert answer is not None and answer.status_code == row.status, name(kind)
        assert answer.data["title"] == row.words
        if isinstance(exc, store_errors.AppendRefused):
            assert commands.status_code(exc) == row.status, name(kind)


# --- the same refusal, sent three ways --------------------------------------------------


def status_of(kind: type[Exception]) -> int:
    return refusals.status_of(kind)


def api(club: Club, who: str, match: Match, kind: str, payload: Any, seq: int) -> tuple[int, str]:
    """Append through the API as ``who``: the status and the problem's code."""
    client = APIClient()
    client.force_login(club.users[who])
    body = {"expected_seq": seq, "kind": kind, "payload": payload}
    response = client.post(f"/api/v1/matches/{match.pk}/events/", body, format="json")
    return response.status_code, response.json()["code"]


def phone(club: Club, who: str, match: Match, path: str, data: dict[str, Any]) -> tuple[int, str]:
    """Post to the score-keeper's phone page as its script does: the status and the code."""
    response = club.client(who).post(f"/keep/{match.pk}/{path}/", data, **JSON)
    return response.status_code, response.json().get("code", "")


def desk(club: Club, match: Match, path: str, data: dict[str, Any]) -> int:
    """Post to the desk's match page as a director (a page: no code to read, the status)."""
    url = f"/desk/{club.tournament.slug}/matches/{match.pk}/{path}/"
    return club.client("director").post(url, data).status_code


def deal(match: Match, seq: int, points: tuple[int, int], sweeps: int = 0) -> dict[str, Any]:
    """A deal's result as the phone's form posts it."""
    return {
        "expected_seq": seq, "client_id": f"refusal-{seq}-{points[0]}-{sweeps}",
        "points_a": points[0], "points_b": points[1], "sweeps_a": sweeps, "sweeps_b": sweeps,
    }  # fmt: skip


def payload(match: Match, data: dict[str, Any]) -> dict[str, Any]:
    """The store's payload of a deal the phone's form posts (as the page makes it)."""
    form = forms.DealResult(data, rules=match.rules, teams=(match.team0.name, match.team1.name))
    assert form.is_valid(), form.errors
    return form.payload()


def decided(data: dict[str, Any]) -> dict[str, Any]:
    """The desk's decide form, with the same numbers."""
    return {f"decide-{k}": v for k, v in data.items()}


def same_deal_three_ways(club: Club, match: Match, data: dict[str, Any]) -> dict[str, Any]:
    """Send one deal's result through the API (a score-keeper's entry), the phone page (the
    same) and the desk (a director's decision): what each answered."""
    kind = matchlog.Kind.DEAL_ENTERED if match.confirmation != "none" else matchlog.Kind.DEAL_ENDED
    return {
        "api": api(club, "scorekeeper", match, kind, payload(match, data), data["expected_seq"]),
        "phone": phone(club, "scorekeeper", match, "enter", data),
        "desk": desk(club, match, "decide", decided(data)),
    }


def assert_same(answers: dict[str, Any], kind: type[Exception], code: str) -> None:
    status = status_of(kind)
    for surface, answer in answers.items():
        if isinstance(answer, tuple):
            assert answer == (status, code), surface
        else:
            assert answer == status, surface


def test_a_stale_page_is_a_409_everywhere(club: Club) -> None:
    match = club.matches[0]
    answers = same_deal_three_ways(club, match, deal(match, match.last_seq - 1, (60, 40)))
    assert status_of(store_errors.StaleSequence) == 409
    assert_same(answers, store_errors.StaleSequence, "stale_expected_seq")


def test_a_deal_the_engine_refuses_is_a_422_everywhere(club: Club) -> None:
    match = club.matches[0]
    answers = same_deal_three_ways(club, match, deal(match, match.last_seq, (60, 40), sweeps=20))
    assert status_of(store_errors.MoveRefused) == 422
    assert_same(answers, store_errors.MoveRefused, answers["api"][1])


def test_a_deal_of_a_match_that_is_over_is_a_409_everywhere(club: Club) -> None:
    match = club.matches[0]
    match_append_event(
        match=match, expected_seq=match.last_seq, kind=matchlog.Kind.DEAL_ENDED,
        payload={"points": [60, 40], "sweeps": [[], []]}, actor=club.users["director"],
    )  # fmt: skip
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    answers = same_deal_three_ways(club, match, deal(match, match.last_seq, (60, 40)))
    assert_same(answers, store_errors.MatchStateConflict, "match_over")


def test_a_team_confirming_its_own_entry_is_a_403_on_the_api_and_the_phone(club: Club) -> None:
    match = club.matches[0]
    player = club.player_of(match, 0)
    entered = phone(club, player, match, "enter", deal(match, match.last_seq, (60, 40)))
    assert entered[0] == 200
    match.refresh_from_db()
    entry = match_state(match).entries[0].number
    seq = match.last_seq
    confirm = {"expected_seq": seq, "client_id": "own-0001", "entry": entry, "action": "confirm"}
    answers = {
        "api": api(club, player, match, matchlog.Kind.DEAL_CONFIRMED, {"entry": entry}, seq),
        "phone": phone(club, player, match, "answer", confirm),
    }
    assert_same(answers, store_errors.NotPermitted, "own_entry")


def test_a_deal_result_in_a_digital_match_is_a_400_on_the_api_and_the_desk(club: Club) -> None:
    """The phone page has no such match to send it to (404): only score matches."""
    match = club.digital
    data = deal(match, match.last_seq, (60, 40))
    answers = {
        "api": api(
            club, "director", match, matchlog.Kind.DEAL_ENDED, payload(match, data), match.last_seq
        ),
        "desk": desk(club, match, "decide", decided(data)),
    }
    assert status_of(store_errors.CommandRefused) == 400
    assert_same(answers, store_errors.CommandRefused, "mode_mismatch")


def test_a_correction_of_a_deal_never_played_is_the_same_on_the_api_and_the_desk(
    club: Club,
) -> None:
    match = club.matches[0]
    seq = match.last_seq
    body = {"deal": 5, "reason": "no such deal"}
    fix = {
        "fix-kind": "deal_voided", "fix-deal": 5, "fix-reason": "no such deal",
        "fix-expected_seq": seq, "fix-client_id": "void-0005", "step": "apply",
    }  # fmt: skip
    answers = {
        "api": api(club, "director", match, matchlog.Kind.DEAL_VOIDED, body, seq),
        "desk": desk(club, match, "correct", fix),
    }
    assert answers["api"] == (status_of(store_errors.CommandRefused), "no_such_deal")
    assert_same(answers, store_errors.CommandRefused, "no_such_deal")


def test_a_move_from_a_stale_seat_page_is_a_409_on_the_api_and_the_seat(club: Club) -> None:
    match = club.digital
    in_play = match_state(match).deal
    assert in_play is not None and in_play.to_play is not None
    move = dict(sc.legal_moves(in_play)[0])
    who = match.seat_players()[in_play.to_play].user.username
    stale = match.last_seq - 1
    client = club.client(who)
    seat_answer = client.post(
        f"/play/{match.pk}/move/",
        {"expected_seq": stale, "client_id": "stale-move-0001", "move": moves.key(move)},
        **JSON,
    )
    answers = {
        "api": api(club, who, match, matchlog.MOVE_PLAYED, {"move": move}, stale),
        "seat": seat_answer.status_code,
    }
    assert_same(answers, store_errors.StaleSequence, "stale_expected_seq")


def test_an_edit_of_a_published_round_is_a_409_on_the_api_and_the_desk(club: Club) -> None:
    round_ = club.round
    client = APIClient()
    client.force_login(club.users["director"])
    api_answer = client.patch(
        f"/api/v1/rounds/{round_.pk}/", {"swap_tables": [1, 2]}, format="json"
    )
    desk_answer = club.client("director").post(
        f"/desk/{club.tournament.slug}/rounds/{round_.pk}/edit/",
        {"swap": "tables", "table_x": 1, "table_y": 2},
    )
    answers = {
        "api": (api_answer.status_code, api_answer.json()["code"]),
        "desk": desk_answer.status_code,
    }
    assert_same(answers, competition_errors.NotNow, "round_published")


def test_an_edit_of_a_started_stage_is_a_409_on_the_api_and_the_desk(club: Club) -> None:
    stage = club.stage
    client = APIClient()
    client.force_login(club.users["director"])
    api_answer = client.patch(f"/api/v1/stages/{stage.pk}/", {"rounds": 5}, format="json")
    director = club.client("director")
    url = f"/desk/{club.tournament.slug}/stages/{stage.pk}/edit/"
    form = director.get(url).context["form"]
    # the stage's own settings as its form shows them, a valid form the service then refuses
    shown = {name: form[name].value() for name in form.fields}
    desk_answer = director.post(url, {k: v for k, v in shown.items() if v is not None})
    assert "fixed once it starts" in desk_answer.content.decode()
    answers = {
        "api": (api_answer.status_code, api_answer.json()["code"]),
        "desk": desk_answer.status_code,
    }
    assert_same(answers, competition_errors.NotNow, "stage_started")
