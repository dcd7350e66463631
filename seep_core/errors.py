"""The errors the engine raises: every refusal is a ValueError subclass with a stable code."""

from __future__ import annotations


class SeepError(ValueError):
    """Base of every refusal: `code` is stable and machine-readable, `message` is for people."""

    code: str
    message: str
    rule: str | None

    def __init__(self, message: str, *, code: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.rule = rule

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, rule={self.rule!r}, {self.message!r})"


class MalformedMove(SeepError):
    """A move that cannot be read: wrong shape, unknown card, wrong seat, a card not held.

    Also an entered deal result (score mode) that is not two numbers and two lists.
    """


class IllegalMove(SeepError):
    """A well-formed move the rules forbid here; `rule` is the docs/rules.md id it breaks."""

    rule: str

    def __init__(self, message: str, *, rule: str, code: str) -> None:
        super().__init__(message, code=code, rule=rule)


class InvalidPosition(SeepError):
    """A position (or a part of one) that is malformed or inconsistent."""


class InvalidRules(SeepError):
    """Rule variants outside what docs/rules.md allows."""
