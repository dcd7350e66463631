"""seasons: what a club learns across evenings (docs/seasons.md).

Members' ratings (``rating``: openskill's Thurstone-Mosteller full model for teams, with a
drift back to uncertain for time away), folded from every finished match of the club's
tournaments in the order they ended; each evening's places and matches won per member; and
the club's seasons, whose ladders are read from those evenings by a rule of the club's. All
three are projections of the match logs (through scoring's results and the competition's
standings), written by Celery workers (``tasks``) after ``scoring.signals.match_completed``
and ``competition.signals.standings_changed``, checkpointed per club, and rebuilt from the
logs by ``manage.py rebuild_projections``. A seeding service sets an evening's team ratings
from its members' ratings (``services.seed_by_member_ratings``).

It sits above the competition (it reads its standings and calls its seeding services);
nothing below imports it, and the pages and the API read it.
"""
