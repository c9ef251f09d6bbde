"""The result object of ``forage replay --json`` (CONTRACT.md), for a game and for input
that could not be read."""

from __future__ import annotations

from typing import Any

from forage.engine import (
    Game,
    Outcome,
)


def result_object(game: Game, moves_applied: int, refusal: Outcome | None = None) -> dict[str, Any]:
    """The result object of ``forage replay --json`` for a game (CONTRACT.md)."""
    result = game.result()
    error: dict[str, Any] | None = None
    if refusal is not None and refusal.reason is not None:
        error = {
            "move": moves_applied,
            "reason": refusal.reason.value,
            "message": refusal.message,
        }
    woodland = []
    for pos in game.woodland.positions():
        sq = game.woodland[pos]
        woodland.append(
            {
                "x": pos[0],
                "y": pos[1],
                "area": sq.area.value,
                "die": None
                if sq.die is None
                else {"colour": sq.die.colour.value, "value": sq.die.value, "mouse": sq.die.mouse},
                "edwood": sq.edwood,
                "card": sq.card,
            }
        )
    supply = game.supply
    return {
        "ok": error is None,
        "error": error,
        "moves_applied": moves_applied,
        "finished": result.finished,
        "stuck": result.stuck,
        "hand": list(game.hand),
        "draw_pile": game.draw_pile,
        "score": result.score.model_dump(),
        "rating": result.rating,
        "recipes": [r.model_dump() for r in result.recipes],
        "target": result.target,
        "won": result.won,
        "woodland": woodland,
        "supply": {"B": supply.B, "C": supply.C, "M": supply.M},
        "edwood_used": not supply.edwood,
        "deal": game.deal.code,
    }


def bad_input_object(message: str) -> dict[str, Any]:
    """The result object for a record that could not be read (exit 2)."""
    keys = (
        "moves_applied",
        "finished",
        "stuck",
        "hand",
        "draw_pile",
        "score",
        "rating",
        "recipes",
        "target",
        "won",
        "woodland",
        "supply",
        "edwood_used",
        "deal",
    )
    return {
        "ok": False,
        "error": {"move": None, "reason": "bad-input", "message": message},
        **dict.fromkeys(keys),
    }
