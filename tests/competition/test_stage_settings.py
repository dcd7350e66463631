"""A stage's settings are refused when saved, by every way in, and cannot break a round.

The row's own rules are ``Stage.clean``'s, the rules that read other rows the service's
(``services.check_settings``); the admin runs both, the services run them when a stage is
saved and when it starts, and pairing and publishing check a stored row once more. Starting,
pairing and publishing are each all-or-nothing: a failure midway changes nothing.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from competition import formats, services
from competition.errors import InvalidSettings
from competition.formats import TIEBREAK_LABELS, TIEBREAKS
from competition.models import Fixture, Registration, Round, Stage, StageEntry
from tests.scoring.helpers import committed
from tournaments.models import Happening, Match, MatchEvent, Player

from .helpers import Club, make_club

pytestmark = pytest.mark.django_db

FORMAT = {"bazzis": 1, "deal_cap": 2}


@pytest.fixture
def club() -> Club:
    return make_club(6)


def refusal(call: Callable[[], Any]) -> InvalidSettings:
    with pytest.raises(InvalidSettings) as refused:
        call()
    return refused.value


def state(club: Club) -> dict[str, Any]:
    """Everything a start, a pairing or a publish could change, row by row."""
    stages = Stage.objects.filter(tournament=club.tournament)
    return {
        "stages": list(stages.order_by("pk").values()),
        "entries": list(StageEntry.objects.filter(stage__in=stages).order_by("pk").values()),
        "rounds": list(Round.objects.filter(stage__in=stages).order_by("pk").values()),
        "fixtures": list(Fixture.objects.filter(stage__in=stages).order_by("pk").values()),
        "matches": list(Match.objects.filter(tournament=club.tournament).order_by("pk").values()),
        "events": MatchEvent.objects.filter(match__tournament=club.tournament).count(),
    }


@contextmanager
def failing_on_call(target: Any, name: str, n: int) -> Iterator[None]:
    """Make ``target.name`` raise on its ``n``-th call (the earlier calls do their work)."""
    original = getattr(target, name)
    calls = {"n": 0}

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == n:
            raise RuntimeError(f"call {n} of {name} failed")
        return original(*args, **kwargs)

    with mock.patch.object(target, name, wrapper):
        yield
    assert calls["n"] >= n, f"{name} was called {calls['n']} times, not {n}"


# --- the tie-breaks' names ----------------------------------------------------------------


def test_every_tie_break_has_its_name_in_words_in_the_order_of_the_keys() -> None:
    assert list(TIEBREAK_LABELS) == list(TIEBREAKS)
    assert TIEBREAK_LABELS["bazzis_won"] == "bazzis won"
    assert TIEBREAK_LABELS["random"] == "random draw"
    assert formats.TIEBREAK_LABELS is TIEBREAK_LABELS


def test_the_docs_table_names_each_tie_break_beside_its_key() -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "competition.md").read_text()
    for key, label in TIEBREAK_LABELS.items():
        assert f"| {label} | `{key}` |" in docs


# --- refused when saved, naming the setting -----------------------------------------------


#: (settings, code, the field named, words of its message)
SETTING_REFUSALS = [
    ({"tiebreaks": ["bazzis won", "Buchholz"]}, "bad_tiebreaks", "tiebreaks", "bazzis_won"),
    ({"tiebreaks": ["charm"]}, "bad_tiebreaks", "tiebreaks", "head-to-head (head_to_head)"),
    ({"tiebreaks": ["buchholz", "buchholz"]}, "bad_tiebreaks", "tiebreaks", "more than once"),
    ({"tiebreaks": ["random", "buchholz"]}, "bad_tiebreaks", "tiebreaks", "only be the last"),
    ({"tiebreaks": "buchholz"}, "bad_tiebreaks", "tiebreaks", "a list of keys"),
    ({"match_format": {"bazzis": 0}}, "bad_format", "match_format", "the match format"),
    ({"match_format": [1]}, "bad_format", "match_format", "the match format is an object"),
    ({"format": "ladder"}, "bad_format", "format", "round robin (round_robin)"),
    ({"mode": "telepathy"}, "bad_mode", "mode", "play mode"),
    ({"confirmation": "nobody"}, "bad_confirmation", "confirmation", "unknown confirmation"),
    ({"mode": "digital", "confirmation": "other_team"}, "bad_confirmation", "confirmation",
     "score mode only"),
    ({"late_entry": True}, "bad_entry", "late_entry", "Swiss stage only"),
    ({"format": "swiss"}, "bad_rounds", "rounds", "number of rounds"),
    ({"format": "swiss", "rounds": 0}, "bad_rounds", "rounds", "number of rounds"),
    ({"format": "groups"}, "bad_groups", "groups", "number of groups"),
    ({"format": "groups", "groups": 0}, "bad_groups", "groups", "number of groups"),
    ({"entry": "top", "entry_count": 4}, "bad_entry", "entry", "the first stage"),
    ({"format": "single_elimination", "match_format": {"bazzis": 1, "draws": True}},
     "bad_format", "match_format", "cannot end drawn"),
]  # fmt: skip


@pytest.mark.parametrize(("settings", "code", "field", "words"), SETTING_REFUSALS)
def test_a_setting_the_formats_cannot_take_is_refused_naming_it(
    club: Club, settings: dict[str, Any], code: str, field: str, words: str
) -> None:
    settings = {"format": "round_robin", **settings}
    refused = refusal(lambda: club.stage(**settings))
    assert refused.code == code
    assert refused.field == field
    assert any(words in message for message in refused.fields[field]), refused.fields
    assert words in refused.message
    assert not club.tournament.stages.exists()


def test_the_docs_words_for_a_tie_break_are_refused_with_its_key() -> None:
    stage = Stage(format="round_robin", match_format=FORMAT, tiebreaks=["bazzis won", "Buchholz"])
    with pytest.raises(ValidationError) as refused:
        stage.clean()
    (message,) = refused.value.message_dict["tiebreaks"]
    assert "'bazzis won' (its key is bazzis_won)" in message
    assert "'Buchholz' (its key is buchholz)" in message


@given(
    st.lists(
        st.sampled_from([*TIEBREAKS, "bazzis won", "Buchholz", "charm"]), min_size=0, max_size=6
    )
)
@examples(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_list_of_distinct_known_tie_breaks_with_the_random_draw_last_is_taken_and_no_other(
    club: Club, names: list[str]
) -> None:
    fine = (
        all(n in TIEBREAKS for n in names)
        and len(set(names)) == len(names)
        and ("random" not in names or names[-1] == "random")
    )
    before = club.tournament.stages.count()
    try:
        stage = club.stage(format="round_robin", tiebreaks=names)
    except InvalidSettings as refused:
        assert not fine, refused.message
        assert (refused.code, list(refused.fields)) == ("bad_tiebreaks", ["tiebreaks"])
        assert club.tournament.stages.count() == before
    else:
        assert fine
        stage.refresh_from_db()
        assert stage.tiebreaks == names


def test_an_update_the_formats_cannot_take_is_refused_and_changes_nothing(club: Club) -> None:
    stage = club.stage(format="swiss", rounds=3, tiebreaks=["buchholz"])
    before = Stage.objects.filter(pk=stage.pk).values().get()
    refused = refusal(
        lambda: services.stage_update(
            actor=club.organizer, stage=stage, tiebreaks=["bazzis won"], points_win=3
        )
    )
    assert (refused.code, refused.field) == ("bad_tiebreaks", "tiebreaks")
    assert Stage.objects.filter(pk=stage.pk).values().get() == before


def test_a_refusal_names_every_setting_it_refuses(club: Club) -> None:
    wrong = {"tiebreaks": ["random", "sweeps"], "mode": "digital", "confirmation": "both_enter"}
    refused = refusal(lambda: club.stage(format="swiss", **wrong))
    assert set(refused.fields) == {"rounds", "tiebreaks", "confirmation"}
    assert refused.code == "bad_confirmation"  # the first in a fixed order: stable


def test_a_stage_left_without_a_match_format_takes_the_tournaments() -> None:
    club = make_club(4, slug="formats")
    club.tournament.match_format = {"bazzis": 3, "first_to": False, "deal_cap": None,
                                    "draws": True}  # fmt: skip
    club.tournament.save()
    league = club.stage(format="round_robin", match_format=None)
    knockout = club.stage(format="single_elimination", entry="top", entry_count=4,
                          match_format=None)  # fmt: skip
    assert league.match_format == club.tournament.match_format
    assert knockout.match_format == {**club.tournament.match_format, "draws": False}


# --- what the stage before (or the teams) allow -------------------------------------------


def test_a_top_k_larger_than_the_registered_field_is_refused(club: Club) -> None:
    club.stage(format="round_robin")
    refused = refusal(lambda: club.stage(format="single_elimination", entry="top", entry_count=7))
    assert (refused.code, refused.field) == ("bad_entry", "entry_count")
    assert "the top 7" in refused.message and "(6)" in refused.message
    club.stage(format="single_elimination", entry="top", entry_count=6)
    assert club.tournament.stages.count() == 2


def test_stages_set_up_before_any_team_registers_are_checked_when_they_start() -> None:
    club = make_club(0, slug="early")
    first = club.stage(format="round_robin")
    second = club.stage(format="single_elimination", entry="top", entry_count=8)  # not known yet
    for i in range(4):
        services.team_register(actor=club.organizer, tournament=club.tournament,
                               name=f"Late {i}", checked_in=True,
                               first_player=Player.objects.create(name=f"late {i}a"),
                               second_player=Player.objects.create(name=f"late {i}b"))  # fmt: skip
    refused = refusal(
        lambda: services.stage_update(actor=club.organizer, stage=second, entry_count=5)
    )
    assert (refused.code, refused.field) == ("bad_entry", "entry_count")
    club.start(first)
    Stage.objects.filter(pk=first.pk).update(status=Stage.Status.COMPLETE)
    before = state(club)
    refused = refusal(lambda: club.start(second))
    assert (refused.code, refused.field) == ("bad_entry", "entry_count")
    assert "the top 8" in refused.message and "(4)" in refused.message
    assert state(club) == before


def test_a_withdrawn_team_leaves_the_field_a_top_k_is_checked_against(club: Club) -> None:
    club.stage(format="round_robin")
    services.team_withdraw(actor=club.organizer, team=club.teams[0])
    refused = refusal(lambda: club.stage(format="single_elimination", entry="top",
                                         entry_count=6))  # fmt: skip
    assert refused.field == "entry_count"


def test_a_top_k_is_checked_against_the_teams_that_entered_the_stage_before(club: Club) -> None:
    first = club.stage(format="round_robin")
    second = club.stage(format="single_elimination", entry="top", entry_count=6)
    Registration.objects.filter(team=club.teams[0]).update(checked_in_at=None)
    club.start(first)  # five teams entered
    refused = refusal(
        lambda: services.stage_update(actor=club.organizer, stage=second, entry_count=6)
    )
    assert (refused.code, refused.field) == ("bad_entry", "entry_count")
    services.stage_update(actor=club.organizer, stage=second, entry_count=4)


def test_a_top_k_of_a_top_n_stage_is_checked_against_its_n(club: Club) -> None:
    club.stage(format="round_robin")
    club.stage(format="swiss", rounds=2, entry="top", entry_count=4)
    refused = refusal(lambda: club.stage(format="single_elimination", entry="top",
                                         entry_count=5))  # fmt: skip
    assert (refused.code, refused.field) == ("bad_entry", "entry_count")


@pytest.mark.parametrize(
    ("settings", "code", "field"),
    [
        ({"format": "swiss", "rounds": 4, "entry_count": 4}, "bad_rounds", "rounds"),
        ({"format": "groups", "groups": 3, "entry_count": 4}, "bad_groups", "groups"),
        ({"format": "single_elimination", "entry_count": 1}, "bad_entry", "entry_count"),
        ({"format": "round_robin", "entry_count": 0}, "bad_entry", "entry_count"),
    ],
)
def test_settings_a_known_field_cannot_play_are_refused_when_saved(
    club: Club, settings: dict[str, Any], code: str, field: str
) -> None:
    club.stage(format="round_robin")
    refused = refusal(lambda: club.stage(entry="top", **settings))
    assert (refused.code, refused.field) == (code, field)
    assert club.tournament.stages.count() == 1


def test_a_swiss_stage_of_three_rounds_takes_the_top_four(club: Club) -> None:
    club.stage(format="round_robin")
    swiss = club.stage(format="swiss", rounds=3, entry="top", entry_count=4)
    saved = Stage.objects.get(pk=swiss.pk)
    assert (saved.order, saved.rounds, saved.entry_count) == (2, 3, 4)


def test_the_top_n_of_each_group_is_checked_against_a_groups_size() -> None:
    club = make_club(8, slug="groups")
    club.stage(format="groups", groups=2)
    refused = refusal(lambda: club.stage(format="single_elimination", entry="top_per_group",
                                         entry_count=5))  # fmt: skip
    assert (refused.code, refused.field) == ("bad_entry", "entry_count")
    refused = refusal(lambda: club.stage(format="swiss", rounds=4, entry="top_per_group",
                                         entry_count=2))  # fmt: skip
    assert (refused.code, refused.field) == ("bad_rounds", "rounds")
    club.stage(format="single_elimination", entry="top_per_group", entry_count=2)


def test_a_stage_after_a_gap_in_the_order_cannot_take_the_top_of_the_one_before(
    club: Club,
) -> None:
    club.stage(format="round_robin")
    stage = Stage(tournament=club.tournament, order=3, name="after a gap", format="swiss",
                  rounds=2, entry="top", entry_count=4, match_format=FORMAT)  # fmt: skip
    refused = refusal(lambda: services.check_settings(stage))
    assert (refused.code, refused.field) == ("bad_entry", "entry")
    assert "no stage 2" in refused.message


# --- checked again when the stage starts --------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "code", "field"),
    [
        ({"format": "swiss", "rounds": 6}, "bad_rounds", "rounds"),
        ({"format": "groups", "groups": 4}, "bad_groups", "groups"),
    ],
)
def test_settings_the_entering_teams_cannot_play_are_refused_when_the_stage_starts(
    club: Club, settings: dict[str, Any], code: str, field: str
) -> None:
    stage = club.stage(**settings)  # saved: more teams may check in
    before = state(club)
    refused = refusal(lambda: club.start(stage))
    assert (refused.code, refused.field) == (code, field)
    assert "6 enter" in refused.message
    assert state(club) == before


def test_a_swiss_stage_starts_with_one_round_fewer_than_its_teams(club: Club) -> None:
    assert club.start(club.stage(format="swiss", rounds=5)).status == Stage.Status.RUNNING


# --- a row saved past the checks breaks no round ------------------------------------------


def spoil(stage: Stage, **settings: Any) -> None:
    """Store settings as the admin stored them before it checked them: past every check."""
    Stage.objects.filter(pk=stage.pk).update(**settings)


def test_a_stored_unknown_tie_break_stops_the_start_before_anything_is_written(
    club: Club,
) -> None:
    stage = club.stage(format="swiss", rounds=3)
    spoil(stage, tiebreaks=["bazzis won", "Buchholz"])
    before = state(club)
    refused = refusal(lambda: club.start(stage))
    assert (refused.code, refused.field) == ("bad_tiebreaks", "tiebreaks")
    assert state(club) == before


def test_a_stored_unknown_tie_break_stops_pairing_and_publishing_before_anything_is_written(
    club: Club,
) -> None:
    stage = club.start(club.stage(format="swiss", rounds=3))
    draft = club.pair(stage)
    spoil(stage, tiebreaks=["bazzis won", "Buchholz"])
    before = state(club)
    refused = refusal(lambda: club.publish(draft))
    assert (refused.code, refused.field) == ("bad_tiebreaks", "tiebreaks")
    assert state(club) == before
    Round.objects.filter(pk=draft.pk).delete()
    before = state(club)
    assert refusal(lambda: club.pair(stage)).code == "bad_tiebreaks"
    assert state(club) == before


@pytest.mark.parametrize(
    ("spoilt", "code"),
    [
        ({"match_format": {"bazzis": 0}}, "bad_format"),
        ({"mode": "digital", "confirmation": "other_team"}, "bad_confirmation"),
        ({"tiebreaks": ["random", "buchholz"]}, "bad_tiebreaks"),
    ],
)
def test_any_stored_setting_the_formats_cannot_take_stops_a_publish(
    club: Club, spoilt: dict[str, Any], code: str
) -> None:
    stage = club.start(club.stage(format="round_robin"))
    draft = club.pair(stage)
    spoil(stage, **spoilt)
    before = state(club)
    assert refusal(lambda: club.publish(draft)).code == code
    assert state(club) == before


def test_a_stored_draw_in_a_knockout_stops_its_publish(club: Club) -> None:
    stage = club.start(club.stage(format="single_elimination"))
    first = stage.round_set.order_by("number").first()
    assert first is not None
    spoil(stage, match_format={"bazzis": 1, "draws": True})
    before = state(club)
    refused = refusal(lambda: club.publish(first))
    assert (refused.code, refused.field) == ("bad_format", "match_format")
    assert state(club) == before


# --- all or nothing -----------------------------------------------------------------------


def test_a_publish_that_fails_midway_makes_no_match_and_publishes_nothing(club: Club) -> None:
    stage = club.start(club.stage(format="round_robin", start_matches=True))
    draft = club.pair(stage)
    before = state(club)
    from competition.services import follow

    with failing_on_call(follow, "match_create", 2), pytest.raises(RuntimeError):
        club.publish(draft)
    assert state(club) == before
    draft.refresh_from_db()
    assert draft.status == Round.Status.DRAFT


def test_a_match_start_that_fails_midway_leaves_the_round_a_draft(club: Club) -> None:
    stage = club.start(club.stage(format="round_robin", start_matches=True))
    draft = club.pair(stage)
    before = state(club)
    from competition.services import follow

    with failing_on_call(follow, "match_append_event", 3), pytest.raises(RuntimeError):
        club.publish(draft)
    assert state(club) == before


def test_a_bracket_publish_that_fails_midway_makes_no_match(club: Club) -> None:
    stage = club.start(club.stage(format="single_elimination"))
    first = stage.round_set.order_by("number").first()
    assert first is not None
    before = state(club)
    from competition.services import follow

    with failing_on_call(follow, "match_create", 2), pytest.raises(RuntimeError):
        club.publish(first)
    assert state(club) == before


def test_a_bracket_draw_that_fails_midway_leaves_the_stage_pending(club: Club) -> None:
    stage = club.stage(format="double_elimination", seeding="random")
    before = state(club)
    with failing_on_call(Round.objects, "create", 3), pytest.raises(RuntimeError):
        club.start(stage)
    assert state(club) == before
    stage.refresh_from_db()
    assert (stage.status, stage.seeding_seed) == (Stage.Status.PENDING, None)


def test_a_start_that_fails_writing_its_bracket_leaves_no_entry(club: Club) -> None:
    stage = club.stage(format="single_elimination")
    before = state(club)
    with failing_on_call(Fixture.objects, "bulk_create", 1), pytest.raises(RuntimeError):
        club.start(stage)
    assert state(club) == before


def test_a_pairing_that_fails_midway_leaves_no_round(club: Club) -> None:
    stage = club.start(club.stage(format="swiss", rounds=3))
    before = state(club)
    with failing_on_call(Fixture.objects, "bulk_create", 1), pytest.raises(RuntimeError):
        club.pair(stage)
    assert state(club) == before


def test_standings_that_fail_after_the_commit_are_logged_and_the_publish_stands(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    stage = club.start(club.stage(format="swiss", rounds=3))
    draft = club.pair(stage)
    failing = mock.patch(
        "competition.standings.update_stage_standings", side_effect=RuntimeError("worker down")
    )
    with caplog.at_level(logging.ERROR), failing as standings:
        published = club.publish(draft)  # no exception: the publish was committed
    assert standings.called
    assert published.status == Round.Status.PUBLISHED
    assert Fixture.objects.filter(round=draft, match__isnull=False).count() == 3
    assert "were not brought up to date" in caplog.text
    # what the publish tells was written with it (competition.happenings)
    told = Happening.objects.filter(tournament=club.tournament, kind="round.published")
    assert [h.body["round"] for h in told] == [draft.number]


def test_the_beats_catch_up_brings_the_standings_up_to_date(club: Club) -> None:
    from competition import tasks
    from competition.models import StandingRow

    stage = club.start(club.stage(format="swiss", rounds=3))
    draft = club.pair(stage)
    with mock.patch(
        "competition.standings.update_stage_standings", side_effect=RuntimeError("down")
    ):
        club.publish(draft)
        club.play(draft, random.Random(3))  # every result's standings fail too
    assert not StandingRow.objects.filter(stage=stage, as_of_round=1).exists()
    with committed():
        tasks.catch_up()
    assert StandingRow.objects.filter(stage=stage, as_of_round=1).count() == 6


# --- the admin ----------------------------------------------------------------------------


@pytest.fixture
def director(club: Club) -> Client:
    """A staff member who directs the club's tournament (no model permission at all)."""
    user = get_user_model().objects.create_user("admin-director", is_staff=True)
    club.tournament.directors.add(user)
    client = Client()
    client.force_login(user)
    return client


