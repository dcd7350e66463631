"""Webhooks that cannot reach the server's own network, nor hold a worker: issue 27.

Names are resolved in-process (``Net`` answers ``socket.getaddrinfo``) and every connection
goes through ``Net.connect`` (``socket.create_connection``), which lets traffic reach
127.0.0.1 only: a "public" address of a test stands for a server the test runs on loopback.
So nothing here sends a packet anywhere but 127.0.0.1, and each test sees which address a
delivery asked to connect to.
"""

from __future__ import annotations

import ipaddress
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from api import tasks
from api.models import Webhook, WebhookDelivery
from competition import demo
from tests.scoring.helpers import committed

from .conftest import League

pytestmark = pytest.mark.django_db

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUBLIC = "8.8.8.8"  # stands for a public server; Net sends its traffic to a loopback one
OTHER_PUBLIC = "8.8.4.4"


class Server:
    """An HTTP server on loopback answering every POST with ``answer(handler)``; it records
    what it was sent."""

    def __init__(self, answer: Callable[[BaseHTTPRequestHandler], None] | None = None) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                server.received.append((self.path, dict(self.headers), self.rfile.read(length)))
                if answer is None:
                    self.send_response(204)
                    self.end_headers()
                else:
                    answer(self)

            do_GET = do_POST

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class Net:
    """The network as the tests see it: a scripted resolver and a loopback-only connector."""

    def __init__(self) -> None:
        #: name -> the answers, one list per call (the last one repeats)
        self.names: dict[str, list[list[str]]] = {}
        self.lookups: list[str] = []
        #: every connection asked for: (address, port)
        self.connections: list[tuple[str, int]] = []
        #: a "public" (address, port) -> the loopback port of the server standing for it
        self.stand_ins: dict[tuple[str, int], int] = {}
        self._create_connection = socket.create_connection

    def answer(self, name: str, *answers: list[str]) -> None:
        self.names[name] = list(answers)

    def resolve(self, host: str, port: int | None) -> list[str]:
        try:
            return [str(ipaddress.ip_address(host))]
        except ValueError:
            pass
        if host == "localhost":
            return ["127.0.0.1"]
        self.lookups.append(host)
        if host not in self.names:
            raise socket.gaierror(socket.EAI_NONAME, f"{host}: not known to the test")
        answers = self.names[host]
        return answers.pop(0) if len(answers) > 1 else answers[0]

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        out = []
        for address in self.resolve(str(host), port):
            family = socket.AF_INET6 if ":" in address else socket.AF_INET
            sockaddr = (
                (address, int(port or 0), 0, 0) if ":" in address else (address, int(port or 0))
            )
            out.append((family, socket.SOCK_STREAM, 6, "", sockaddr))
        return out

    def connect(self, address: tuple[str, int], timeout: Any = None, *args: Any, **kw: Any) -> Any:
        host, port = address[0], int(address[1])
        resolved = self.resolve(host, port)[0]  # a name: as socket.create_connection would
        self.connections.append((resolved, port))
        if (resolved, port) in self.stand_ins:
            return self._create_connection(("127.0.0.1", self.stand_ins[resolved, port]), timeout)
        if ipaddress.ip_address(resolved).is_loopback:
            return self._create_connection(("127.0.0.1", port), timeout)
        raise ConnectionRefusedError(f"the test sends nothing to {resolved}")


