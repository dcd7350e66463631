"""QR codes for printed cards: SVG drawn here by segno (no outside service), crisp at any
print size."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str, *, label: str) -> SafeString:
    """Return an inline SVG QR code of ``text`` (error correction M), titled ``label`` for
    screen readers."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(
        scale=4, border=2, title=label, svgclass="qr", lineclass=None, omitsize=True
    )
    return mark_safe(svg)  # segno's own SVG of our text; it escapes the title
