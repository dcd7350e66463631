"""What every answer says about itself: ``Cache-Control: private, no-store`` to a signed-in
caller (their pages are theirs alone), the public pages' own ETag caching to anonymous ones;
a Content-Security-Policy that runs only the site's own script files, and templates that
need nothing else."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Club

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parent.parent.parent
PRIVATE = "private, no-store"


def signed_in_pages(club: Club) -> list[str]:
    slug, match = club.tournament.slug, club.matches[0]
    return [
        "/keep/",
        f"/keep/{match.pk}/",
        f"/keep/{match.pk}/status/",
        "/desk/",
        f"/desk/{slug}/",
        f"/desk/{slug}/matches/{match.pk}/",
        # public pages, as a signed-in person sees them (a director's view holds more)
        "/",
        f"/t/{slug}/",
        f"/t/{slug}/live/",
        f"/m/{match.pk}/",
    ]


def test_every_page_to_a_signed_in_caller_is_private_and_never_stored(club: Club) -> None:
    director = club.client("director")
    for path in signed_in_pages(club):
        response = director.get(path)
        assert response.status_code == 200, path
        assert response["Cache-Control"] == PRIVATE, path
    assert club.client("scorekeeper").get("/no-such-page/")["Cache-Control"] == PRIVATE


def test_public_pages_keep_their_etags_for_anonymous_and_signed_in_callers(club: Club) -> None:
    live = f"/t/{club.tournament.slug}/live/"
    anonymous = club.client()
    first = anonymous.get(live)
    assert first["Cache-Control"] == "private, no-cache" and first["ETag"]
    again = anonymous.get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert "no-store" not in anonymous.get("/").get("Cache-Control", "")
    # signed in: not stored, but a poll that sends its ETag (live.js) still gets its 304
    director = club.client("director")
    mine = director.get(live)
    assert mine["Cache-Control"] == PRIVATE
    assert director.get(live, HTTP_IF_NONE_MATCH=mine["ETag"]).status_code == 304


def test_every_answer_carries_the_content_security_policy(club: Club, settings: Any) -> None:
    policy = settings.CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "style-src 'self'" in policy and "object-src 'none'" in policy
    anonymous, director = club.client(), club.client("director")
    for client, path in [
        (anonymous, "/"),
        (anonymous, "/login/"),
        (anonymous, f"/t/{club.tournament.slug}/print/"),
        (anonymous, "/no-such-page/"),
        (anonymous, "/admin/login/"),
        (anonymous, "/api/v1/"),
        (director, "/desk/"),
        (director, "/admin/"),
    ]:
        assert client.get(path)["Content-Security-Policy"] == policy, path
    docs = anonymous.get("/api/docs/")
    assert docs["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY_DOCS
    assert "script-src 'self';" in docs["Content-Security-Policy"]
    # the docs' own script is a file the page loads, not inline
    html = docs.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), html
    script = re.search(r'<script src="([^"]*\?script=[^"]*)"', html)
    assert script is not None
    loaded = anonymous.get(script.group(1).replace("&amp;", "&"))
    assert loaded.status_code == 200 and "SwaggerUIBundle" in loaded.content.decode()


#: what the policy refuses to run or apply: an inline script, an event handler attribute, a
#: style attribute
INLINE = [
    re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    re.compile(r"\son[a-z]+\s*=", re.I),
    re.compile(r"\sstyle\s*=", re.I),
    re.compile(r"<style[\s>]", re.I),
]


def test_no_template_needs_what_the_policy_refuses() -> None:
    templates = [
        path
        for app in ("web", "api", "competition", "tournaments", "scoring")
        for path in (REPO / app / "templates").rglob("*.html")
    ]
    assert len(templates) > 20
    found = {
        str(path.relative_to(REPO)): pattern.pattern
        for path in templates
        for pattern in INLINE
        if pattern.search(path.read_text(encoding="utf-8"))
    }
    assert found == {}
