"""Tournaments, teams, players, matches and each match's append-only event log."""
