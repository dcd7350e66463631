"""The real-worker fixtures of the scoring tests serve the competition's end-to-end test too."""

from tests.scoring.conftest import broker, run_queue, workers

__all__ = ["broker", "run_queue", "workers"]
