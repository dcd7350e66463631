"""Generate the typed Python client (clients/python/) from the API's OpenAPI schema.

`make client` runs it: the schema as `manage.py spectacular` writes it, then
openapi-python-client (pinned in constraints.txt, from PyPI; it downloads nothing) with
clients/python-config.yaml. tests/client/ generates it again into a scratch directory and fails
when the committed one differs, so the client always matches the schema.

    python clients/generate.py                       # the schema now -> clients/python/
    python clients/generate.py --schema S --out DIR  # a schema file -> DIR
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "clients" / "python-config.yaml"
CLIENT = ROOT / "clients" / "python"
BIN = Path(sys.executable).parent


def write_schema(path: Path) -> None:
    """Write the schema, as JSON, as `manage.py spectacular` makes it (DEBUG=1: no env needed)."""
    subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--format", "openapi-json", "--file", path],
        cwd=ROOT,
        env={**os.environ, "DEBUG": os.environ.get("DEBUG", "1")},
        check=True,
    )


def generate(schema: Path, out: Path) -> None:
    """Generate the client from ``schema`` into ``out`` (replaced), formatted by ruff."""
    subprocess.run(
        [BIN / "openapi-python-client", "generate", "--path", schema, "--config", CONFIG,
         "--meta", "setup", "--output-path", out, "--overwrite", "--fail-on-warning"],
        # the post hooks (ruff) are looked up on PATH: this environment's first
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
        check=True,
        capture_output=True,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", type=Path, help="a schema file (default: the schema now)")
    parser.add_argument("--out", type=Path, default=CLIENT)
    args = parser.parse_args()
    if args.schema is not None:
        generate(args.schema, args.out)
        return
    with tempfile.TemporaryDirectory() as scratch:
        schema = Path(scratch) / "schema.json"
        write_schema(schema)
        generate(schema, args.out)


if __name__ == "__main__":
    main()
