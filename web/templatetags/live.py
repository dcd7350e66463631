"""``{% push_attr 'tournament' slug %}``: a live part's stream, when the pages offer one."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from ..push import push_url

register = template.Library()


@register.simple_tag
def push_attr(name: str, *args: Any) -> str:
    """The ``data-push-url`` attribute of a live part (live.js), or nothing: then it polls."""
    url = push_url(name, *args)
    return format_html(' data-push-url="{}"', url) if url else ""
