"""The director's desk's forms: a new evening, a stage, teams in bulk, a team's details.

Every setting is a field with its explanation (never JSON); the forms turn fields into the
services' arguments, and the services check everything again (the same refusals reach the
API and the admin). Tie-breaks are chosen in order from the list docs/competition.md gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import seep_core as sc
from competition import formats, presets
from competition.models import Stage
from tournaments import matchlog
from tournaments.models import INTEGER_MAX, INTEGER_MIN

from . import desk_words, words

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MODES = [
    (matchlog.Mode.SCORE.value, _("score entry (real cards)")),
    (matchlog.Mode.TABLE.value, _("every card recorded (real cards)")),
    (matchlog.Mode.DIGITAL.value, _("digital (on phones)")),
]
MODE_HELP = _(
    "Score entry: each deal's result is entered. Every card recorded: the cards are entered "
    "as they are played at the table. Digital: played on phones, dealt by the server."
)
CONFIRMATIONS = desk_words.choices(desk_words.CONFIRMATIONS)
CONFIRMATION_HELP = _(
    "Score entry only. The other team confirms: one team enters, someone of the other team "
    "confirms on their phone. Both teams enter: matching entries count. It counts at once: a "
    "trusted score-keeper's entry."
)
#: the new evening's seedings (a first stage has no stage before to seed by)
SEEDINGS = [
    (code, desk_words.SEEDINGS[code])
    for code in (Stage.Seeding.MANUAL, Stage.Seeding.RATING, Stage.Seeding.RANDOM)
]
TIEBREAK_CHOICES: list[tuple[str, Promise | str]] = [
    ("", _("(none)")),
    *(
        (key, desk_words.TIEBREAKS.get(key, label))
        for key, label in formats.TIEBREAK_LABELS.items()
    ),
]
TIEBREAK_SLOTS = 5
TIEBREAK_HELP = _(
    "When teams have the same match points, these decide, in the order you choose them: "
    "bazzis won, bazzi difference, running difference (card points carried, back to 0 at each "
    "bazzi), points difference (card points over every deal, for and against), deals won, "
    "sweeps, head-to-head (the games among the level teams), Buchholz (the opponents' points), "
    "Buchholz cut 1 (without the weakest opponent), Sonneborn-Berger, and a random draw (last "
    "only)."
)
#: the new evening's: left empty, the shape's own
PRESET_TIEBREAK_HELP = format_lazy(
    "{} {}",
    _(
        "Leave them all empty for the shape's own: a Swiss takes Buchholz, points difference, "
        "Sonneborn-Berger, head-to-head; a round robin or groups take head-to-head, points "
        "difference, Sonneborn-Berger, deals won. Teams still level across a knockout's cut "
        "wait for you to draw a lot or set their order."
    ),
    TIEBREAK_HELP,
)


def _int(label: StrOrPromise, *, low: int, high: int, initial: int | None = None, **kw: Any) -> Any:
    return forms.IntegerField(label=label, min_value=low, max_value=high, initial=initial, **kw)


class MatchFormatFields(forms.Form):
    """How long a match lasts (M1), as fields: bazzis, first to, a deal cap, draws."""

    bazzis = _int(
        _("Bazzis a match"), low=1, high=99, initial=1,
        help_text=_("A bazzi is won at a running lead of 100 (or the rules' lead)."),
    )  # fmt: skip
    first_to = forms.BooleanField(
        required=False, label=_("First to that many bazzis wins (otherwise all are played)")
    )
    deal_cap = _int(
        _("At most this many deals (optional)"), low=1, high=1000, required=False,
        help_text=_("When the cap is reached, bazzis won and then the running difference decide."),
    )  # fmt: skip
    draws = forms.BooleanField(
        required=False, initial=True,
        label=_("A level match is a draw (a knockout always plays on until one team leads)"),
    )  # fmt: skip

    def match_format(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {"bazzis": d["bazzis"], "first_to": d["first_to"], "deal_cap": d["deal_cap"],
                "draws": d["draws"]}  # fmt: skip


class TiebreakFields(forms.Form):
    """The tie-breaks, in order, as up to five choices from the docs' list."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{n}"] = forms.ChoiceField(
                choices=TIEBREAK_CHOICES, required=False,
                label=gettext("Tie-break %(n)s") % {"n": n},
                help_text=TIEBREAK_HELP if n == 1 else "",
            )  # fmt: skip

    def tiebreaks(self) -> list[str]:
        chosen = [self.cleaned_data.get(f"tiebreak_{n}") for n in range(1, TIEBREAK_SLOTS + 1)]
        return [c for c in chosen if c]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = [data.get(f"tiebreak_{n}") for n in range(1, TIEBREAK_SLOTS + 1)]
        picked = [c for c in chosen if c]
        if len(set(picked)) != len(picked):
            self.add_error("tiebreak_1", gettext("Each tie-break can be chosen once."))
        if "random" in picked and picked[-1] != "random":
            self.add_error("tiebreak_1", gettext("The random draw can only be the last tie-break."))
        return data

    def set_tiebreaks(self, names: list[str]) -> None:
        for n in range(1, TIEBREAK_SLOTS + 1):
            self.initial[f"tiebreak_{n}"] = names[n - 1] if n <= len(names) else ""


