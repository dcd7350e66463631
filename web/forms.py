"""The web pages' forms: what a person types, checked in plain words before any service sees it.

The services check everything again (the engine has the last word on a deal result); the
forms only turn fields into a command's payload and catch the mistakes a person makes.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import seep_core as sc
from tournaments import matchlog
from tournaments.models import INTEGER_MAX

_SWEEPS = gettext_lazy("Sweeps")
CLIENT_ID = RegexValidator(
    r"^[A-Za-z0-9-]{8,64}$", gettext_lazy("This form is damaged: reload the page.")
)


class Command(forms.Form):
    """A command to a match: the head of the log the page showed and the client's own id.

    The client id is the command's idempotency key: a phone that resends after a lost
    connection writes the command once.
    """

    expected_seq = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    client_id = forms.CharField(validators=[CLIENT_ID], widget=forms.HiddenInput)


def ascii_id(value: str | None) -> int | None:
    """Return ``value`` as an id if it is one (ASCII digits, as many as an id has), else None."""
    # str.isdigit() is true of "²", which int() refuses
    if value and value.isascii() and value.isdigit() and len(value) <= 18:
        return int(value)
    return None


def sweep_values(rules: sc.Rules, count: int, first: bool) -> list[int]:
    """Return a team's sweeps as the store takes them: ``count`` sweeps, the first-play one
    first."""
    return ([rules.first_sweep] if first else []) + [rules.sweep] * count


def _by_team(
    form: forms.Form, rules: dict[str, Any], teams: tuple[str, str], *, worth: bool
) -> sc.Rules:
    """Return the match's rules, having named each team's fields of a deal's numbers after the
    team (with what a sweep is worth, if ``worth``), and dropped the first-play sweep where the
    rules have none."""
    parsed = sc.Rules.from_dict(rules)
    for side, name in zip("ab", teams, strict=True):
        form.fields[f"points_{side}"].label = _("Card points of %(team)s") % {"team": name}
        form.fields[f"sweeps_{side}"].label = (
            _("Sweeps of %(team)s (worth %(worth)s)") % {"team": name, "worth": parsed.sweep}
            if worth
            else _("Sweeps of %(team)s") % {"team": name}
        )
        form.fields[f"first_{side}"].label = (
            _("%(team)s swept on the first play (worth %(worth)s)")
            % {"team": name, "worth": parsed.first_sweep}
            if worth
            else _("%(team)s swept on the first play") % {"team": name}
        )
    if not parsed.first_sweep:
        del form.fields["first_a"], form.fields["first_b"]
    return parsed


def _one_first_sweep(data: dict[str, Any]) -> dict[str, Any]:
    """Return a deal's numbers, unless both teams swept on the first play (refused)."""
    if data.get("first_a") and data.get("first_b"):
        raise forms.ValidationError(
            _("Only one team can sweep on the first play."), code="two_first_sweeps"
        )
    return data


def _sweeps(rules: sc.Rules, data: dict[str, Any]) -> list[list[int]]:
    """Return each team's sweeps in a deal's numbers as the store takes them (none: blank)."""
    return [
        sweep_values(rules, data[f"sweeps_{side}"] or 0, bool(data.get(f"first_{side}")))
        for side in "ab"
    ]


