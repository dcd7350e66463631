"""A live part made of kept fragments (``{% cache %}`` on the ``template_fragments`` cache, as
web/_live.html keeps a round's tables) says what a fresh render says, whatever changed between
two renders and in whatever language; and a part several push processes want at once is
rendered by one of them (web.views.common.rendered_once)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.core.cache import cache, caches
from django.template import Context, Template
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from web.views import common

TEMPLATE = Template(
    "{% load cache i18n %}{% get_current_language as LANGUAGE_CODE %}{% for t in rows %}"
    "{% cache 600 test_row t LANGUAGE_CODE %}"
    "<li>{{ t.name }} {% translate 'bazzis' %} {{ t.score }}</li>{% endcache %}{% endfor %}"
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
    fragments = caches["template_fragments"]
    rendered: list[bool] = []
    original = fragments.set

    def counting(*args: Any, **kwargs: Any) -> None:  # a fragment is set once it is rendered
        rendered.append(True)
        original(*args, **kwargs)

    fragments.clear()
    monkeypatch.setattr(fragments, "set", counting)
    shown = [{"name": "Tigers", "score": 1}, {"name": "Lotus", "score": 2}]
    TEMPLATE.render(Context({"rows": shown}))
    assert len(rendered) == 2
    shown[1] = {"name": "Lotus", "score": 3}
    assert "Lotus bazzis 3" in TEMPLATE.render(Context({"rows": shown}))
    assert len(rendered) == 3  # the second time only the changed one


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