ADD = "/admin/competition/stage/add/"


def change_url(stage: Stage) -> str:
    return f"/admin/competition/stage/{stage.pk}/change/"


def form_data(club: Club, **settings: Any) -> dict[str, Any]:
    """What the admin's stage form posts: a round robin in score mode, and ``settings``."""
    data: dict[str, Any] = {
        "tournament": club.tournament.pk, "order": "", "name": "Evening",
        "format": "round_robin", "rounds": "", "groups": "", "entry": "registered",
        "entry_count": "", "seeding": "manual", "swiss_method": "slide",
        "match_format": '{"bazzis": 1, "deal_cap": 2}', "mode": "score", "confirmation": "none",
        "points_win": 2, "points_draw": 1, "points_loss": 0, "points_bye": 2,
        "points_forfeit": 0, "tiebreaks": "[]", "tiebreak_seed": "", "withdrawal": "forfeit",
        "grand_final_reset": "on", "start_matches": "on",
    }  # fmt: skip
    for name, value in settings.items():
        if value is False:
            data.pop(name, None)  # an unticked box is not posted
        else:
            data[name] = "on" if value is True else value
    return data


def field_errors(response: Any) -> dict[str, list[str]]:
    assert response.status_code == 200, response.status_code  # the form again, not a redirect
    form = response.context["adminform"].form
    return {name: list(messages) for name, messages in form.errors.items()}


