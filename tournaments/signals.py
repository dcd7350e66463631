"""What the event store tells the apps above it, without importing them (arrows point down).

``log_appended`` is sent after the commit of every append (``match_id``): scoring subscribes
to it and schedules its projection. Receivers must be quick and must not fail the sender: the
append has committed already.

``verifying`` is sent by ``verify.verify_match`` (``match_id``): a receiver returns the heads
of this match's log recorded elsewhere (``verify.Anchor``, and ``receipts.Receipt`` copies),
for example the competition's record of each completed round, which the log must still reach.
"""

from django.dispatch import Signal

#: sent with ``match_id`` after an append to that match's log has committed
log_appended = Signal()

#: sent with ``match_id`` by verify_match; receivers return anchors the log must still reach
verifying = Signal()
