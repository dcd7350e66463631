"""Why a competition request was refused: a stable code, and words an organizer understands.

Like the store's refusals, the kind of refusal is the class; what it means over HTTP is the
API layer's business.
"""

from __future__ import annotations

from tournaments.errors import Refused


class CompetitionRefused(Refused):
    """A request about registration, stages or rounds that changed nothing."""


class InvalidSettings(CompetitionRefused):
    """A stage's or a team's settings the formats cannot take.

    ``fields``: what is wrong with each setting, by its name (``"__all__"``: with none in
    particular), when the refusal is about named settings; ``field`` is the first of them.
    """

    def __init__(
        self, message: str, *, code: str, fields: dict[str, list[str]] | None = None
    ) -> None:
        super().__init__(message, code=code)
        self.fields = dict(fields or {})

    @property
    def field(self) -> str | None:
        """The (first) setting the refusal names, or None."""
        return next(iter(self.fields), None)


class NotNow(CompetitionRefused):
    """Right request, wrong moment: the stage has started, the round is published..."""


class DraftEditRefused(CompetitionRefused):
    """An edit of a draft round that breaks a pairing constraint (``problems`` says which)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems), code="pairing_constraint")
        self.problems = problems


class NotPermitted(CompetitionRefused):
    """The actor does not direct this tournament."""
