"""Maximum-weight perfect matching: rustworkx, or networkx on the same weights.

Both run Edmonds' blossom algorithm with integer weights (no rounding: networkx uses only
integer arithmetic when every weight is an int; rustworkx takes 128-bit ints). rustworkx is
a dependency; networkx is optional (installed with the dev extra) and is used when asked
for by name, or by ``"auto"`` when rustworkx cannot be imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from .common import FormatError

Solver = Literal["auto", "rustworkx", "networkx"]

#: rustworkx keeps weights in 128-bit signed ints; stay well inside
MAX_WEIGHT = 2**120


def solver_name(solver: Solver) -> Literal["rustworkx", "networkx"]:
    """Return the solver ``"auto"`` stands for here (rustworkx when it imports)."""
    if solver == "auto":
        try:
            import rustworkx  # noqa: F401
        except ImportError:
            return "networkx"
        return "rustworkx"
    if solver not in ("rustworkx", "networkx"):
        raise FormatError(f"unknown solver {solver!r}", code="bad_solver")
    return solver


def max_weight_perfect_matching(
    nodes: int, edges: Sequence[tuple[int, int, int]], *, solver: Solver = "auto"
) -> list[tuple[int, int]]:
    """Return the matched pairs (low, high), sorted, of a maximum-weight maximum matching.

    ``edges`` are ``(u, v, weight)`` with nodes ``0..nodes-1``; the matching has the most
    edges possible and, among those, the greatest total weight.
    """
    name = solver_name(solver)
    if any(abs(w) >= MAX_WEIGHT for _, _, w in edges):
        raise FormatError("pairing weights out of range", code="weights_too_large")
    if name == "rustworkx":
        import rustworkx as rx

        graph: rx.PyGraph[int, int] = rx.PyGraph(multigraph=False, node_count_hint=nodes)
        graph.add_nodes_from(range(nodes))
        graph.add_edges_from(edges)
        found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
    else:
        try:
            import networkx as nx  # type: ignore[import-untyped]  # untyped; used via Any
        except ImportError as exc:  # pragma: no cover - depends on the installation
            raise FormatError(
                "networkx is not installed (pip install networkx)", code="no_solver"
            ) from exc
        g: Any = nx.Graph()
        g.add_nodes_from(range(nodes))
        g.add_weighted_edges_from(edges)
        found = nx.max_weight_matching(g, maxcardinality=True)
    return sorted((u, v) if u < v else (v, u) for u, v in found)


def _identity(weight: int) -> int:
    return weight
