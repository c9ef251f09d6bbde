"""The least-squares fits that learn the expert's worth model from its games' rows.

``benchmarks/learn_worth.py`` uses them to write ``data/expert-worth.json``; the game itself
only reads that file (``forage.ai.worth.learnt_model``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from forage.ai.worth import KIND_NAMES, MOST_LEFT, WorthModel

RIDGE: Final = 3.0
"""Ridge penalty of the fit: keeps the weights of rarely seen kinds near 0."""
Row = tuple[int, list[float], float]
"""A fitting example: placements left, the woodland's features, the points gained after."""


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """The solution of a square linear system (Gaussian elimination, partial pivoting)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _fit_left(rows: Sequence[Row], left: int, ridge: float) -> tuple[list[float], float]:
    """The ridge fit of the rows with ``left`` placements left: the weights, rounded as the
    model keeps them, and the intercept that centres the rows' residuals on them."""
    size = 2 * len(KIND_NAMES) + 1
    xtx = [[0.0] * size for _ in range(size)]
    xty = [0.0] * size
    for r, x, y in rows:
        if r != left:
            continue
        full = [*x, 1.0]
        for i in range(size):
            if full[i]:
                xty[i] += full[i] * y
                row = xtx[i]
                for j in range(size):
                    row[j] += full[i] * full[j]
    for i in range(size - 1):
        xtx[i][i] += ridge
    xtx[-1][-1] += 1e-9
    weights = [round(v, 4) for v in solve(xtx, xty)[: size - 1]]
    residuals = [y - _dot(weights, x) for r, x, y in rows if r == left]
    return weights, sum(residuals) / len(residuals) if residuals else 0.0


def _dot(weights: Sequence[float], x: Sequence[float]) -> float:
    """The weighted sum of a row's features."""
    return sum(w * v for w, v in zip(weights, x, strict=True))


def _model(fits: Sequence[Sequence[float]]) -> WorthModel:
    """The model of the weights fitted for 1, 2, ... placements left."""
    count = len(KIND_NAMES)
    return WorthModel(
        tuple(tuple(w[:count]) for w in fits), tuple(tuple(w[count : 2 * count]) for w in fits)
    )


def fit(rows: Sequence[Row], ridge: float = RIDGE) -> WorthModel:
    """The ridge least-squares model of the rows, one fit per number of placements left
    (with an intercept, which no choice depends on and the model leaves out)."""
    return _model([_fit_left(rows, left, ridge)[0] for left in range(1, MOST_LEFT + 1)])


def fit_td(games: Sequence[Sequence[Row]], ridge: float = RIDGE) -> WorthModel:
    """The model of fitted value iteration over games' rows (each game's in play order).

    With one placement left a row's target is the points its game went on to gain; with
    ``r`` left, the points of the game's next placement plus the value, under the model
    already fitted for ``r - 1`` (intercept included), of the woodland that placement left.
    A row whose game ended with no next row keeps the points its game went on to gain.
    Targets that look one placement ahead vary far less than whole games, whose remaining
    draws decide most of what is gained.
    """
    fits: list[tuple[list[float], float]] = []
    for left in range(1, MOST_LEFT + 1):
        rows: list[Row] = []
        for game in games:
            for i, (r, x, y) in enumerate(game):
                if r != left:
                    continue
                after = game[i + 1] if i + 1 < len(game) else None
                if left == 1 or after is None or after[0] != left - 1:
                    rows.append((r, x, y))
                    continue
                weights, intercept = fits[-1]
                value = _dot(weights, after[1]) + intercept
                rows.append((r, x, y - after[2] + value))
        fits.append(_fit_left(rows, left, ridge))
    return _model([weights for weights, _ in fits])
