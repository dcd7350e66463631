"""The API's one request format: strict JSON (no NaN), of bounded depth, as an object."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, refusing what it would let crash: JSON nested too deep to read."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError("the JSON is nested too deeply") from exc
