"""The competition layer: stages, rounds, fixtures and standings of a tournament."""
