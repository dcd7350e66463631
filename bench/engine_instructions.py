"""Engine cost in instructions (callgrind): per move in random play and in replay, and the import.

Seconds are noise on a shared machine; instruction counts are not. The workload is fixed
(bench/instructions_workload.py): ``--deals`` random deals from seed 2026 (every move drawn
from ``legal_moves`` and applied), then each recorded deal replayed ``--replays`` times with
``apply``. Each of four stages runs in its own interpreter under ``valgrind --tool=callgrind``,
every stage doing all the work of the one before it, so the differences give each cost:

- ``start``: the interpreter and this module, nothing of seep_core;
- ``import``: ``import seep_core`` besides;
- ``play``: the random play besides (``legal_moves`` + ``apply`` per move);
- ``replay``: the replays besides (``apply`` per move).

seep_core is imported from a fresh copy of the tree measured (``--tree``, default this
checkout), so the import compiles it from source, as with ``PYTHONDONTWRITEBYTECODE``, unless
``--bytecode`` compiles the copy first. ``--tree /some/old/checkout`` measures another
version with the same workload (it needs only ``new_deal``, ``ordered_deck``, ``legal_moves``
and ``apply``). The figures go to bench/results/engine-instructions.json.

    python -m bench.engine_instructions [--deals 25] [--replays 4] [--tree DIR] [--bytecode]
"""

from __future__ import annotations

import argparse
import compileall
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

from bench.instructions_workload import SEED

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
WORKLOAD = Path(__file__).resolve().parent / "instructions_workload.py"
STAGES = ("start", "import", "play", "replay")


def _instructions(stage: str, args: argparse.Namespace, tree: Path) -> tuple[int, int]:
    """Return the instructions callgrind counts for one stage, and its moves."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        workload = [sys.executable, str(WORKLOAD), stage, str(args.deals), str(args.replays)]
        env = {
            **os.environ,
            "PYTHONPATH": str(tree),  # the script's own folder holds no seep_core
            "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        done = subprocess.run(
            [*valgrind, *workload], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        if totals is None:
            raise RuntimeError(f"no totals in the callgrind output of {stage}:\n{done.stderr}")
        return int(totals.group(1)), int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--replays", type=int, default=4)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--bytecode", action="store_true", help="import compiled seep_core")
    parser.add_argument("--out", type=Path, default=RESULTS / "engine-instructions.json")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed: apt-get install valgrind")

    with tempfile.TemporaryDirectory() as copy:
        # a copy of the tree's seep_core alone: no stale bytecode, nothing else importable
        shutil.copytree(args.tree / "seep_core", Path(copy) / "seep_core")
        if args.bytecode:
            compileall.compile_dir(Path(copy) / "seep_core", quiet=1)
        counts = {}
        moves = 0
        for stage in STAGES:
            counts[stage], moves = _instructions(stage, args, Path(copy))
            print(f"{stage}: {counts[stage]:,} instructions", file=sys.stderr)
    result: dict[str, Any] = {
        "benchmark": "engine-instructions",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "tree": str(args.tree.resolve()),
        "bytecode": args.bytecode,
        "deals": args.deals,
        "seed": SEED,
        "moves": moves,
        "replays": args.replays,
        "stages": counts,
        "import_instructions": counts["import"] - counts["start"],
        "random_play_instructions_per_move": round((counts["play"] - counts["import"]) / moves),
        "replay_instructions_per_move": round(
            (counts["replay"] - counts["play"]) / (moves * args.replays)
        ),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