def test_the_admin_refuses_the_docs_words_for_tie_breaks_on_their_field(
    club: Club, director: Client
) -> None:
    response = director.post(ADD, form_data(club, format="swiss", rounds=3,
                                            tiebreaks='["bazzis won", "Buchholz"]'))  # fmt: skip
    errors = field_errors(response)
    assert list(errors) == ["tiebreaks"]
    assert "(its key is bazzis_won)" in errors["tiebreaks"][0]
    assert "(its key is buchholz)" in errors["tiebreaks"][0]
    assert "its key is bazzis_won" in response.content.decode()
    assert not club.tournament.stages.exists()


#: (the form's settings, the field the refusal is on, words of its message)
ADMIN_REFUSALS = [
    ({"tiebreaks": '["charm"]'}, "tiebreaks", "not a tie-break key"),
    ({"tiebreaks": '["buchholz", "buchholz"]'}, "tiebreaks", "more than once"),
    ({"tiebreaks": '["random", "buchholz"]'}, "tiebreaks", "only be the last"),
    ({"match_format": '{"bazzis": 0}'}, "match_format", "the match format"),
    ({"format": "single_elimination", "match_format": '{"draws": true}'}, "match_format",
     "cannot end drawn"),
    ({"mode": "digital", "confirmation": "other_team"}, "confirmation", "score mode only"),
    ({"format": "swiss"}, "rounds", "number of rounds"),
    ({"late_entry": True}, "late_entry", "Swiss stage only"),
    ({"entry": "top", "entry_count": 4, "order": 1}, "entry", "the first stage"),
]  # fmt: skip


