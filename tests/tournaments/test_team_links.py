"""A team's private link in the store: it appends as its team's side (the two-person rule
holds between it and the team's own accounts), only entries and answers in its team's score
matches, and every replay of the log knows its author again."""

from __future__ import annotations

from typing import Any

import pytest

from tests.scoring.helpers import committed, new_match
from tournaments import links, matchlog
from tournaments.access import SYSTEM
from tournaments.errors import ClubNotPermitted, NotPermitted
from tournaments.keys import KEY_LENGTH
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event
from tournaments.snapshots import rebuild_snapshot
from tournaments.verify import verify_match

pytestmark = pytest.mark.django_db


def _started(world: Any, *, teams: tuple[int, int] = (2, 3), mode: str = "score") -> Match:
    match = new_match(world, mode=mode, teams=teams)
    if mode == "score":
        Match.objects.filter(pk=match.pk).update(confirmation="other_team")
    match.refresh_from_db()
    with committed():
        match_append_event(
            match=match, expected_seq=0, kind="match_started", payload={"first_dealer": 0},
            actor=SYSTEM,
        )  # fmt: skip
    match.refresh_from_db()
    return match


def _append(match: Match, kind: str, payload: dict[str, Any], actor: Any) -> None:
    match.refresh_from_db()
    with committed():
        match_append_event(
            match=match, expected_seq=match.last_seq, kind=kind, payload=payload, actor=actor
        )


DEAL = {"points": [70, 30], "sweeps": [[], []]}


def _link(world: Any, team: int) -> Any:
    link, _ = links.team_link(actor=world.organizer, team=world.teams[team])
    return links.actor_for(link)


def test_a_teams_link_and_its_players_accounts_are_one_side(world: Any) -> None:
    match = _started(world)
    own_link = _link(world, 2)
    _append(match, "deal_entered", DEAL, world.players[4].user)  # team 2's first player
    with pytest.raises(NotPermitted) as refused:
        _append(match, "deal_confirmed", {"entry": 1}, own_link)
    assert refused.value.code == "own_team_entry"
    _append(match, "deal_confirmed", {"entry": 1}, _link(world, 3))

    _append(match, "deal_entered", DEAL, own_link)
    for same_side in (own_link, world.players[5].user):
        with pytest.raises(NotPermitted) as refused:
            _append(match, "deal_confirmed", {"entry": 1}, same_side)
        assert refused.value.code in ("own_entry", "own_team_entry")
    _append(match, "deal_confirmed", {"entry": 1}, world.players[6].user)  # the other team

    match.refresh_from_db()
    kinds = list(match.events.order_by("seq").values_list("kind", "via"))
    assert [k for k, _ in kinds].count("deal_ended") == 2
    assert [v for k, v in kinds if k == "deal_entered"][1].startswith("team-link:0:")
    assert verify_match(match) == []
    assert (
        rebuild_snapshot(match).ledger
        == matchlog.replay(
            [
                (e.kind, e.payload, matchlog.author(e.actor_id, e.via))
                for e in match.events.order_by("seq")
            ],
            match.mode,
        ).ledger
    )


def test_a_link_enters_and_answers_only_in_its_teams_score_matches(world: Any) -> None:
    match = _started(world)
    outsider = _link(world, 0)  # team 0 plays the digital match, not this one
    with pytest.raises(NotPermitted) as refused:
        _append(match, "deal_entered", DEAL, outsider)
    assert refused.value.code == "not_your_match"
    mine = _link(world, 2)
    for kind, payload in (
        ("deal_ended", DEAL),
        ("match_forfeited", {"team": 1, "reason": "they left"}),
        ("score_adjusted", {"team": 0, "points": 10, "reason": "bonus"}),
    ):
        with pytest.raises(NotPermitted) as refused:
            _append(match, kind, payload, mine)
        assert refused.value.code == "forbidden", kind
    digital = _started(world, teams=(0, 1), mode="digital")
    with pytest.raises(NotPermitted):
        _append(digital, "deal_entered", DEAL, _link(world, 0))
    assert not MatchEvent.objects.filter(match=match).exclude(kind="match_started").exists()


def test_a_user_cannot_pass_an_append_off_as_a_teams_link(world: Any) -> None:
    match = _started(world)
    match.refresh_from_db()
    with committed():
        match_append_event(
            match=match, expected_seq=match.last_seq, kind="deal_entered", payload=DEAL,
            actor=world.players[4].user, via="team-link:1:99",
        )  # fmt: skip
    entered = MatchEvent.objects.get(match=match, kind="deal_entered")
    assert not entered.via.startswith(matchlog.LINK_VIA)
    assert entered.payload["side"] == 0  # the author's own team, not the one claimed
    match.refresh_from_db()
    assert verify_match(match) == []


def test_only_a_director_hands_out_links_and_a_reissue_revokes(world: Any) -> None:
    team = world.teams[2]
    with pytest.raises(ClubNotPermitted):
        links.team_link(actor=world.players[4].user, team=team)
    first, key = links.team_link(actor=world.organizer, team=team)
    assert len(key) == KEY_LENGTH and links.link_for_key(key) == first
    assert links.team_link(actor=world.organizer, team=team) == (first, key)
    _, new_key = links.team_link_reissue(actor=world.organizer, team=team)
    assert new_key != key
    assert links.link_for_key(key) is None and links.was_reissued(key)
    assert links.link_for_key(new_key) is not None
    keys = links.team_links(actor=world.organizer, tournament=world.tournament)
    assert keys[team.pk] == new_key and len(set(keys.values())) == len(world.teams)
