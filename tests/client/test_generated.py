"""The typed client (clients/python/, docs/client.md) is what the schema makes, and runs a small
tournament against the running server, through its own calls only.

The first token is the one ``manage.py first_run`` prints, as on a new site; each team's
token (made with it) enters the team's Swiss deals and confirms the other team's.
"""

from __future__ import annotations

import filecmp
import hashlib
import hmac
import itertools
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

from competition.demo import random_deal_result
from seep_core import Rules

from .conftest import CLIENT

ROOT = CLIENT.parent.parent


@pytest.mark.process
def test_the_committed_client_is_what_the_schema_makes(tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_bytes(
        OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True))
    )
    out = tmp_path / "client"
    subprocess.run(
        [sys.executable, ROOT / "clients" / "generate.py", "--schema", schema, "--out", out],
        check=True,
    )
    differ = _differences(filecmp.dircmp(out, CLIENT, ignore=["__pycache__", ".ruff_cache"]))
    assert not differ, f"clients/python is not what the schema makes ({differ}): run make client"


def _differences(compared: filecmp.dircmp[str]) -> list[str]:
    found = [*compared.left_only, *compared.right_only, *compared.diff_files, *compared.funny_files]
    for sub in compared.subdirs.values():
        found += _differences(sub)
    return found


class Receiver:
    """A webhook receiver on loopback: it keeps each post's headers and exact body."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        received = self.received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                received.append(
                    (dict(self.headers), self.rfile.read(int(self.headers["Content-Length"])))
                )
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    r = Receiver()
    thread = threading.Thread(target=r.server.serve_forever, daemon=True)
    thread.start()
    yield r
    r.server.shutdown()
    r.server.server_close()


def test_a_small_tournament_through_the_generated_client(
    live_server: Any, transactional_db: None, receiver: Receiver
) -> None:
    from seep_client import AuthenticatedClient
    from seep_client.api.clubs import clubs_list, clubs_members_create
    from seep_client.api.matches import (
        matches_events_create,
        matches_list,
        matches_retrieve,
        matches_state_retrieve,
    )
    from seep_client.api.rounds import rounds_publish_create
    from seep_client.api.stages import (
        stage_rounds_list,
        stages_bracket_retrieve,
        stages_rounds_create,
        stages_standings_retrieve,
        stages_start_create,
    )
    from seep_client.api.teams import teams_check_in_create, teams_token_create
    from seep_client.api.tournaments import (
        tournaments_create,
        tournaments_stages_create,
        tournaments_teams_create,
    )
    from seep_client.api.webhooks import webhook_deliveries_list, webhooks_create
    from seep_client.models import (
        Appended,
        Bracket,
        CorrectionPreview,
        DealConfirmedCommandRequest,
        DealCorrectedCommandRequest,
        DealEndedCommandRequest,
        DealEnteredCommandRequest,
        Match,
        Member,
        MemberRequest,
        NewWebhook,
        PaginatedClubList,
        PaginatedMatchList,
        Round,
        Stage,
        StageRequest,
        StageStarted,
        Standings,
        Team,
        TeamCheckedIn,
        TeamRequest,
        TeamTokenMade,
        Tournament,
        TournamentRequest,
        WebhookRequest,
    )  # fmt: skip

    # the first token is the one the first-run command prints, as on a new site
    printed = StringIO()
    call_command(
        "first_run", username="organizer", club="Riverside club", no_password=True, stdout=printed
    )
    token = printed.getvalue().strip().splitlines()[-1].strip()
    api = AuthenticatedClient(
        base_url=live_server.url, token=token, raise_on_unexpected_status=True
    )
    rng = random.Random(28)

    def done(answer: Any, kind: type) -> Any:
        assert isinstance(answer, kind), answer
        return answer

    (club,) = done(clubs_list.sync(client=api), PaginatedClubList).results  # the token's club

    cup = done(
        tournaments_create.sync(
            client=api, body=TournamentRequest(name="Client cup", slug="client-cup", published=True)
        ),
        Tournament,
    )
    hook = done(
        webhooks_create.sync(
            client=api,
            body=WebhookRequest.from_dict(
                {"tournament": cup.id, "url": receiver.url,
                 "kinds": ["round.published", "match.completed"]}
            ),
        ),
        NewWebhook,
    )  # fmt: skip
    team_clients: dict[int, AuthenticatedClient] = {}  # a team's token, acting for it
    for t in range(4):
        members = [
            clubs_members_create.sync(club.id, client=api, body=MemberRequest(name=f"P{t}{i}"))
            for i in range(2)
        ]
        assert all(isinstance(m, Member) for m in members)
        team = done(
            tournaments_teams_create.sync(
                cup.id,
                client=api,
                body=TeamRequest.from_dict(
                    {"name": f"Team {t}", "players": [{"member": m.id} for m in members]}
                ),
            ),
            Team,
        )
        done(teams_check_in_create.sync(team.id, client=api), TeamCheckedIn)
        made = done(teams_token_create.sync(team.id, client=api), TeamTokenMade)
        team_clients[team.id] = AuthenticatedClient(
            base_url=live_server.url, token=made.token, raise_on_unexpected_status=True
        )

    def confirm_each(match: Match) -> None:
        """Each deal entered by one team's token and confirmed by the other's (the Swiss)."""
        sides = [team_clients[side.id] for side in match.sides]
        for number in itertools.count():
            state = matches_state_retrieve.sync(match.id, client=api).to_dict()
            if state["status"] != "in_progress":
                return
            deal = random_deal_result(rng, state["progress"]["dealer"], Rules())
            entering = number % 2  # the teams take turns entering
            body = DealEnteredCommandRequest.from_dict({
                "expected_seq": state["last_seq"], "kind": "deal_entered",
                "payload": {"points": deal["points"], "sweeps": deal["sweeps"]},
            })  # fmt: skip
            entered = matches_events_create.sync(match.id, client=sides[entering], body=body)
            entered = done(entered, Appended)
            answer = DealConfirmedCommandRequest.from_dict({
                "expected_seq": entered.last_seq, "kind": "deal_confirmed",
                "payload": {"entry": 1},
            })  # fmt: skip
            done(
                matches_events_create.sync(match.id, client=sides[1 - entering], body=answer),
                Appended,
            )

    def play(match: Match) -> None:
        """Enter the match's deals as the director until it is over."""
        while True:
            state = matches_state_retrieve.sync(match.id, client=api).to_dict()
            if state["status"] != "in_progress":
                return
            deal = random_deal_result(rng, state["progress"]["dealer"], Rules())
            body = DealEndedCommandRequest.from_dict({
                "expected_seq": state["last_seq"], "kind": "deal_ended",
                "payload": {"points": deal["points"], "sweeps": deal["sweeps"]},
            })  # fmt: skip
            done(matches_events_create.sync(match.id, client=api, body=body), Appended)

    def stage(settings: dict[str, Any]) -> StageStarted:
        made = tournaments_stages_create.sync(
            cup.id, client=api, body=StageRequest.from_dict(settings)
        )
        started = stages_start_create.sync(done(made, Stage).id, client=api)
        return done(started, StageStarted)

    # (tie-breaks that separate the teams level on points: a tie across the final's cut
    # would wait for a director, docs/competition.md "Ties at the cut")
    swiss = stage({"name": "Swiss", "format": "swiss", "rounds": 2, "mode": "score",
                   "confirmation": "other_team", "tiebreaks": ["points_difference", "random"],
                   "tiebreak_seed": 7, "match_format": {"bazzis": 1, "deal_cap": 2}})  # fmt: skip
    for number in (1, 2):
        draft = done(stages_rounds_create.sync(swiss.id, client=api), Round)
        published = done(rounds_publish_create.sync(draft.id, client=api), Round)
        matches = done(
            matches_list.sync(client=api, stage=swiss.id, round_=number), PaginatedMatchList
        ).results
        assert len(matches) == len(published.fixtures) == 2
        for fixture in published.fixtures:
            assert [side.side for side in fixture.sides] == [0, 1]
            match = done(matches_retrieve.sync(fixture.match, client=api), Match)
            assert [s.to_dict() for s in match.sides] == [s.to_dict() for s in fixture.sides]
            confirm_each(match)
    table = done(stages_standings_retrieve.sync(swiss.id, client=api), Standings)
    assert len(table.rows) == 4
    assert [row.points for row in table.rows] == sorted(
        (r.points for r in table.rows), reverse=True
    )

    final = stage({"name": "Final", "format": "single_elimination", "entry": "top",
                   "entry_count": 2, "seeding": "standings", "mode": "score",
                   "match_format": {"bazzis": 1, "deal_cap": 2, "draws": False}})  # fmt: skip
    for round_ in done(stage_rounds_list.sync(final.id, client=api), object).results:
        if round_.status == "draft":  # the rule for a knockout's first round: docs/api.md
            done(rounds_publish_create.sync(round_.id, client=api), Round)
    bracket = done(stages_bracket_retrieve.sync(final.id, client=api), Bracket)
    (fixture,) = bracket.rounds[0].fixtures
    assert fixture.sides[0].id == table.rows[0].team.id  # the Swiss winner is seed 1, side 0
    play(done(matches_retrieve.sync(fixture.match, client=api), Match))
    bracket = done(stages_bracket_retrieve.sync(final.id, client=api), Bracket)
    (fixture,) = bracket.rounds[0].fixtures
    assert fixture.winner_side in (0, 1)
    assert bracket.champion.id == fixture.sides[fixture.winner_side].id

    # a correction of a Swiss match the final was built on: its dry run, then confirmed
    first = done(matches_list.sync(client=api, stage=swiss.id, round_=1), PaginatedMatchList)
    match = first.results[0]
    correction = {"expected_seq": match.last_seq, "kind": "deal_corrected",
                  "payload": {"deal": 1, "points": [20, 80], "sweeps": [[], []],
                              "reason": "the sheet was misread"}}  # fmt: skip
    preview = matches_events_create.sync(
        match.id, client=api, body=DealCorrectedCommandRequest.from_dict(correction), dry_run=True
    )
    preview = done(preview, CorrectionPreview)
    assert "winner_side" in preview.result_before
    body = DealCorrectedCommandRequest.from_dict({**correction, "confirm": True})
    done(matches_events_create.sync(match.id, client=api, body=body), Appended)

    # the deliveries, read back, and each post's signature checked with the secret
    deadline = time.monotonic() + 10
    while True:
        deliveries = done(webhook_deliveries_list.sync(hook.id, client=api), object).results
        if all(d.status == "succeeded" for d in deliveries) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    kinds = {d.kind for d in deliveries}
    assert kinds == {"round.published", "match.completed"}
    assert all(d.status == "succeeded" for d in deliveries)
    assert len(receiver.received) == len(deliveries)
    for headers, raw in receiver.received:
        stamp, mac = (part.split("=", 1)[1] for part in headers["Seep-Signature"].split(","))
        signed = hmac.new(hook.secret.encode(), f"{stamp}.".encode() + raw, hashlib.sha256)
        assert hmac.compare_digest(signed.hexdigest(), mac)
    published = [d.body for d in deliveries if d.kind == "round.published"]
    assert all(len(f["sides"]) == 2 for body in published for f in body["fixtures"])
