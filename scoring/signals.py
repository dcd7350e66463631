"""What scoring tells the apps above it, without importing them (arrows point down).

- ``match_completed`` (``match_id``): sent by the ``on_match_completed`` task when a match's
  result is recorded, and again whenever a correction changes a finished match's result or
  reopens it (and again by a catch-up after a lost message); receivers read the result as
  it is now and must be idempotent.
- ``projections_rebuilt``: sent by ``rebuild_projections`` after the match projections were
  rebuilt from the logs, so projections built on them are rebuilt too; a receiver returns
  a line saying what it did.
"""

from django.dispatch import Signal

match_completed = Signal()
projections_rebuilt = Signal()
