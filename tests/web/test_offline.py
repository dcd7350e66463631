"""The phone pages as an installable app: the manifest, the icons and the service worker
served with the right headers and scope, the worker's rules (what it may keep on the phone,
and what never), the pages the server lets it keep, and a command sent again (a phone back
online) written once."""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import links
from tournaments.models import Match

from .conftest import Club

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
KEPT = "X-Seep-Offline"


def linked_phone(club: Club, match: Match, side: int) -> Client:
    """A phone with no account that opened the link of ``match``'s team ``side``."""
    team = match.team0 if side == 0 else match.team1
    _, key = links.team_link(actor=club.users["director"], team=team)
    phone = club.client()
    assert phone.get(f"/l/{key}/").status_code == 302
    return phone


def worker_script(client: Client) -> str:
    return client.get("/keep/sw.js").content.decode()


def worker_list(script: str, name: str) -> list[str]:
    found = re.search(rf"^var {name} = (\[.*\]);$", script, re.MULTILINE)
    assert found is not None, f"the worker names no {name}"
    listed: list[str] = json.loads(found.group(1))
    return listed


def test_the_worker_is_javascript_asked_for_again_each_time_with_its_scope_at_keep(
    club: Club,
) -> None:
    response = Client().get("/keep/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    # its scope can be no wider than the phone pages, whatever a page asks for
    assert response["Service-Worker-Allowed"] == "/keep/"
    assert "Content-Security-Policy" in response  # the worker runs under the site's policy
    # asked for by a signed-in phone, it is kept by no cache at all (as every signed-in answer)
    signed_in = club.client("scorekeeper").get("/keep/sw.js")
    assert signed_in["Cache-Control"] == "private, no-store"
    assert signed_in["Service-Worker-Allowed"] == "/keep/"
    assert signed_in.content == response.content


def test_the_worker_passes_the_content_security_policy(club: Club) -> None:
    response = Client().get("/keep/sw.js")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy
    script = response.content.decode()
    # no code made from text, no script from elsewhere, and every address it keeps is this site's
    for refused in (
        "eval(",
        "new Function",
        "importScripts",
        'setTimeout("',
        "http://",
        "https://",
    ):
        assert refused not in script, refused
    for url in worker_list(script, "SHELL"):
        assert url.startswith("/") and not url.startswith("//")


def test_the_worker_keeps_the_shell_the_phone_pages_load(club: Club) -> None:
    phone = club.client("scorekeeper")
    match = club.matches[0]
    page = phone.get(f"/keep/{match.pk}/").content.decode()
    shell = worker_list(worker_script(phone), "SHELL")
    loaded = re.findall(r'<(?:script src|link rel="stylesheet" href)="([^"]+)"', page)
    assert loaded and set(loaded) <= set(shell)
    for url in shell:
        assert url.startswith("/static/") and finders.find(url.removeprefix("/static/")), url


def test_the_worker_never_keeps_a_seat_a_recorder_a_directors_page_or_the_api(
    club: Club,
) -> None:
    script = worker_script(Client())
    never = worker_list(script, "NEVER")
    for path in ("/play/", "/record/", "/desk/", "/admin/", "/api/", "/l/"):
        assert path in never
    # it keeps a page only as the server marked it (which requests it answers at all: Node,
    # below)
    assert 'response.headers.get(HEADER) === "keep"' in script


def test_the_manifest_makes_the_phone_pages_an_app_that_opens_at_keep(club: Club) -> None:
    response = Client().get("/keep/app.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == manifest["scope"] == "/keep/"
    assert manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    sizes = set()
    for icon in manifest["icons"]:
        png = Client().get(icon["src"])
        assert png.status_code == 200 and png["Content-Type"] == "image/png"
        body = png.content
        assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
        width, height = struct.unpack(">II", body[16:24])
        assert icon["sizes"] == f"{width}x{height}" and width == height
        sizes.add(width)
    assert {192, 512} <= sizes  # what a browser asks of an installable app


def test_an_icon_of_a_size_the_manifest_does_not_list_is_not_found(club: Club) -> None:
    assert Client().get("/keep/icon-100.png").status_code == 404


def test_the_phone_pages_link_the_manifest_and_register_the_worker(club: Club) -> None:
    match = club.matches[0]
    phone = linked_phone(club, match, 0)
    for path in ("/keep/", f"/keep/{match.pk}/"):
        page = phone.get(path).content.decode()
        assert '<link rel="manifest" href="/keep/app.webmanifest"' in page, path
        assert 'data-worker="/keep/sw.js" data-scope="/keep/"' in page, path
        assert "/static/web/offline.js" in page, path
    page = phone.get(f"/keep/{match.pk}/").content.decode()
    assert 'id="phone-state"' in page and "Waiting to be sent ({n}):" in page


def test_only_a_teams_and_a_score_keepers_phone_pages_may_be_kept(club: Club) -> None:
    match = club.matches[0]
    team = linked_phone(club, match, 0)
    keeper = club.client("scorekeeper")
    director = club.client("director")
    mine = [(team, "/keep/"), (team, f"/keep/{match.pk}/"), (keeper, f"/keep/{match.pk}/")]
    for client, path in mine:
        response = client.get(path)
        assert response.status_code == 200 and response[KEPT] == "keep", path
    # a director's view of the phone page, the desk, the board, a seat page and the live
    # parts are never marked: the worker keeps none of them
    kept = [
        (director, f"/keep/{match.pk}/"),
        (director, "/keep/"),
        (director, f"/desk/{club.tournament.slug}/"),
        (director, f"/desk/{club.tournament.slug}/board/"),
        (team, f"/keep/{match.pk}/status/"),
        (linked_phone(club, club.digital, 0), f"/play/{club.digital.pk}/"),
    ]
    for client, path in kept:
        response = client.get(path)
        assert response.status_code in (200, 302), path
        assert KEPT not in response, path


def test_an_entry_and_its_confirmation_sent_twice_from_phones_are_written_once(club: Club) -> None:
    match = club.matches[0]
    ours, theirs = linked_phone(club, match, 0), linked_phone(club, match, 1)
    match.refresh_from_db()
    entry = {
        "expected_seq": match.last_seq,
        "client_id": "phone-entry-0001",
        "points_a": 64,
        "points_b": 36,
        "sweeps_a": 0,
        "sweeps_b": 0,
    }
    sent = [ours.post(f"/keep/{match.pk}/enter/", entry, **JSON) for _ in range(2)]
    assert [r.json()["ok"] for r in sent] == [True, True]
    match.refresh_from_db()
    number = match.events.get(kind="deal_entered").payload
    answer: dict[str, Any] = {
        "expected_seq": match.last_seq,
        "client_id": "phone-confirm-0001",
        "entry": 1,
        "action": "confirm",
    }
    assert number["deal"] == 1
    answers = [theirs.post(f"/keep/{match.pk}/answer/", answer, **JSON) for _ in range(3)]
    assert [r.json()["ok"] for r in answers] == [True, True, True]
    kinds = list(match.events.order_by("seq").values_list("kind", flat=True))
    assert kinds.count("deal_entered") == 1 and kinds.count("deal_confirmed") == 1
    # sent again later still (a phone that held it), at a head that moved on: once still
    late = ours.post(f"/keep/{match.pk}/enter/", entry, **JSON)
    assert late.json()["ok"]
    assert match.events.filter(kind="deal_entered").count() == 1


def test_a_shell_file_changed_gives_a_new_worker_which_the_phone_then_takes(
    club: Club, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def version() -> str:
        found = re.search(r'^var VERSION = "([0-9a-f]+)";$', worker_script(Client()), re.M)
        assert found is not None
        return found.group(1)

    before = version()
    assert version() == before  # the same files: the same worker, byte for byte
    changed = tmp_path / "keeper.js"
    changed.write_text("// a new keeper.js\n")
    real = finders.find
    monkeypatch.setattr(
        finders,
        "find",
        lambda name, *a, **k: str(changed) if name == "web/keeper.js" else real(name, *a, **k),
    )
    assert version() != before


#: the worker run in Node with a stub of its surroundings: which requests it answers itself
#: (``respondWith``) rather than leaving them to the network as if it were not there
WORKER_IN_NODE = """
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const handlers = {};
const self = {
  addEventListener: (type, handler) => { handlers[type] = handler; },
  location: { origin: "http://phone.test" },
};
const never = () => new Promise(() => {});  // the network and the caches never answer here
new Function("self", "fetch", "caches", input.script)(self, never, { match: never, open: never });
const answered = input.requests.map(([method, mode, url]) => {
  let taken = false;
  handlers.fetch({ request: { method, mode, url }, respondWith: () => { taken = true; } });
  return taken;
});
process.stdout.write(JSON.stringify(answered));
"""
NODE = shutil.which("node")
PREFIXES = ["/keep/", "/play/", "/record/", "/desk/club-night/", "/admin/", "/api/v1/", "/l/"]
PREFIXES += ["/static/web/", "/t/club-night/", "/m/", "/", "/account/tokens/", "/login/"]
PATHS = st.builds(
    lambda prefix, pk, rest, query: prefix + pk + rest + query,
    st.sampled_from(PREFIXES),
    st.sampled_from(["", "7/", "12/", "x/"]),
    st.sampled_from(["", "status/", "enter/", "live/", "board/", "sw.js", "keeper.js", "site.css"]),
    st.sampled_from(["", "?next=/keep/", "?format=json"]),
)
REQUESTS = st.tuples(
    st.sampled_from(["GET", "POST"]),
    st.sampled_from(["navigate", "cors", "no-cors", "same-origin"]),
    PATHS,
)


def worker_answers(script: str, requests: list[tuple[str, str, str]]) -> list[bool]:
    assert NODE is not None
    run = subprocess.run(
        [NODE, "-e", WORKER_IN_NODE],
        input=json.dumps(
            {
                "script": script,
                "requests": [[m, mode, f"http://phone.test{path}"] for m, mode, path in requests],
            }
        ),
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    answered: list[bool] = json.loads(run.stdout)
    return answered


@pytest.fixture
def worker_text(club: Club) -> tuple[str, list[str]]:
    script = worker_script(Client())
    return script, worker_list(script, "SHELL")


@pytest.mark.skipif(NODE is None, reason="Node runs the worker's rules")
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(requests=st.lists(REQUESTS, min_size=1, max_size=40))
def test_the_worker_answers_only_the_phones_own_pages_and_the_shell(
    worker_text: tuple[str, list[str]], requests: list[tuple[str, str, str]]
) -> None:
    script, shell = worker_text
    for (method, mode, path), answered in zip(
        requests, worker_answers(script, requests), strict=True
    ):
        bare = path.split("?")[0]
        own_page = mode == "navigate" and re.fullmatch(r"/keep/(\d+/)?", path) is not None
        expected = method == "GET" and (own_page or bare in shell)
        assert answered == expected, (method, mode, path)
        if bare.startswith(("/play/", "/record/", "/desk/", "/admin/", "/api/", "/l/")):
            assert not answered, path  # a seat, the recorder, a director's page, the API
