"""A server process's start-up set aside from the garbage collector's full passes.

A full pass walks every object the collector tracks, with the process stopped meanwhile:
Django, the apps, their URLs and views are a hundred thousand objects and more, loaded once
and kept for the process's life. Walked again at every pass, they stopped a web request for
90-120 ms now and then (bench.board) and a push process's event loop, for every viewer at
once, for up to 560 ms (bench.live). ``settle`` loads the URL confs (and with them every view
module, which Django imports only at the first request), then freezes what is loaded
(``gc.freeze``): later passes walk only what came after.
"""

from __future__ import annotations

import gc

from django.urls import get_resolver


def settle(*urlconfs: str | None) -> None:
    """Load the URL confs ``urlconfs`` (None: the site's ``ROOT_URLCONF``), then collect once
    and freeze what the process holds."""
    for urlconf in urlconfs:
        get_resolver(urlconf).url_patterns  # noqa: B018  (its views imported)
    gc.collect()
    gc.freeze()
