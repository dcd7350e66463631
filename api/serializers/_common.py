"""What every resource's shapes share: strict inputs, references to a user or a team, a
fixture's or a match's two sides, and the words for a winner and a fixture's result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.display_names import display_name

from ..access import visible_tournaments


class Strict(serializers.Serializer):  # type: ignore[type-arg]
    """A serializer that refuses fields it does not know, instead of ignoring them."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            unknown = sorted(str(k) for k in data if k not in writable)
            if unknown:
                raise serializers.ValidationError(
                    {name: ["not a field you may send"] for name in unknown}
                )
        return super().to_internal_value(data)


class StrictModel(Strict, serializers.ModelSerializer):  # type: ignore[type-arg]
    pass


class UserRef(serializers.Serializer):  # type: ignore[type-arg]
    """An account as others see it: its id and its display name, never its user name (half
    of what signs in; docs/api.md, "How an account is shown")."""

    id = serializers.IntegerField(read_only=True)
    display_name = serializers.SerializerMethodField(
        help_text='The full name the account\'s owner gave, else "Account <id>".'
    )

    @extend_schema_field(serializers.CharField())
    def get_display_name(self, user: Any) -> str:
        return display_name(user)


class TeamRef(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)


class Side(serializers.Serializer):  # type: ignore[type-arg]
    """One of a fixture's or a match's two sides, in the one vocabulary of the API (docs/api.md):
    ``sides`` is always two of these, side 0 first; a side is named by its index elsewhere
    (``winner_side``, an entry's ``side``, the first of every pair of numbers)."""

    side = serializers.IntegerField(
        read_only=True, min_value=0, max_value=1,
        help_text="0: the team at seats 0 and 2 (the match's team 0, the fixture's first); 1: "
        "the team at seats 1 and 3.",
    )  # fmt: skip
    id = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="The team's id: null while it is not known "
        "(a bracket slot waiting for a result) or for the missing side of a bye.",
    )  # fmt: skip
    name = serializers.CharField(read_only=True, allow_null=True, help_text="The team's name.")
    # a field named like Field.source: the serializer's metaclass takes it out of the class
    source = serializers.CharField(  # type: ignore[assignment]
        read_only=True, allow_null=True,
        help_text='Where the team comes from in a bracket ("Seed 3", "winner of QF1"), or null.',
    )  # fmt: skip


class SidesField(serializers.ListField):
    """The read-only ``sides`` of a fixture or a match: two ``Side``s, made by ``sides`` from
    the whole object (None: a dict that has them already, as a webhook's body)."""

    def __init__(self, what: str, sides: Callable[[Any], list[dict[str, Any]]] | None = None):
        kwargs: dict[str, Any] = {} if sides is None else {"source": "*"}
        super().__init__(
            child=Side(),
            min_length=2,
            max_length=2,
            read_only=True,
            help_text=f'The {what}\'s two sides, side 0 first (docs/api.md, "One vocabulary").',
            **kwargs,
        )
        self.sides = sides

    def to_representation(self, data: Any) -> Any:
        return data if self.sides is None else self.sides(data)


def sides_field(what: str) -> SidesField:
    """Return the ``sides`` field of a shape served as a dict (a bracket's, a webhook's)."""
    return SidesField(what)


WINNER_SIDE = "The side that won or went through (0 or 1), or null: not decided, or drawn."
FIXTURE_RESULT = (
    '"a": side 0 won, "b": side 1 won ("forfeit_a": side 0 forfeited, "bye": side 0 had a bye), '
    '"draw", "void", or empty (pending); winner_side names the side that went through.'
)


class VisibleTournament(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """A tournament the caller may see, by id: any other id, a private tournament's as one that
    names none, is the same error (knowing an id grants nothing, not even that it exists)."""

    default_error_messages = {
        "does_not_exist": "no such tournament",
        "incorrect_type": "a tournament id (a whole number)",
    }

    def get_queryset(self) -> Any:
        return visible_tournaments(self.context["request"])
