"""A live part made of kept fragments (web/templatetags/kept.py) says what a fresh render says,
whatever changed between two renders; and a part several push processes want at once is
rendered by one of them (web.views.common.rendered_once)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.template import Context, Template
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from web.templatetags import kept
from web.views import common

TEMPLATE = Template(
    "{% load i18n kept %}{% for t in rows %}{% kept t %}"
    "<li>{{ t.name }} {% translate 'bazzis' %} {{ t.score }}</li>{% endkept %}{% endfor %}"
)
UNKEPT = Template(
    "{% load i18n %}{% for t in rows %}"
    "<li>{{ t.name }} {% translate 'bazzis' %} {{ t.score }}</li>{% endfor %}"
)

rows = st.lists(
    st.fixed_dictionaries(
        {"name": st.sampled_from(["Tigers", "Lotus", "<b>", "अनिल"]), "score": st.integers(0, 3)}
    ),
    max_size=6,
)


@given(renders=st.lists(st.tuples(rows, st.sampled_from(["en", "hi", "ur"])), max_size=6))
def test_kept_fragments_render_as_the_fragments_would_fresh(renders: list[Any]) -> None:
    for shown, language in renders:
        with translation.override(language):
            context = {"rows": shown}
            assert TEMPLATE.render(Context(context)) == UNKEPT.render(Context(context))


def test_a_fragment_is_rendered_once_for_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    rendered: list[Any] = []
    original = kept.KeptNode.render

    def counting(self: kept.KeptNode, context: Any) -> Any:
        before = len(kept._kept)
        html = original(self, context)
        rendered.append(len(kept._kept) > before)
        return html

    monkeypatch.setattr(kept.KeptNode, "render", counting)
    monkeypatch.setattr(kept, "_kept", type(kept._kept)())
    shown = [{"name": "Tigers", "score": 1}, {"name": "Lotus", "score": 2}]
    TEMPLATE.render(Context({"rows": shown}))
    shown[1] = {"name": "Lotus", "score": 3}
    assert "Lotus bazzis 3" in TEMPLATE.render(Context({"rows": shown}))
    assert rendered == [True, True, False, True]  # the second time only the changed one


def test_a_part_wanted_by_two_processes_at_once_is_rendered_by_one() -> None:
    key = "test:rendered-once"
    cache.delete(key)
    renders: list[str] = []

    def render() -> str:
        renders.append(threading.current_thread().name)
        time.sleep(0.2)
        return "<p>part</p>"

    got: list[str] = []
    threads = [
        threading.Thread(target=lambda: got.append(common.rendered_once(key, render)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == ["<p>part</p>", "<p>part</p>"]
    assert len(renders) == 1
    assert cache.get(f"{key}:rendering") is None  # the mark is taken away


def test_with_no_process_rendering_it_a_part_is_rendered_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cache that is down keeps no mark (FailOpenRedisCache: add and has_key say no): the
    part is rendered at once, not after the wait for another process."""
    monkeypatch.setattr(cache, "add", lambda *args, **kwargs: False)
    monkeypatch.setattr(cache, "has_key", lambda *args, **kwargs: False)
    cache.delete("test:no-mark")
    started = time.monotonic()
    assert common.rendered_once("test:no-mark", lambda: "part") == "part"
    assert time.monotonic() - started < common.SHARED_WAIT_SECONDS / 2
