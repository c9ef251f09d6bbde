"""The built-in deck of 18 cards, loaded from the packaged data file."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from forage.engine.cards import Card, Deck


class CardFile(BaseModel):
    """The card data file: a format tag and the cards, each recipe without its number."""

    model_config = ConfigDict(extra="forbid")

    format: str
    cards: list[dict[str, Any]]


def data_text(name: str) -> str:
    """The text of a data file (``cards.json``...) from the installed package or, in a
    checkout, from data/."""
    packaged = resources.files("forage").joinpath(f"_data/{name}")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[2] / "data" / name
    return checkout.read_text(encoding="utf-8")


def parse_card_file(text: str) -> Deck:
    """Validate the card data file's text and build the deck it describes."""
    data = CardFile.model_validate(json.loads(text))
    cards = []
    for raw in data.cards:
        recipe = raw.get("recipe")
        if isinstance(recipe, dict):
            raw = {**raw, "recipe": {**recipe, "number": raw.get("number")}}
        cards.append(Card.model_validate(raw))
    return Deck.of(cards)


@cache
def standard_deck() -> Deck:
    """The 18 cards of the game, with their recipes."""
    return parse_card_file(data_text("cards.json"))
