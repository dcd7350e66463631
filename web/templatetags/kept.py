"""``{% kept a b %}…{% endkept %}``: a fragment rendered once for each set of values it shows.

A page's live part is rendered again on every change of it, though most of it shows what it
showed before: a round of 256 tables changes one table at a deal, and its standings change only
with a result. A fragment wrapped in ``kept`` with the values it shows is rendered once for
those values (with the language, the localization and the escaping it is rendered in) and kept
in this process, the ``KEPT`` most recently used. The values must be everything the fragment
shows: one left out would keep a fragment that no longer says what the page's data says.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

#: the fragments kept in a process (a table of a round is about 1 KB; a stage's standings of
#: 512 teams about 100 KB, kept once per version)
KEPT = 4096
_kept: OrderedDict[tuple[Any, ...], SafeString] = OrderedDict()
_lock = threading.Lock()


def frozen(value: Any) -> Any:
    """The value as a key: dicts, lists and tuples made tuples, all the way down."""
    if isinstance(value, dict):
        return tuple((k, frozen(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return tuple(frozen(v) for v in value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return (type(value).__name__, str(value))  # a lazy word, a date: as it reads


class KeptNode(template.Node):
    def __init__(
        self, where: tuple[str, int | None, str], values: list[FilterExpression], nodelist: NodeList
    ) -> None:
        self.where, self.values, self.nodelist = where, values, nodelist

    def render(self, context: template.Context) -> SafeString:
        key = (
            self.where,
            get_language(),
            context.use_l10n,
            context.autoescape,
            *(frozen(v.resolve(context)) for v in self.values),
        )
        with _lock:
            found = _kept.get(key)
            if found is not None:
                _kept.move_to_end(key)
                return found
        html = mark_safe(self.nodelist.render(context))
        with _lock:
            _kept[key] = html
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
        return html


@register.tag("kept")
def do_kept(parser: Parser, token: Token) -> KeptNode:
    values = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    if not values:
        raise template.TemplateSyntaxError("kept needs the values its fragment shows")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    # where the tag is: its template, line and words (two alike on one line are one fragment)
    where = (str(getattr(parser.origin, "name", "")), token.lineno, token.contents)
    return KeptNode(where, values, nodelist)