class NewEvening(MatchFormatFields, TiebreakFields):
    """A tournament in one form: what, when, where, the rules, and its stages as a preset."""

    club = forms.TypedChoiceField(coerce=int, label=_("Club"))
    name = forms.CharField(
        max_length=200, label=_("Name"), help_text=_("Its web address follows it.")
    )
    date = forms.DateField(
        required=False, label=_("Date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    place = forms.CharField(max_length=200, required=False, label=_("Place"))
    published = forms.BooleanField(
        required=False, initial=True, label=_("Public: anyone can follow its page")
    )
    # the rules (docs/rules.md, V1-V5)
    sweep = _int(_("A sweep is worth"), low=0, high=1000, initial=50)
    first_sweep = _int(_("A sweep on the first play is worth"), low=0, high=1000, initial=25)
    last_sweep = _int(_("A sweep on the last play is worth"), low=0, high=1000, initial=0)
    minimum = _int(
        _("Minimum deal score"), low=0, high=50, initial=9,
        help_text=_("A team scoring less in a deal is reset (0 turns the rule off)."),
    )  # fmt: skip
    bazzi_lead = _int(_("A bazzi is won at a lead of"), low=1, high=10000, initial=100)
    max_houses = _int(
        _("At most this many houses on the floor (optional)"), low=1, high=5, required=False
    )
    auto_join_sets = forms.BooleanField(
        required=False, label=_("Loose cards adding up to a house's value join it by themselves")
    )
    # the stages
    preset = forms.ChoiceField(
        choices=[(key, desk_words.PRESETS.get(key, label)) for key, label in presets.PRESETS],
        initial="swiss_knockout", widget=forms.RadioSelect, label=_("The evening's shape"),
    )  # fmt: skip
    rounds = _int(
        _("Swiss rounds (N)"), low=1, high=99, initial=3, required=False,
        help_text=_("A field of T teams can play at most T - 1 rounds."),
    )  # fmt: skip
    groups = _int(_("Groups"), low=1, high=64, initial=2, required=False)
    top = _int(
        _("Teams going through to the knockout (K)"), low=2, high=1024, initial=4, required=False,
        help_text=_("With groups: the top K of each group."),
    )  # fmt: skip
    mode = forms.ChoiceField(
        choices=MODES, initial="score", label=_("How matches are recorded"), help_text=MODE_HELP
    )
    confirmation = forms.ChoiceField(
        choices=CONFIRMATIONS, initial="other_team", label=_("Who confirms an entered deal"),
        help_text=CONFIRMATION_HELP,
    )  # fmt: skip
    points_win = _int(_("Match points for a win"), low=0, high=100, initial=2)
    points_draw = _int(_("for a draw"), low=0, high=100, initial=1)
    points_loss = _int(_("for a loss"), low=0, high=100, initial=0)
    points_bye = _int(_("for a bye"), low=0, high=100, initial=2)
    seeding = forms.ChoiceField(choices=SEEDINGS, initial="manual", label=_("Seeding"))
    third_place = forms.BooleanField(
        required=False, label=_("Play a third-place match (a knockout of 4 teams or more)")
    )

    def __init__(self, *args: Any, clubs: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club = self.fields["club"]
        assert isinstance(club, forms.ChoiceField)
        club.choices = clubs
        self.fields["tiebreak_1"].help_text = PRESET_TIEBREAK_HELP

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        preset = data.get("preset")
        if preset in ("swiss", "swiss_knockout") and not data.get("rounds"):
            self.add_error("rounds", gettext("Say how many Swiss rounds."))
        if preset == "groups_knockout" and not data.get("groups"):
            self.add_error("groups", gettext("Say how many groups."))
        if preset in ("swiss_knockout", "groups_knockout") and not data.get("top"):
            self.add_error("top", gettext("Say how many teams go through."))
        return data

    def rules(self) -> dict[str, Any]:
        d = self.cleaned_data
        names = ("sweep", "first_sweep", "last_sweep", "minimum", "bazzi_lead", "max_houses",
                 "auto_join_sets")  # fmt: skip
        return sc.Rules.from_dict({n: d[n] for n in names}).to_dict()

    def chosen_preset(self) -> presets.Preset:
        d = self.cleaned_data
        return presets.Preset(
            kind=d["preset"], rounds=d.get("rounds"), groups=d.get("groups"), top=d.get("top"),
            mode=d["mode"], confirmation=d["confirmation"], match_format=self.match_format(),
            points=(d["points_win"], d["points_draw"], d["points_loss"], d["points_bye"]),
            tiebreaks=tuple(self.tiebreaks()) or None, third_place=d["third_place"],
            seeding=d["seeding"],
        )  # fmt: skip


FORMATS = [
    (code, words.STAGE_FORMATS[code])
    for code in (
        Stage.Format.SWISS, Stage.Format.ROUND_ROBIN, Stage.Format.DOUBLE_ROUND_ROBIN,
        Stage.Format.GROUPS, Stage.Format.SINGLE_ELIMINATION, Stage.Format.DOUBLE_ELIMINATION,
    )
]  # fmt: skip


class StageForm(MatchFormatFields, TiebreakFields):
    """One stage's settings, for adding a stage or editing one that has not started."""

    name = forms.CharField(max_length=200, label=_("Name"))
    format = forms.ChoiceField(choices=FORMATS, label=_("Format"))
    rounds = _int(_("Swiss rounds"), low=1, high=99, required=False)
    groups = _int(_("Groups"), low=1, high=64, required=False)
    entry = forms.ChoiceField(
        choices=desk_words.choices(desk_words.ENTRIES), label=_("Its teams"),
        help_text=_("A later stage can take the top N of the stage before it."),
    )  # fmt: skip
    entry_count = _int(_("N (of the top N)"), low=1, high=4096, required=False)
    seeding = forms.ChoiceField(choices=desk_words.choices(desk_words.SEEDINGS), label=_("Seeding"))
    mode = forms.ChoiceField(
        choices=MODES, label=_("How matches are recorded"), help_text=MODE_HELP
    )
    confirmation = forms.ChoiceField(
        choices=CONFIRMATIONS, label=_("Who confirms an entered deal"), help_text=CONFIRMATION_HELP
    )
    points_win = _int(_("Match points for a win"), low=0, high=100)
    points_draw = _int(_("for a draw"), low=0, high=100)
    points_loss = _int(_("for a loss"), low=0, high=100)
    points_bye = _int(_("for a bye"), low=0, high=100)
    third_place = forms.BooleanField(required=False, label=_("Third-place match (single elim.)"))
    grand_final_reset = forms.BooleanField(
        required=False, label=_("Grand final reset (double elimination)")
    )
    late_entry = forms.BooleanField(
        required=False, label=_("Swiss: a team checked in late joins the next round")
    )
    start_matches = forms.BooleanField(
        required=False, label=_("Start each match when its round is published")
    )
    review_draw = forms.BooleanField(
        required=False, label=_("Knockout: review the draw before it is published")
    )

    SETTINGS = ("name", "format", "rounds", "groups", "entry", "entry_count", "seeding", "mode",
                "confirmation", "points_win", "points_draw", "points_loss", "points_bye",
                "third_place", "grand_final_reset", "late_entry", "start_matches",
                "review_draw")  # fmt: skip

    @classmethod
    def for_stage(cls, stage: Stage) -> StageForm:
        initial = {name: getattr(stage, name) for name in cls.SETTINGS}
        initial.update(sc.MatchFormat.from_dict(stage.match_format or {}).to_dict())
        form = cls(initial=initial)
        form.set_tiebreaks(list(stage.tiebreaks or []))
        return form

    def settings(self) -> dict[str, Any]:
        d = self.cleaned_data
        out = {name: d[name] for name in self.SETTINGS}
        if d["mode"] != matchlog.Mode.SCORE:
            out["confirmation"] = matchlog.Confirmation.NONE.value
        out["tiebreaks"] = self.tiebreaks()
        out["match_format"] = self.match_format()
        if out["format"] in (Stage.Format.SINGLE_ELIMINATION, Stage.Format.DOUBLE_ELIMINATION):
            del out["match_format"]["draws"]  # Stage.clean: a knockout never draws
        return out


class BulkTeams(forms.Form):
    """Teams pasted one a line (or a CSV file), previewed before anything is saved."""

    lines = forms.CharField(
        required=False, label=_("Teams, one a line"), widget=forms.Textarea(attrs={"rows": 10}),
        help_text=_(
            '"Aces: Asha & Bilal", or team, first and second player separated by tabs '
            "(a spreadsheet's copy) or commas. A name that matches a member of the club is "
            "that member; a new name makes a new member."
        ),
    )  # fmt: skip
    file = forms.FileField(
        required=False, label=_("Or a CSV file (team, first player, second player)")
    )
    checked_in = forms.BooleanField(required=False, initial=True, label=_("Checked in now"))

    def text(self) -> str:
        upload = self.cleaned_data.get("file")
        if upload is not None:
            return str(self.cleaned_data["file_text"])
        return str(self.cleaned_data.get("lines") or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None:
            if upload.size > 256 * 1024:
                self.add_error("file", _("A file of at most 256 KB."))
            else:
                try:
                    data["file_text"] = upload.read().decode("utf-8-sig")
                except UnicodeDecodeError:
                    self.add_error("file", _("Save the file as CSV in UTF-8 and try again."))
        elif not (data.get("lines") or "").strip():
            self.add_error("lines", _("Paste at least one team, or choose a file."))
        return data


class TeamDetails(forms.Form):
    """A team's name, and (before the first stage starts) its seed and rating."""

    name = forms.CharField(max_length=200, label=_("Team name"))
    seed = forms.IntegerField(
        label=_("Seed (1 first; blank: after the seeded)"), min_value=1, max_value=INTEGER_MAX,
        required=False,
    )  # fmt: skip
    rating = forms.IntegerField(
        label=_("Rating"), min_value=INTEGER_MIN, max_value=INTEGER_MAX, required=False
    )
    language = forms.ChoiceField(
        label=_("Language of its card and link"),
        choices=[("", _("The club's language")), *settings.LANGUAGES],
        required=False,
    )
