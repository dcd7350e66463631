"""The examples in seep_core's docstrings run and print what they say."""

import doctest
import importlib
import pkgutil

import pytest

import seep_core

MODULES = ["seep_core"] + [
    f"seep_core.{m.name}" for m in pkgutil.iter_modules(seep_core.__path__) if not m.ispkg
]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name):
    failed, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_the_package_has_examples_to_run():
    attempted = sum(
        doctest.testmod(importlib.import_module(name), report=False).attempted for name in MODULES
    )
    assert attempted >= 20
