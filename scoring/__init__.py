"""scoring: the read models computed from each match's event log (deal results, match results)."""
