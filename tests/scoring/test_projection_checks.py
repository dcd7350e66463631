"""The projection's check of a log against itself: the match_ended that stands is compared with
the fold of the deals; an end a director's correction has superseded is history."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import pytest

import seep_core as sc
from scoring.projections import LogEvent, fold

NOW = datetime(2026, 1, 1, tzinfo=UTC)
STARTED = {"first_dealer": 1, "format": {"bazzis": 1}, "rules": sc.Rules().to_dict()}
BAZZI0 = {"deal": 1, "dealer": 1, "points": [91, 9], "sweeps": [[50], []], "total": [141, 9]}
BAZZI1 = {"deal": 1, "dealer": 1, "points": [9, 91], "sweeps": [[], [50]], "total": [9, 141]}
WON_BY_0 = {"winner": 0, "draw": False, "bazzis": [1, 0], "difference": 0, "deals": 1}
WON_BY_1 = {"winner": 1, "draw": False, "bazzis": [0, 1], "difference": 0, "deals": 1}


def logged_errors(caplog: pytest.LogCaptureFixture, *events: tuple[str, dict[str, Any]]) -> list:
    log = [LogEvent(seq, kind, payload, NOW) for seq, (kind, payload) in enumerate(events, 1)]
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="scoring.projections"):
        fold(log)
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_match_ended_the_deals_contradict_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = logged_errors(
        caplog, ("match_started", STARTED), ("deal_ended", BAZZI0), ("match_ended", WON_BY_1)
    )
    assert len(errors) == 1 and errors[0].startswith("event 3: match_ended says")


def test_an_end_a_correction_superseded_is_not_held_against_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    corrected = {**BAZZI1, "reason": "the sweep was team 1's"}
    ended_again = [
        ("match_started", STARTED),
        ("deal_ended", BAZZI0),
        ("match_ended", WON_BY_0),
        ("deal_corrected", corrected),
        ("match_ended", WON_BY_1),
    ]
    assert logged_errors(caplog, *ended_again) == []
    assert fold(LogEvent(n, k, p, NOW) for n, (k, p) in enumerate(ended_again, 1)).match.winner == 1
    reopened = [
        ("match_started", STARTED),
        ("deal_ended", BAZZI0),
        ("match_ended", WON_BY_0),
        ("deal_voided", {"deal": 1, "reason": "a misdeal"}),
        ("match_reopened", {"deals": 0}),
    ]
    assert logged_errors(caplog, *reopened) == []
    # the end that stands is still checked: a wrong one after a correction is logged
    assert len(logged_errors(caplog, *ended_again[:-1], ("match_ended", WON_BY_0))) == 1
