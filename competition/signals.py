"""What the competition tells the layers above it (the API's webhooks, the pages).

Sent after the commit that made the change; receivers must be quick and idempotent. (What
integrators and viewers are told of a round, a match or the standings is written with the
change, as a happening: ``competition.happenings``.)

- ``standings_changed`` (``stage_id``, ``rounds``): the stage's standings as of these rounds
  were rewritten.
- ``standings_due`` (``stage_id``): a change the stage's standings must follow was committed.
  The app's own receiver (``apps.py``) sends ``tasks.update_standings``: the services, which
  the tasks call, never import the tasks.
"""

from django.dispatch import Signal

standings_changed = Signal()
standings_due = Signal()
