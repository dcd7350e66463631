"""What the API reads and writes. Inputs are strict (an unknown field is an error, server-owned
fields are read-only); outputs never carry a hidden card (events go through the store's
renderer, positions through ``seep_core.view``).

One module a resource, named like its view module in ``api.views`` (``stages`` serves
``api/views/stages.py``); ``_common`` holds what several share, re-exported here.
"""

from ._common import (
    FIXTURE_RESULT,
    WINNER_SIDE,
    Side,
    SidesField,
    Strict,
    StrictModel,
    TeamRef,
    UserRef,
    VisibleTournament,
    sides_field,
)

__all__ = [
    "FIXTURE_RESULT",
    "WINNER_SIDE",
    "Side",
    "SidesField",
    "Strict",
    "StrictModel",
    "TeamRef",
    "UserRef",
    "VisibleTournament",
    "sides_field",
]
