"""Why an append was refused: one error family, each with a stable code and an HTTP status.

Pure Python (no Django), so the match log fold and the API share it.
"""

from __future__ import annotations


class AppendRefused(Exception):
    """An append that wrote nothing. ``code`` is stable; ``rule`` is a docs/rules.md id or None."""

    status = 422

    def __init__(
        self, message: str, *, code: str, rule: str | None = None, status: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.rule = rule
        if status is not None:
            self.status = status


class CommandRefused(AppendRefused):
    """The match cannot take this command now (not started, over, wrong mode, bad payload)."""


class MoveRefused(AppendRefused):
    """The engine refused the move: illegal (with its rule id) or malformed."""


class StaleSequence(AppendRefused):
    """``expected_seq`` is not the head of the log: someone appended first."""

    status = 409

    def __init__(self, *, expected_seq: int, current_seq: int) -> None:
        super().__init__(
            f"expected_seq {expected_seq} is stale: the match is at seq {current_seq}",
            code="stale_expected_seq",
        )
        self.current_seq = current_seq


class IdempotencyKeyReused(AppendRefused):
    """The idempotency key was used before for a different request."""

    def __init__(self, key: str) -> None:
        super().__init__(
            f"Idempotency-Key {key!r} was used for a different request on this match",
            code="idempotency_key_reused",
        )


class NotPermitted(AppendRefused):
    """The actor may not append this to this match."""

    status = 403