@pytest.mark.parametrize(("settings", "field", "words"), ADMIN_REFUSALS)
def test_the_admin_refuses_each_setting_on_its_field_and_saves_nothing(
    club: Club, director: Client, settings: dict[str, Any], field: str, words: str
) -> None:
    errors = field_errors(director.post(ADD, form_data(club, **settings)))
    assert field in errors, errors
    assert any(words in message for message in errors[field]), errors
    assert not club.tournament.stages.exists()


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"format": "single_elimination", "entry": "top", "entry_count": 8}, "entry_count"),
        ({"format": "swiss", "rounds": 4, "entry": "top", "entry_count": 4}, "rounds"),
        ({"format": "groups", "groups": 3, "entry": "top", "entry_count": 4}, "groups"),
    ],
)
def test_the_admin_refuses_what_the_stage_before_cannot_give_on_its_field(
    club: Club, director: Client, settings: dict[str, Any], field: str
) -> None:
    club.stage(format="round_robin")
    errors = field_errors(director.post(ADD, form_data(club, **settings)))
    assert list(errors) == [field]
    assert club.tournament.stages.count() == 1


def test_the_admin_refuses_a_change_on_its_field_and_changes_nothing(
    club: Club, director: Client
) -> None:
    stage = club.stage(format="swiss", rounds=3, tiebreaks=["buchholz"])
    before = Stage.objects.filter(pk=stage.pk).values().get()
    response = director.post(
        change_url(stage),
        form_data(club, name="Renamed", order=1, format="swiss", rounds=3,
                  tiebreaks='["bazzis won"]'),
    )  # fmt: skip
    assert "tiebreaks" in field_errors(response)
    assert Stage.objects.filter(pk=stage.pk).values().get() == before


