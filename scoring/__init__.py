"""scoring: the read models computed from each match's event log (deal results, match results).

What it computes (docs/rules.md E2, L1-L3, R1-R3, M1, through seep_core's ``MatchProgress``): per
deal (``DealResult``) each team's card points, sweeps and total, the deal's difference, the
running difference after it, whether a team fell under the minimum (``reset``) and who won a
bazzi and why; per match (``MatchResult``) the bazzis, the running difference, the deals
played, the next dealer, and whether the format says it is over, with the winner or a draw.
When a match ends, and whenever a director's correction changes a finished match's result or
reopens it, ``tasks.on_match_completed`` tells the apps above (``signals.match_completed``).

How it runs: after every append commits, ``tasks.project_match(match_id)`` brings the match's
projection up to the head of its log (``services.update_match_projection``: lock the result
row, compare its checkpoint ``seq`` with ``Match.last_seq``, fold the match's scored events
from the start, write the rows that differ and the checkpoint in one transaction). Tasks are
acknowledged late, re-queued if their worker dies, and safe to run twice or out of order.
Celery beat runs ``tasks.catch_up`` every ``SCORING_CATCH_UP_SECONDS`` (15): it re-sends the
task for every match whose checkpoint lags its log, so a lost message costs a delay. Without
REDIS_URL the same tasks run in-process.

Operations: run one ``celery -A deploy beat`` and any number of ``celery -A deploy worker``
(deploy/Procfile). ``manage.py rebuild_projections [--match ID] [--check]`` recomputes every
row from the logs alone (``--check`` fails if the incremental rows differed); the admin shows
each match's result and deals. ``CELERY_QUEUE`` names the queue (default ``celery``).
"""