@pytest.fixture
def net(monkeypatch: pytest.MonkeyPatch) -> Net:
    the_net = Net()
    monkeypatch.setattr(socket, "getaddrinfo", the_net.getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", the_net.connect)
    return the_net


@pytest.fixture
def servers() -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(answer: Callable[[BaseHTTPRequestHandler], None] | None = None) -> Server:
        started.append(Server(answer))
        return started[-1]

    yield start
    for server in started:
        server.close()


def subscribe(league: League, url: str, kinds: list[str] | None = None, who: str = "organizer_a"):
    return league.client(who).post(
        "/api/v1/webhooks/",
        {"tournament": league.a.pk, "url": url, "kinds": kinds or ["match.completed"]},
        format="json",
    )


def finish_score_match(league: League) -> None:
    with committed():
        demo.play(league.score, random.Random(5))


def a_delivery(league: League, url: str) -> WebhookDelivery:
    hook = Webhook.objects.create(
        tournament=league.a, url=url, kinds=["match.completed"], secret="s" * 64,
        created_by=league.users["organizer_a"],
    )  # fmt: skip
    return WebhookDelivery.objects.create(webhook=hook, kind="match.completed", body={"x": 1})


# --- 4: only globally routable addresses ---------------------------------------------------


REFUSED = [
    "100.100.100.200",  # a cloud metadata address
    "100.64.0.1",  # shared address space
    "2002:7f00:1::",  # 6to4 of loopback
    "127.0.0.1",
    "::1",
    "169.254.169.254",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:8.8.8.8",  # IPv4-mapped: refused whatever it maps
    "64:ff9b::7f00:1",  # NAT64 of loopback
    "10.0.0.1",
    "192.168.1.1",
    "fd00::1",
    "0.0.0.0",
    "224.0.0.1",
    "198.18.0.1",
    # issue 40: IPv4 spellings that is_global passes
    "::7f00:1",  # IPv4-compatible loopback
    "::a00:1",  # IPv4-compatible 10.0.0.1
    "::ffff:0:7f00:1",  # IPv4-translated loopback
    "64:ff9b:1::a00:1",  # local-use NAT64 of 10.0.0.1
    "fec0::1",  # site-local
]


@pytest.mark.parametrize("address", REFUSED)
def test_an_address_that_is_not_globally_routable_is_refused(
    league: League, net: Net, address: str
) -> None:
    net.answer("hooks.example.org", [PUBLIC, address])  # one bad address of two is enough
    by_name = subscribe(league, "https://hooks.example.org/in")
    literal = address if ":" not in address else f"[{address}]"
    by_address = subscribe(league, f"http://{literal}/in")
    for made in (by_name, by_address):
        assert made.status_code == 422, made.content
        assert made["Content-Type"].startswith("application/problem+json")
        assert made.json()["code"] == "bad_webhook_url"
        assert (
            "not globally routable" in made.json()["detail"] or "address" in made.json()["detail"]
        )
    assert not Webhook.objects.exists()
    assert net.connections == []


@pytest.mark.parametrize("address", [PUBLIC, "2606:4700::1111", "2002:808:808::"])
def test_a_globally_routable_address_is_accepted(league: League, net: Net, address: str) -> None:
    net.answer("hooks.example.org", [address])
    made = subscribe(league, "https://hooks.example.org/in")
    assert made.status_code == 201, made.content
    assert net.connections == []  # subscribing sends nothing


@pytest.mark.parametrize(
    "url", ["http://hooks.example.org:99999/", "http://user:pw@hooks.example.org/", "http://[::1/"]
)
def test_a_malformed_url_is_a_problem_never_a_500(league: League, net: Net, url: str) -> None:
    net.answer("hooks.example.org", [PUBLIC])
    made = subscribe(league, url)
    assert made.status_code in (400, 422), made.content
    assert made["Content-Type"].startswith("application/problem+json")


@pytest.mark.process
def test_the_private_network_switch_is_off_by_default_even_under_debug() -> None:
    code = "from django.conf import settings; print(settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS)"
    env = {k: v for k, v in os.environ.items() if k != "WEBHOOKS_ALLOW_PRIVATE_NETWORKS"}
    env.update(DEBUG="1", DJANGO_SETTINGS_MODULE="deploy.settings")
    shown = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=REPO, env=env, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert shown.stdout.strip() == "False"


# --- 3: one resolution, checked and connected to ---------------------------------------------


def test_outbound_resolves_once_and_connects_to_the_address_it_checked(
    net: Net, servers: Callable[..., Server]
) -> None:
    from api import outbound

    receiver = servers()
    net.stand_ins[PUBLIC, 8080] = receiver.port
    calls: list[str] = []
    answers = [[PUBLIC], ["127.0.0.1"]]  # public to the first question, loopback after

    def rebinding(host: str, port: int) -> list[str]:
        calls.append(host)
        return answers[min(len(calls), 2) - 1]

    answer = outbound.post(
        "http://hooks.example.org:8080/in?x=1", b"{}", {"Seep-Event": "t"},
        deadline_seconds=5, allow_private=False, resolve=rebinding,
    )  # fmt: skip
    assert answer.status == 204 and calls == ["hooks.example.org"]
    assert net.connections == [(PUBLIC, 8080)]
    ((path, headers, _),) = receiver.received
    assert path == "/in?x=1" and headers["Host"] == "hooks.example.org:8080"

    calls.clear()
    answers.reverse()  # loopback first: refused, and nothing is sent
    with pytest.raises(outbound.Refused):
        outbound.post(
            "http://hooks.example.org:8080/in", b"{}", {},
            deadline_seconds=5, allow_private=False, resolve=rebinding,
        )  # fmt: skip
    assert calls == ["hooks.example.org"] and len(receiver.received) == 1


def test_a_name_that_rebinds_to_loopback_after_the_check_delivers_nothing_there(
    league: League, net: Net, servers: Callable[..., Server]
) -> None:
    receiver = servers()
    net.stand_ins[PUBLIC, receiver.port] = receiver.port
    # public while the subscription and the attempt check it; loopback from then on
    net.answer("rebind.example.org", [PUBLIC], [PUBLIC], ["127.0.0.1"])
    assert subscribe(league, f"http://rebind.example.org:{receiver.port}/in").status_code == 201
    finish_score_match(league)
    assert net.connections, "the delivery was attempted"
    assert set(net.connections) == {(PUBLIC, receiver.port)}, "only the address checked"


# --- 2: redirects are never followed ---------------------------------------------------------


def test_a_redirect_is_a_failed_attempt_and_its_target_is_never_reached(
    league: League, net: Net, servers: Callable[..., Server]
) -> None:
    private = servers()

    def redirect(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(302)
        handler.send_header("Location", f"http://127.0.0.1:{private.port}/private")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    public = servers(redirect)
    net.stand_ins[OTHER_PUBLIC, public.port] = public.port
    net.answer("hooks.example.org", [OTHER_PUBLIC])
    made = subscribe(league, f"http://hooks.example.org:{public.port}/in")
    assert made.status_code == 201
    finish_score_match(league)
    assert len(public.received) == 1 and private.received == []
    assert (OTHER_PUBLIC, public.port) in net.connections
    assert all(port != private.port for _, port in net.connections)
    shown = league.client("organizer_a").get(f"/api/v1/webhooks/{made.json()['id']}/deliveries/")
    (delivery,) = shown.json()["results"]
    assert delivery["status"] == "pending" and delivery["attempts"] == 1
    (first,) = delivery["attempt_log"]
    assert first["status_code"] == 302 and "redirect" in first["error"]


# --- 1: an attempt is bounded as a whole, and a cut-off one counts --------------------------


def trickle(seconds: float, every: float) -> Callable[[BaseHTTPRequestHandler], None]:
    """An answer that sends its head a byte at a time, ``every`` seconds, for ``seconds``."""

    def answer(handler: BaseHTTPRequestHandler) -> None:
        ends = time.monotonic() + seconds
        data = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"." * 10_000
        for byte in data:
            if time.monotonic() > ends:
                break
            try:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
            except OSError:
                return
            time.sleep(every)

    return answer


def test_an_attempt_ends_at_one_deadline_however_slowly_the_receiver_answers(
    league: League, settings: Any, servers: Callable[..., Server]
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    slow = servers(trickle(seconds=6, every=0.2))
    delivery = a_delivery(league, f"http://127.0.0.1:{slow.port}/in")
    began = time.monotonic()
    done = tasks.attempt(delivery.pk)
    took = time.monotonic() - began
    assert took < 2, f"an attempt with a 1 s deadline took {took:.1f} s"
    assert done is False
    delivery.refresh_from_db()
    (logged,) = delivery.attempt_log.all()
    assert logged.status_code is None and "within 1 s" in logged.error
    assert delivery.status == "pending" and delivery.sending_until is None


def test_an_answer_s_body_is_read_up_to_a_cap(
    league: League, settings: Any, servers: Callable[..., Server]
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True

    def huge(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(50_000_000))
        handler.end_headers()
        try:
            for _ in range(50_000):
                handler.wfile.write(b"x" * 1000)
        except OSError:
            return  # the sender stopped reading

    from api import outbound

    server = servers(huge)
    began = time.monotonic()
    answer = outbound.post(
        f"http://127.0.0.1:{server.port}/", b"{}", {}, deadline_seconds=5, allow_private=True
    )
    assert answer.status == 200 and time.monotonic() - began < 2


def test_an_attempt_cut_off_by_the_time_limit_is_retried_with_backoff_then_given_up(
    league: League, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    settings.WEBHOOK_MAX_ATTEMPTS = 3

    def cut_off(*args: Any, **kwargs: Any) -> Any:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(socket, "create_connection", cut_off)
    delivery = a_delivery(league, "http://127.0.0.1:9/in")
    for number in (1, 2):
        before = timezone.now()
        assert tasks.attempt(delivery.pk) is False  # recorded: to be tried again
        delivery.refresh_from_db()
        assert (delivery.status, delivery.attempts) == ("pending", number)
        wait = (delivery.next_attempt_at - before).total_seconds()
        assert tasks.backoff(number) - 1 <= wait <= tasks.backoff(number) + 1  # doubling
        assert "time limit" in delivery.attempt_log.get(number=number).error
        assert tasks.attempt(delivery.pk) is None  # not due yet: an early copy sends nothing
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            next_attempt_at=timezone.now() - timedelta(minutes=5)
        )
    assert tasks.attempt(delivery.pk) is True
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("failed", 3)
    assert not tasks.due_deliveries().exists()  # the catch-up never sends it again
    shown = league.client("organizer_a").get(f"/api/v1/webhooks/{delivery.webhook_id}/deliveries/")
    assert shown.json()["results"][0]["status"] == "failed"


def test_an_attempt_whose_worker_died_counts_and_the_catch_up_stops_after_the_last(
    league: League, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    settings.WEBHOOK_MAX_ATTEMPTS = 2

    def killed(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt  # the process ends in the middle: nothing after runs

    monkeypatch.setattr(socket, "create_connection", killed)
    delivery = a_delivery(league, "http://127.0.0.1:9/in")
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        created_at=timezone.now() - timedelta(minutes=5)
    )
    for number in (1, 2):
        with pytest.raises(KeyboardInterrupt):
            tasks.attempt(delivery.pk)
        delivery.refresh_from_db()
        assert delivery.attempts == number and delivery.status == "pending"
        assert not tasks.due_deliveries().exists()  # under way: not sent again meanwhile
        past = timezone.now() - timedelta(hours=1)
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            sending_until=past, next_attempt_at=past
        )
    assert tasks.attempt(delivery.pk) is True  # gives up without sending
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("failed", 2)
    assert [a.error for a in delivery.attempt_log.all()] == [tasks.CUT_OFF] * 2
    assert not tasks.due_deliveries().exists()


# --- caps -------------------------------------------------------------------------------


def test_a_tournament_holds_at_most_its_cap_of_webhooks(
    league: League, net: Net, settings: Any
) -> None:
    settings.WEBHOOK_MAX_PER_TOURNAMENT = 2
    net.answer("hooks.example.org", [PUBLIC])
    made = [subscribe(league, f"https://hooks.example.org/{n}") for n in range(3)]
    assert [m.status_code for m in made] == [201, 201, 409]
    refused = made[2]
    assert refused["Content-Type"].startswith("application/problem+json")
    assert refused.json()["code"] == "too_many_webhooks"
    assert "at most 2 webhooks" in refused.json()["detail"]
    first = made[0].json()["id"]
    assert league.client("organizer_a").delete(f"/api/v1/webhooks/{first}/").status_code == 204
    assert subscribe(league, "https://hooks.example.org/again").status_code == 201


def test_beyond_the_deliveries_in_flight_a_delivery_waits_its_turn(
    league: League, settings: Any, servers: Callable[..., Server]
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    settings.WEBHOOK_MAX_IN_FLIGHT = 1
    receiver = servers()
    busy = a_delivery(league, f"http://127.0.0.1:{receiver.port}/a")
    waiting = a_delivery(league, f"http://127.0.0.1:{receiver.port}/b")
    WebhookDelivery.objects.filter(pk=busy.pk).update(
        sending_until=timezone.now() + timedelta(seconds=30)
    )
    assert tasks.attempt(waiting.pk) is False  # not its turn: tried again in a moment
    waiting.refresh_from_db()
    assert waiting.attempts == 0 and not waiting.attempt_log.exists()
    assert waiting.next_attempt_at is not None
    assert receiver.received == []
    WebhookDelivery.objects.filter(pk=busy.pk).update(sending_until=None)
    WebhookDelivery.objects.filter(pk=waiting.pk).update(next_attempt_at=None)
    assert tasks.attempt(waiting.pk) is True
    assert [path for path, _, _ in receiver.received] == ["/b"]


# --- pause, resume, delete: the API --------------------------------------------------------


@pytest.fixture
def hook(league: League, settings: Any, servers: Callable[..., Server]) -> tuple[int, Server]:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    receiver = servers()
    made = subscribe(league, f"http://127.0.0.1:{receiver.port}/in")
    assert made.status_code == 201
    return made.json()["id"], receiver


def test_a_paused_webhook_sends_nothing_until_resumed(
    league: League, hook: tuple[int, Server]
) -> None:
    pk, receiver = hook
    director = league.client("director_a")
    paused = director.post(f"/api/v1/webhooks/{pk}/pause/")
    assert paused.status_code == 200 and paused.json()["active"] is False
    finish_score_match(league)
    assert receiver.received == [] and not WebhookDelivery.objects.exists()
    pending = WebhookDelivery.objects.create(webhook_id=pk, kind="match.completed", body={})
    assert tasks.attempt(pending.pk) is None and receiver.received == []
    resumed = director.post(f"/api/v1/webhooks/{pk}/resume/")
    assert resumed.status_code == 200 and resumed.json()["active"] is True
    assert len(receiver.received) == 1  # the pending one, sent on resuming
    pending.refresh_from_db()
    assert pending.status == "succeeded"
    assert director.get(f"/api/v1/webhooks/{pk}/").json()["active"] is True


def test_a_deleted_webhook_is_gone_with_its_deliveries(
    league: League, hook: tuple[int, Server]
) -> None:
    pk, _ = hook
    WebhookDelivery.objects.create(webhook_id=pk, kind="match.completed", body={})
    client = league.client(token="a_write")
    assert client.delete(f"/api/v1/webhooks/{pk}/").status_code == 204
    assert not Webhook.objects.exists() and not WebhookDelivery.objects.exists()
    gone = client.delete(f"/api/v1/webhooks/{pk}/")
    assert gone.status_code == 404 and gone["Content-Type"].startswith("application/problem+json")


@pytest.mark.parametrize(
    ("who", "token", "status", "code"),
    [
        (None, None, 401, "not_authenticated"),
        ("organizer_b", None, 404, None),  # another tournament's director
        (None, "b_write", 404, None),
        ("keeper_a", None, 404, None),
        (None, "a_read", 403, "token_read_only"),
    ],
)
def test_only_a_director_may_pause_resume_or_delete(
    league: League, hook: tuple[int, Server], who: str | None, token: str | None, status: int,
    code: str | None,
) -> None:  # fmt: skip
    pk, _ = hook
    client = league.client(who, token=token)
    for method, path in (
        ("post", f"/api/v1/webhooks/{pk}/pause/"),
        ("post", f"/api/v1/webhooks/{pk}/resume/"),
        ("delete", f"/api/v1/webhooks/{pk}/"),
    ):
        answer = getattr(client, method)(path)
        assert answer.status_code == status, (path, answer.content)
        assert answer["Content-Type"].startswith("application/problem+json")
        if code:
            assert answer.json()["code"] == code
    assert Webhook.objects.get(pk=pk).active is True


# --- pause, resume, delete: the desk ---------------------------------------------------------


def desk(league: League, who: str, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(league.users[who])
    return client


def test_the_desk_lists_a_tournament_s_webhooks_and_their_deliveries(
    league: League, hook: tuple[int, Server]
) -> None:
    _, receiver = hook
    finish_score_match(league)
    page = desk(league, "organizer_a").get("/desk/cup-a/webhooks/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f"http://127.0.0.1:{receiver.port}/in" in text
    assert "match.completed" in text and "delivered" in text and "HTTP 204" in text
    assert (
        'href="/desk/cup-a/webhooks/"'
        in desk(league, "organizer_a").get("/desk/cup-a/").content.decode()
    )


def test_the_desk_pauses_resumes_and_deletes_after_asking(
    league: League, hook: tuple[int, Server]
) -> None:
    pk, _ = hook
    client = desk(league, "director_a")
    assert client.post(f"/desk/cup-a/webhooks/{pk}/pause/").status_code == 302
    assert Webhook.objects.get(pk=pk).active is False
    assert "paused" in client.get("/desk/cup-a/webhooks/").content.decode()
    assert client.post(f"/desk/cup-a/webhooks/{pk}/resume/").status_code == 302
    assert Webhook.objects.get(pk=pk).active is True
    asked = client.post(f"/desk/cup-a/webhooks/{pk}/delete/")
    assert asked.status_code == 200 and "Delete the webhook" in asked.content.decode()
    assert Webhook.objects.filter(pk=pk).exists()  # asked first: nothing changed
    done = client.post(f"/desk/cup-a/webhooks/{pk}/delete/", {"confirmed": "yes"})
    assert done.status_code == 302 and not Webhook.objects.filter(pk=pk).exists()


def test_the_desk_s_webhooks_are_for_the_tournament_s_directors_only(
    league: League, hook: tuple[int, Server]
) -> None:
    pk, _ = hook
    for who in ("organizer_b", "keeper_a", "outsider"):
        client = desk(league, who)
        assert client.get("/desk/cup-a/webhooks/").status_code == 404
        assert client.post(f"/desk/cup-a/webhooks/{pk}/pause/").status_code == 404
    assert Client().get("/desk/cup-a/webhooks/").status_code == 302  # to sign in
    # a webhook of tournament A through the desk of tournament B: none there
    assert desk(league, "organizer_b").post(f"/desk/cup-b/webhooks/{pk}/pause/").status_code == 404
    # a form posted from elsewhere: no CSRF token, refused
    assert (
        desk(league, "organizer_a", csrf=True).post(f"/desk/cup-a/webhooks/{pk}/pause/").status_code
        == 403
    )
    assert Webhook.objects.get(pk=pk).active is True


def test_the_deliveries_say_when_the_next_attempt_is_due(
    league: League, hook: tuple[int, Server]
) -> None:
    pk, _ = hook
    due = timezone.now() + timedelta(seconds=90)
    WebhookDelivery.objects.create(
        webhook_id=pk, kind="match.completed", body={"a": 1}, next_attempt_at=due
    )
    shown = league.client("organizer_a").get(f"/api/v1/webhooks/{pk}/deliveries/").json()
    assert parse_datetime(shown["results"][0]["next_attempt_at"]) == due