def test_a_stage_added_in_the_admin_goes_last_under_the_tournaments_match_format(
    club: Club, director: Client
) -> None:
    club.stage(format="round_robin")
    page = director.get(ADD)
    assert page.status_code == 200
    box = page.context["adminform"].form["match_format"]
    assert box.value() in (None, "") and ">null<" not in str(box)
    response = director.post(
        ADD, form_data(club, format="single_elimination", entry="top", entry_count=4,
                       match_format="", tiebreaks='["bazzis_won", "random"]')
    )  # fmt: skip
    assert response.status_code == 302, field_errors(response)
    stage = club.tournament.stages.get(order=2)
    assert stage.match_format == {**club.tournament.match_format, "draws": False}
    assert stage.tiebreaks == ["bazzis_won", "random"]


def test_a_stage_that_has_started_is_shown_in_the_admin_but_not_changed(
    club: Club, director: Client
) -> None:
    stage = club.start(club.stage(format="round_robin"))
    before = Stage.objects.filter(pk=stage.pk).values().get()
    page = director.get(change_url(stage))
    assert page.status_code == 200
    assert not page.context["has_change_permission"]
    response = director.post(change_url(stage), form_data(club, name="Renamed", order=1))
    assert response.status_code == 403
    deleted = director.post(f"/admin/competition/stage/{stage.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 403
    assert Stage.objects.filter(pk=stage.pk).values().get() == before


def test_a_pending_stage_is_changed_in_the_admin_when_its_settings_hold(
    club: Club, director: Client
) -> None:
    stage = club.stage(format="swiss", rounds=3)
    response = director.post(
        change_url(stage),
        form_data(club, name="Club night", order=1, format="swiss", rounds=4,
                  tiebreaks='["buchholz", "head_to_head"]'),
    )  # fmt: skip
    assert response.status_code == 302, field_errors(response)
    stage.refresh_from_db()
    assert (stage.name, stage.rounds, stage.tiebreaks) == (
        "Club night",
        4,
        ["buchholz", "head_to_head"],
    )
    assert stage.match_format["deal_cap"] == 2 and "draws" in stage.match_format  # complete