class DealResult(Command):
    """A deal's result: each team's card points (adding up to 100) and sweeps."""

    points_a = forms.IntegerField(min_value=0, max_value=100, label=gettext_lazy("Card points"))
    points_b = forms.IntegerField(min_value=0, max_value=100, label=gettext_lazy("Card points"))
    sweeps_a = forms.IntegerField(
        min_value=0, max_value=24, initial=0, label=gettext_lazy("Sweeps")
    )
    sweeps_b = forms.IntegerField(
        min_value=0, max_value=24, initial=0, label=gettext_lazy("Sweeps")
    )
    first_a = forms.BooleanField(required=False, label=gettext_lazy("Swept on the first play"))
    first_b = forms.BooleanField(required=False, label=gettext_lazy("Swept on the first play"))

    def __init__(self, *args: Any, rules: dict[str, Any], teams: tuple[str, str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.rules = _by_team(self, rules, teams, worth=True)
        self.teams = teams

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        a, b = data.get("points_a"), data.get("points_b")
        if a is not None and b is not None and a + b != 100:
            raise forms.ValidationError(
                _("The card points must add up to 100: %(a)s + %(b)s = %(sum)s.")
                % {"a": a, "b": b, "sum": a + b},
                code="not_100",
            )
        return _one_first_sweep(data)

    def payload(self) -> dict[str, Any]:
        """Return the deal result as the store takes it: points and sweep values per team."""
        data = self.cleaned_data
        return {"points": [data["points_a"], data["points_b"]], "sweeps": _sweeps(self.rules, data)}


class Answer(Command):
    """The other team's answer to an entered result: confirm it, or reject it with a reason."""

    entry = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class CodeConfirm(Answer):
    """The other team's confirmation on this phone (one phone a table): the code on its card."""

    code = forms.CharField(max_length=20, label=gettext_lazy("Their code"), strip=True)


class CodeEntry(DealResult):
    """The other team's own numbers, entered on this phone (one phone a table, a match whose
    sides both enter): the code on its card."""

    code = forms.CharField(max_length=20, label=gettext_lazy("Their code"), strip=True)


class Reject(Answer):
    """A rejection: the reason, and if the rejecting team gives them, its own numbers (the
    log keeps them beside the entry, and the director's form offers both)."""

    reason = forms.CharField(
        max_length=500, label=gettext_lazy("What is wrong with it?"), widget=forms.TextInput
    )
    points_a = forms.IntegerField(min_value=0, max_value=100, required=False)
    points_b = forms.IntegerField(min_value=0, max_value=100, required=False)
    sweeps_a = forms.IntegerField(min_value=0, max_value=24, required=False)
    sweeps_b = forms.IntegerField(min_value=0, max_value=24, required=False)
    first_a = forms.BooleanField(required=False)
    first_b = forms.BooleanField(required=False)

    def __init__(self, *args: Any, rules: dict[str, Any], teams: tuple[str, str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.rules = _by_team(self, rules, teams, worth=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        a, b = data.get("points_a"), data.get("points_b")
        if a is None and b is None:
            if any(data.get(f"{name}_{side}") for name in ("sweeps", "first") for side in "ab"):
                raise forms.ValidationError(
                    _("Give both teams' card points with your sweeps, or neither."),
                    code="version_without_points",
                )
            return data
        if a is None or b is None or a + b != 100:
            raise forms.ValidationError(
                _("Your version's card points must add up to 100: %(a)s + %(b)s = %(sum)s.")
                % {"a": a or 0, "b": b or 0, "sum": (a or 0) + (b or 0)},
                code="not_100",
            )
        return _one_first_sweep(data)

    def payload(self) -> dict[str, Any]:
        """Return the rejection as the store takes it: with the team's own version if given."""
        data = self.cleaned_data
        out: dict[str, Any] = {"entry": data["entry"], "reason": data["reason"]}
        if data.get("points_a") is None:
            return out
        points = [data["points_a"], data["points_b"]]
        return {**out, "points": points, "sweeps": _sweeps(self.rules, data)}


class RegisterTeam(forms.Form):
    name = forms.CharField(max_length=200, label=gettext_lazy("Team name"))
    first_player = forms.CharField(
        max_length=200, label=gettext_lazy("First player"),
        help_text=gettext_lazy("A member of the club as you type, or a new name (a new member)."),
        widget=forms.TextInput(attrs={"list": "members", "autocomplete": "off"}),
    )  # fmt: skip
    second_player = forms.CharField(
        max_length=200, label=gettext_lazy("Second player"),
        widget=forms.TextInput(attrs={"list": "members", "autocomplete": "off"}),
    )  # fmt: skip
    seed = forms.IntegerField(
        min_value=1, max_value=INTEGER_MAX, required=False, label=gettext_lazy("Seed (optional)")
    )
    checked_in = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Checked in now")
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("first_player"), data.get("second_player")
        if first and second and first.strip().lower() == second.strip().lower():
            raise forms.ValidationError(_("A team is two different players."))
        return data


class SwapTeams(forms.Form):
    team_x = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Swap this team"))
    team_y = forms.TypedChoiceField(coerce=int, label=gettext_lazy("with this team"))
    force = forms.BooleanField(
        required=False, label=gettext_lazy("Even if it breaks a pairing rule")
    )

    def __init__(self, *args: Any, teams: list[tuple[int, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        for name in ("team_x", "team_y"):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = teams

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("team_x") is not None and data.get("team_x") == data.get("team_y"):
            raise forms.ValidationError(_("Pick two different teams to swap."))
        return data


class SwapTables(forms.Form):
    table_x = forms.IntegerField(min_value=1, label=gettext_lazy("Swap table"))
    table_y = forms.IntegerField(min_value=1, label=gettext_lazy("with table"))


class Decide(DealResult):
    """A director's decision of a disputed deal: the result that counts."""


CORRECTION_KINDS = [
    (matchlog.Kind.DEAL_CORRECTED.value, gettext_lazy("Correct a deal's result")),
    (matchlog.Kind.DEAL_VOIDED.value, gettext_lazy("Void a deal")),
    (matchlog.Kind.SCORE_ADJUSTED.value, gettext_lazy("Adjust the score (a penalty or a bonus)")),
    (matchlog.Kind.MATCH_FORFEITED.value, gettext_lazy("Record a forfeit")),
]


class Correction(Command):
    """A director's correction of a match: what kind, which deal or team, and the reason."""

    kind = forms.ChoiceField(choices=CORRECTION_KINDS, label=gettext_lazy("Correction"))
    deal = forms.IntegerField(min_value=1, required=False, label=gettext_lazy("Deal number"))
    points_a = forms.IntegerField(min_value=0, max_value=100, required=False)
    points_b = forms.IntegerField(min_value=0, max_value=100, required=False)
    sweeps_a = forms.CharField(required=False, max_length=100)
    sweeps_b = forms.CharField(required=False, max_length=100)
    team = forms.TypedChoiceField(coerce=int, required=False, choices=[(0, ""), (1, "")])
    amount = forms.IntegerField(required=False, label=gettext_lazy("Points (negative: a penalty)"))
    reason = forms.CharField(
        max_length=500, label=gettext_lazy("Reason (kept in the match's history)")
    )
    confirm = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "I have seen what it changes: apply it even though later rounds "
            "were built on this result"
        ),
    )

    def __init__(self, *args: Any, teams: tuple[str, str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["points_a"].label = _("Card points of %(team)s") % {"team": teams[0]}
        self.fields["points_b"].label = _("Card points of %(team)s") % {"team": teams[1]}
        self.fields["sweeps_a"].label = _("Sweeps of %(team)s (values, e.g. 50, 50)") % {
            "team": teams[0]
        }
        self.fields["sweeps_b"].label = _("Sweeps of %(team)s (values, e.g. 25, 50)") % {
            "team": teams[1]
        }
        team = self.fields["team"]
        assert isinstance(team, forms.ChoiceField)
        team.choices = [(0, teams[0]), (1, teams[1])]
        self.fields["team"].label = _("Team")

    @staticmethod
    def _sweeps(text: str) -> list[int]:
        values = [v.strip() for v in text.replace(";", ",").split(",") if v.strip()]
        # ASCII digits: str.isdigit() is true of "²" too, which int() refuses
        if not all(v.isascii() and v.isdigit() and len(v) <= 9 for v in values):
            raise forms.ValidationError(_("Sweeps are whole numbers separated by commas: 50, 25."))
        return [int(v) for v in values]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("kind")
        need: dict[str, tuple[str, ...]] = {
            matchlog.Kind.DEAL_CORRECTED: ("deal", "points_a", "points_b"),
            matchlog.Kind.DEAL_VOIDED: ("deal",),
            matchlog.Kind.SCORE_ADJUSTED: ("team", "amount"),
            matchlog.Kind.MATCH_FORFEITED: ("team",),
        }
        for name in need.get(kind or "", ()):
            if data.get(name) in (None, ""):
                self.add_error(name, _("Needed for this correction."))
        if kind == matchlog.Kind.DEAL_CORRECTED:
            a, b = data.get("points_a"), data.get("points_b")
            if a is not None and b is not None and a + b != 100:
                self.add_error(
                    "points_b",
                    _("The card points must add up to 100: %(a)s + %(b)s.") % {"a": a, "b": b},
                )
            for side in "ab":
                try:
                    data[f"sweep_values_{side}"] = self._sweeps(data.get(f"sweeps_{side}") or "")
                except forms.ValidationError as exc:
                    self.add_error(f"sweeps_{side}", exc)
        return data

    def payload(self) -> dict[str, Any]:
        """Return the correction's payload as the store takes it."""
        data = self.cleaned_data
        kind, reason = data["kind"], data["reason"]
        if kind == matchlog.Kind.DEAL_CORRECTED:
            return {
                "deal": data["deal"],
                "points": [data["points_a"], data["points_b"]],
                "sweeps": [data["sweep_values_a"], data["sweep_values_b"]],
                "reason": reason,
            }
        if kind == matchlog.Kind.DEAL_VOIDED:
            return {"deal": data["deal"], "reason": reason}
        if kind == matchlog.Kind.SCORE_ADJUSTED:
            return {"team": data["team"], "points": data["amount"], "reason": reason}
        return {"team": data["team"], "reason": reason}
