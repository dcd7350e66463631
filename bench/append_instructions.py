"""The append's client cost in instructions (callgrind): a seated player's move, one writer.

Seconds are noise on a shared machine; the instructions of the writer's process are not (the
server's work is not in them: ``make bench-versus`` and perf measure that side). A scratch
database is migrated, one writer is set up as ``make bench-versus`` sets its project writer
up (``bench.versus.project_appender``: a started match, the moves chosen before on a rehearsal match
dealt the same cards, the projection's send stubbed), ``--warmup`` appends are made, and then
``--appends`` more are counted: callgrind collects only inside the ``functools.reduce`` that
runs them. A second run with no appends counts what that collecting costs besides (the
setup's own reduces, if any), and is subtracted. Both runs are the same process, so psycopg
has prepared the append's statement in the warm-up (it does after five runs).

``--tree DIR`` measures another checkout with the same workload (it needs
``bench.versus.project_appender``). Needs valgrind and PostgreSQL; the figures go to
bench/results/append-instructions.json.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        python -m bench.append_instructions [--appends 200] [--warmup 50] [--tree DIR]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def _child(url: str, warmup: int, appends: int) -> None:
    """In the measured process: set the writer up, warm up, then make ``appends`` appends."""
    from bench.scratch import bench_environment

    bench_environment(url)
    import django

    django.setup()
    from django.core.management import call_command

    from bench.versus import project_appender

    call_command("migrate", verbosity=0)
    append = project_appender(url, 0, 1, warmup + appends)
    for _ in range(warmup):
        append()
    functools.reduce(lambda _, __: append(), range(appends), 0.0)  # what callgrind counts


def _instructions(args: argparse.Namespace, url: str, appends: int) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            "--toggle-collect=functools_reduce", f"--callgrind-out-file={out}",
            sys.executable, str(Path(__file__).resolve()), "--child", url,
            str(args.warmup), str(appends),
        ]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(args.tree), "PYTHONHASHSEED": "0"}
        done = subprocess.run(
            command, cwd=args.tree, env=env, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"the measured process failed:\n{done.stderr[-3000:]}")
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        if totals is None:
            raise RuntimeError(f"no totals in the callgrind output:\n{done.stderr[-3000:]}")
        return int(totals.group(1))


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        _child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--appends", type=int, default=200, help="appends counted")
    parser.add_argument("--warmup", type=int, default=50, help="appends made before")
    parser.add_argument("--database", default="seep_bench_append_instructions")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--out", type=Path, default=RESULTS / "append-instructions.json")
    args = parser.parse_args()
    args.tree = args.tree.resolve()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed: apt-get install valgrind")
    database_url = os.environ.get("DATABASE_URL", "")
    if urlsplit(database_url).scheme not in {"postgres", "postgresql"}:
        sys.exit("bench.append_instructions needs PostgreSQL: set DATABASE_URL=postgres://...")
    sys.path.insert(0, str(ROOT))
    from bench.scratch import drop_database, recreate_database

    counts = {}
    for appends in (0, args.appends):
        url = recreate_database(database_url, args.database)
        try:
            counts[appends] = _instructions(args, url, appends)
        finally:
            drop_database(database_url, args.database)
        print(f"{appends} appends: {counts[appends]:,} instructions", file=sys.stderr)
    result: dict[str, Any] = {
        "benchmark": "append-instructions",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "tree": str(args.tree),
        "warmup": args.warmup,
        "appends": args.appends,
        "instructions": {str(k): v for k, v in counts.items()},
        "client_instructions_per_append": round((counts[args.appends] - counts[0]) / args.appends),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
