"""What the competition tells the layers above it (the API's webhooks, the pages).

Sent after the commit that made the change; receivers must be quick and idempotent.

- ``round_published`` (``round_id``): a round's pairings are out and its matches made.
- ``standings_changed`` (``stage_id``, ``rounds``): the stage's standings as of these rounds
  were rewritten.
"""

from django.dispatch import Signal

round_published = Signal()
standings_changed = Signal()
