"""Each xdist worker's Redis database (tests/worker_redis.py)."""

from tests.worker_redis import own_database


def test_each_worker_takes_the_databases_after_the_one_named() -> None:
    assert own_database("redis://127.0.0.1:6379/0", "gw0") == "redis://127.0.0.1:6379/1"
    assert own_database("redis://127.0.0.1:6379/0", "gw1") == "redis://127.0.0.1:6379/2"
    assert own_database("redis://h:6379/5", "gw3") == "redis://h:6379/9"
    assert own_database("redis://h:6379", "gw0") == "redis://h:6379/1"
    assert own_database("redis://h:6379/15", "gw0") == "redis://h:6379/0"  # wraps around
    assert own_database("redis://h:6379/3", "master") == "redis://h:6379/3"  # no worker
