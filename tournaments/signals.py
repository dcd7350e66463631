"""What the event store tells the apps above it, without importing them (arrows point down).

``log_appended`` is sent after the commit of every append (``match_id``): scoring subscribes
to it and schedules its projection. Receivers must be quick and must not fail the sender: the
append has committed already.
"""

from django.dispatch import Signal

#: sent with ``match_id`` after an append to that match's log has committed
log_appended = Signal()
