"""What every page must be: valid HTML (html5lib's strict parser, offline), with one main
landmark, one h1, unique ids and a label for every field; and the list of every page."""

from __future__ import annotations

from collections import Counter
from typing import Any

import html5lib

from .conftest import Club


def check_html(text: str) -> Any:
    """Parse ``text`` strictly (a parse error raises) and check the page's structure."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    doc = parser.parse(text)
    assert doc.get("lang") == "en"
    assert len(doc.findall(".//main")) == 1, "one main landmark"
    assert len(doc.findall(".//h1")) == 1, "one h1"
    ids = Counter(e.get("id") for e in doc.iter() if e.get("id"))
    assert not [i for i, n in ids.items() if n > 1], f"duplicate ids: {ids}"
    labelled = {label.get("for") for label in doc.iter("label")}
    for field in [*doc.iter("input"), *doc.iter("select"), *doc.iter("textarea")]:
        if field.get("type") in ("hidden", "submit", "button"):
            continue
        wrapped = any(field in label.iter() for label in doc.iter("label"))
        assert field.get("id") in labelled or wrapped, f"no label for {field.attrib}"
    return doc


def spoken(element: Any) -> str:
    """The text a screen reader reads in ``element``: all but what is aria-hidden."""
    if element.get("aria-hidden") == "true":
        return ""
    return (element.text or "") + "".join(spoken(c) + (c.tail or "") for c in element)


PAGES = [
    "home",
    "tournament",
    "print",
    "match-score",
    "match-digital",
    "login",
    "keep-index",
    "keep",
    "desk",
    "desk-round",
    "desk-match",
    "desk-home",
    "desk-new",
    "desk-stage-new",
    "desk-stage-edit",
    "desk-team",
    "desk-board",
    "wall",
    "seat",
]


def every_page(club: Club) -> list[tuple[str, str, str | None]]:
    """Return every page as (name, url, who looks at it): one of each kind."""
    slug = club.tournament.slug
    score = club.matches[0]
    return [
        ("home", "/", None),
        ("tournament", f"/t/{slug}/", None),
        ("print", f"/t/{slug}/print/", None),
        ("match-score", f"/m/{score.pk}/", None),
        ("match-digital", f"/m/{club.digital.pk}/", None),
        ("login", "/login/", None),
        ("keep-index", "/keep/", "scorekeeper"),
        ("keep", f"/keep/{score.pk}/", "scorekeeper"),
        ("desk", f"/desk/{slug}/", "director"),
        ("desk-round", f"/desk/{slug}/rounds/{club.round.pk}/", "director"),
        ("desk-match", f"/desk/{slug}/matches/{score.pk}/", "director"),
        ("desk-home", "/desk/", "director"),
        ("desk-new", "/desk/new/", "director"),
        ("desk-stage-new", f"/desk/{slug}/stages/new/", "director"),
        ("desk-stage-edit", f"/desk/{slug}/stages/{club.stage.pk}/edit/", "director"),
        ("desk-team", f"/desk/{slug}/teams/{score.team0_id}/", "director"),
        ("desk-board", f"/desk/{slug}/board/", "director"),
        ("wall", f"/t/{slug}/wall/", None),
        ("seat", f"/play/{club.digital.pk}/", club.player_of(club.digital, 0)),
    ]
