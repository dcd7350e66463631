"""The focus ring stands out on every background the pages use (WCAG 1.4.11 asks 3:1): of the
ring's two colours, a dark line and a light halo, one has 3:1 or more against each background,
and the two against each other; read from the style sheets themselves, so a background added
later is checked too. (That browsers draw the ring is tests/web/test_browser_accessibility.py's.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "web" / "static" / "web"
#: a background declaration's colour: a hex colour or a custom property, first in its value
BACKGROUND = re.compile(r"background(?:-color)?:\s*(#[0-9a-fA-F]{3,6}|var\(--[\w-]+\))")
PROPERTY = re.compile(r"(--[\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;")


def luminance(hex_colour: str) -> float:
    """WCAG 2's relative luminance of a #rgb or #rrggbb colour."""
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_is_wcags() -> None:
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#e0a100", "#ffffff") == pytest.approx(2.27, abs=0.01)  # the 2.27:1


def sheet(name: str) -> tuple[str, dict[str, str], set[str]]:
    """A style sheet's text, its custom colours, and every background colour it sets."""
    text = (STATIC / name).read_text()
    properties = dict(PROPERTY.findall(text))
    backgrounds = set()
    for value in BACKGROUND.findall(text):
        name_ = value[4:-1] if value.startswith("var(") else None
        backgrounds.add(properties[name_] if name_ else value)
    return text, properties, backgrounds


def test_the_sites_ring_stands_out_on_every_background_it_uses() -> None:
    text, properties, backgrounds = sheet("site.css")
    ring = re.search(r":focus-visible\s*\{([^}]*)\}", text)
    assert ring is not None
    assert "outline: 3px solid var(--focus)" in ring.group(1)
    assert "var(--focus-halo)" in ring.group(1)
    line, halo = properties["--focus"], properties["--focus-halo"]
    assert {"#ffffff", "#f3f5f7", "#0b4f8a"} <= backgrounds  # white, the grey tiles, the header
    assert contrast(line, halo) >= 3
    for background in backgrounds:
        best = max(contrast(line, background), contrast(halo, background))
        assert best >= 3, (background, best)


def test_the_walls_ring_stands_out_on_its_dark_backgrounds() -> None:
    text, properties, backgrounds = sheet("wall.css")
    ring = re.search(r":focus-visible\s*\{\s*outline:\s*3px solid var\((--[\w-]+)\)", text)
    assert ring is not None
    assert backgrounds
    for background in backgrounds:
        assert contrast(properties[ring.group(1)], background) >= 3, background
