"""What the competition tells the layers above it (the API's webhooks, the pages).

Sent after the commit that made the change; receivers must be quick and idempotent.

- ``round_published`` (``round_id``): a round's pairings are out and its matches made.
- ``round_unpublished`` (``round_id``, ``called_off``): a published round is a draft again;
  ``called_off`` lists the ids of the matches it called off (a bracket's: every round's).
- ``standings_changed`` (``stage_id``, ``rounds``): the stage's standings as of these rounds
  were rewritten.
- ``standings_due`` (``stage_id``): a change the stage's standings must follow was committed.
  The app's own receiver (``apps.py``) sends ``tasks.update_standings``: the services, which
  the tasks call, never import the tasks.
"""

from django.dispatch import Signal

round_published = Signal()
round_unpublished = Signal()
standings_changed = Signal()
standings_due = Signal()
