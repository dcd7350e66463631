"""The examples in the formats' docstrings run and show what they say."""

import doctest
import importlib

import pytest

MODULES = [
    "competition.formats",
    "competition.formats.brackets",
    "competition.formats.drop_orders",
    "competition.formats.elimination",
    "competition.formats.groups",
    "competition.formats.roundrobin",
    "competition.formats.standings",
    "competition.formats.swiss",
    "competition.formats.tiebreaks",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0


def test_no_django_import_anywhere_in_formats() -> None:
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[3] / "competition" / "formats"
    for path in root.glob("*.py"):
        assert not re.search(r"^\s*(import|from)\s+django", path.read_text(), re.M), path
