"""The policies: ``greedy``, ``expert`` and the rollout policy (whole games: :mod:`.games`).

Neither looks at the draw pile. ``greedy`` takes the placement with the best immediate base
score. ``expert`` looks three placements ahead: the next one is averaged over every card that
could still be drawn (the cards of the deck not seen yet), the one after that is tried with
the card then kept; positions are compared by score plus a *worth* of the woodland left for
later cards (learnt from the expert's own games, :mod:`forage.ai.worth`); its best few are
then played to the end on sampled draw orders of the unseen cards, each order by a beam
search that knows it (the one par uses, :func:`~forage.ai.search.beam_line`), and compared
by their mean. Both
are deterministic: ties go to the first placement in the engine's order, and the draw orders
are seeded from the position. The *rollout policy* (that worth one placement ahead, not
knowing the order) is the review's imagined player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import cache
from typing import Final, NamedTuple

from forage.ai.search import ExactSearch, beam_line, board_worth, draw_orders, orders_seed
from forage.ai.sim import Move, Simulator, State, Worth
from forage.ai.worth import Outlook, WorthModel, learnt_model, outlook
from forage.engine.board import PackedWoodland
from forage.engine.rules import first_colours
from forage.engine.scoring import recipe_bonus

POLICIES: Final = ("greedy", "expert")

EXPERT_WIDTH: Final = 10
"""How many of the best-looking placements the expert looks further into."""


def unseen_cards(
    game_numbers: Sequence[int], seen: Sequence[int], recipes: Sequence[int]
) -> list[int]:
    """The cards that could still be drawn: the deck less the cards seen and the recipes."""
    gone = set(seen) | set(recipes)
    return [n for n in game_numbers if n not in gone]


@dataclass(frozen=True)
class Expert:
    """The expert policy's settings: how far and how wide it looks, and its worth model."""

    width: int = EXPERT_WIDTH
    """How many of the best-looking placements get the look further ahead."""
    depth: int = 3
    """2: look at the next placement; 3: also at the one after with the card kept."""
    replies: int = 2
    """At depth 3, how many of the best next placements get the third look."""
    end_replies: int = 2
    """The same when the third look is at the last placement of the game."""
    model: WorthModel = field(default_factory=learnt_model)
    """The worth of the woodland left at the end of the look (``ai/worth.py``)."""
    candidates: int = 3
    """How many of the look's best placements are played out to the end (1: none)."""
    samples: int = 16
    """Draw orders of the unseen cards each candidate is played out over."""
    margin: float = 0.75
    """Points of mean final score a candidate must gain over the look's choice to be played."""
    beam: int = 3
    """Width of the beam search that plays a candidate out on each sampled draw order,
    knowing that order (:func:`beam_line`); 0: the rollout policy plays it out instead."""
    narrow: bool = True
    """Whether only the look's choice and the best other candidate, if that one is ahead
    after half the draw orders, play the other half (False: every candidate plays all)."""

    def worth(self, remaining: int, coming: Outlook) -> Worth:
        """The worth table with this many placements still to come, when a card to come has
        ``coming`` food areas of each colour on average."""
        return self.model.table(remaining, coming)


@cache
def expert_for(recipes: bool) -> Expert:
    """The expert's settings for a game: the defaults in a standard game; in a recipe
    challenge, whose recipes reward lines planned further, more candidates played out on
    more draw orders by wider beams (docs/performance.md: fewer cost 0.3-1.2 points there)."""
    if recipes:
        return Expert(candidates=4, samples=32, beam=3)
    return Expert()


class ExpertChoice(NamedTuple):
    """The expert's placement and the score it expects after the next placement too."""

    move: Move
    expected: float


def greedy_move(sim: Simulator, state: State) -> Move | None:
    """The placement with the best immediate base score (first one on ties)."""
    return sim.greedy(state)


def expert_move(
    sim: Simulator,
    state: State,
    pool: Sequence[int],
    draw_pile: int,
    settings: Expert | None = None,
    executor: Executor | None = None,
    early: Callable[[ExpertChoice], None] | None = None,
) -> ExpertChoice | None:
    """The expert's placement and the score it expects after the next placement too.

    The expert never sees the draw pile: ``pool`` holds the cards that could still be
    drawn, ``draw_pile`` how many will be. Its look ahead (:func:`expert_ranking`) ranks the
    placements; then the best few are each played to the end over the same sampled draw
    orders (:func:`play_on`: a beam search knowing each order), and the look's choice gives
    way only to a candidate whose mean final score is more than ``margin`` higher. To save
    time (``narrow``), only the candidate ahead of the look's choice after half the orders,
    if one is, plays the other half against it. With an ``executor`` (two worker processes), each
    half of a set of orders is played in one of them; the choice is the same. ``early`` is
    told the look's choice before the play-outs begin (the answer so far).
    """
    settings = settings or expert_for(bool(sim.recipes))
    ranking = expert_ranking(sim, state, pool, draw_pile, settings)
    if not ranking:
        return None
    if early is not None:
        early(ranking[0])
    candidates = ranking[: settings.candidates]
    if len(candidates) < 2 or settings.samples <= 0 or len(state.hand) - 1 + draw_pile == 0:
        return ranking[0]
    orders, _ = draw_orders(pool, draw_pile, settings.samples, orders_seed(state, pool))
    coming = outlook(sim.deck, pool)
    totals = [0] * len(candidates)

    def play_orders(which: Sequence[int], some: Sequence[tuple[int, ...]]) -> None:
        """Add the play-outs of these candidates on these draw orders to their totals."""
        moves = [candidates[i].move for i in which]
        if executor is None or len(some) < 2:
            parts = [play_out_totals(sim, state, moves, some, settings, coming)]
        else:  # each half of the orders in a worker: the sums are the same
            middle = len(some) // 2
            futures = [
                executor.submit(play_out_totals, sim, state, moves, chunk, settings, coming)
                for chunk in (some[:middle], some[middle:])
            ]
            parts = [future.result() for future in futures]
        for i, total in zip(which, map(sum, zip(*parts, strict=True)), strict=True):
            totals[i] += total

    # Every candidate on the first half of the orders (all of them unless ``narrow``); then
    # only the look's choice and the best of the others, if that one is ahead, on the rest.
    half = (len(orders) + 1) // 2 if settings.narrow else len(orders)
    play_orders(range(len(candidates)), orders[:half])
    challenger = max(range(1, len(candidates)), key=lambda i: (totals[i], -i))
    if totals[challenger] <= totals[0]:
        return candidates[0]
    play_orders((0, challenger), orders[half:])
    if totals[challenger] > totals[0] + settings.margin * len(orders):
        return candidates[challenger]
    return candidates[0]


def expert_ranking(
    sim: Simulator,
    state: State,
    pool: Sequence[int],
    draw_pile: int,
    settings: Expert | None = None,
) -> list[ExpertChoice]:
    """The placements the expert looks into, its choice first and the rest in its order.

    The same valuation as :func:`expert_move` (ties to the earlier placement in the
    engine's order); on the last placement every legal one is ranked; with two placements
    left and nothing to draw in a standard game, the ranking is the exact search's proven
    best alone (:class:`~forage.ai.search.ExactSearch`); otherwise the ``width``
    best-looking ones.
    """
    settings = settings or Expert()
    recipes = sim.recipes
    remaining = len(state.hand) - 1 + draw_pile  # placements left after this one
    if remaining == 1 and draw_pile == 0 and not recipes:
        # Nothing left to chance: the exact search's proven best, which the look can miss
        # (as quick as the look in a standard game; a recipe challenge's takes far longer).
        proven = ExactSearch(sim, state, ()).best(state)
        return [] if proven.move is None else [ExpertChoice(proven.move, float(proven.value))]
    moves = sim.all_moves(state, variants=True)
    if not moves:
        return []

    def bonus(move: Move, board: PackedWoodland) -> int:
        """The recipes' bonus on the woodland after a move (0 in a standard game)."""
        if not recipes:
            return 0
        return recipe_bonus(board, recipes, first_colours(state.first, move.result.gathered))

    if remaining == 0:
        scored = []
        for i, move in enumerate(moves):
            board = sim.board_after(state.board, move) if recipes else state.board
            scored.append((state.base + move.gain + bonus(move, board), i))
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [ExpertChoice(moves[index], float(final)) for final, index in scored]

    # Rank by the immediate result and the worth left, then look further into the best few.
    coming = outlook(sim.deck, pool)
    worth1 = settings.worth(remaining, coming)
    worth2 = settings.worth(remaining - 1, coming)
    ranked: list[tuple[float, int, PackedWoodland, int]] = []
    for i, move in enumerate(moves):
        board = sim.board_after(state.board, move)
        extra = bonus(move, board)
        ranked.append((move.gain + extra + board_worth(board, worth1), i, board, extra))
    ranked.sort(key=lambda t: (-t[0], t[1]))
    worth3 = settings.worth(remaining - 2, coming)
    deep = settings.depth >= 3 and remaining >= 2
    # Two placements from the end the third look is the last one: make it (nearly) exact.
    reply_width = settings.replies if remaining > 2 else settings.end_replies
    found: list[tuple[float, int, float]] = []
    # The next placement: the best few of the card kept and of a card drawn (first on ties).
    replies_wanted = reply_width if deep else 1
    for _, i, board, extra in ranked[: settings.width]:
        move = moves[i]
        hand = list(state.hand)
        hand.remove(move.card)
        other = hand[0] if hand else None
        counts, edwood = move.result.counts, move.result.edwood
        kept = (
            sim.best_scored(board, counts, edwood, other, worth2, replies_wanted)
            if other is not None
            else []
        )
        value = float(move.gain + extra)
        expected = float(state.base + move.gain + extra)
        draws: Sequence[int | None] = pool if draw_pile > 0 and pool else [None]
        total_value = total_gain = 0.0
        for card in draws:
            top = (
                sim.best_scored(board, counts, edwood, card, worth2, replies_wanted, kept)
                if card is not None
                else kept
            )
            if not top:
                total_value += board_worth(board, worth2)
                continue
            if not deep:
                pick = top[0]
                total_value += pick.value + board_worth(board, worth2)
                total_gain += pick.move.gain
                continue
            best_reply: tuple[float, int] | None = None
            for _, second in top:
                after = sim.board_after(board, second)
                left = card if second.card == other else other
                reply = second.gain + board_worth(after, worth3)
                if left is not None:
                    third = sim.best_scored(
                        after, second.result.counts, second.result.edwood, left, worth3, 1
                    )
                    if third:
                        reply += third[0].value
                if best_reply is None or reply > best_reply[0]:
                    best_reply = (reply, second.gain)
            assert best_reply is not None
            total_value += best_reply[0]
            total_gain += best_reply[1]
        value += total_value / len(draws)
        expected += total_gain / len(draws)
        found.append((value, i, expected))
    # A stable sort keeps the placements looked into in their order on equal values.
    found.sort(key=lambda t: -t[0])
    return [ExpertChoice(moves[i], expected) for _, i, expected in found]


def rollout_move(
    sim: Simulator, state: State, remaining: int, expert: Expert, coming: Outlook
) -> Move | None:
    """The rollout policy's placement: best gain plus worth left; best final score at the last.

    ``coming``: the food areas a card to come was expected to have when the rollout began.
    """
    if remaining == 0 and sim.recipes:
        moves = sim.all_moves(state, variants=True)
        finals = [sim.final(sim.apply(state, m, ())) for m in moves]
        return moves[finals.index(max(finals))] if moves else None
    found = sim.best_over_hand(state, expert.worth(remaining, coming), 1, ordered=True)
    return found[0].move if found else None


def play_out(
    sim: Simulator, state: State, cards: Sequence[int], expert: Expert, coming: Outlook
) -> int:
    """The final score when the rollout policy plays a state to the end, drawing ``cards``."""
    while state.hand:
        remaining = len(state.hand) - 1 + len(cards) - state.next_draw
        move = rollout_move(sim, state, remaining, expert, coming)
        if move is None:
            break
        state = sim.apply(state, move, cards)
    return sim.final(state)


def play_out_totals(
    sim: Simulator,
    state: State,
    moves: Sequence[Move],
    orders: Sequence[tuple[int, ...]],
    expert: Expert,
    coming: Outlook,
) -> list[int]:
    """Each move's final scores played on from ``state`` (:func:`play_on`), summed over the
    draw orders (the cards from ``state.next_draw`` on)."""
    totals = [0] * len(moves)
    for order in orders:
        cards = (*((0,) * state.next_draw), *order)  # only the cards from next_draw are read
        for i, move in enumerate(moves):
            totals[i] += play_on(sim, sim.apply(state, move, cards), cards, expert, coming)
    return totals


def play_on(
    sim: Simulator, state: State, cards: Sequence[int], expert: Expert, coming: Outlook
) -> int:
    """The final score of one candidate's play-out on the draw order ``cards``.

    With ``expert.beam`` the best line a beam search of that width finds, knowing the order
    (:func:`beam_line`); with 0, where the rollout policy ends (:func:`play_out`).
    """
    if expert.beam > 0:
        # Keeping each state's best ``beam`` placements finds the same lines as keeping twice
        # as many (checked on 512 play-outs), a fifth faster.
        line = beam_line(sim, state, cards, expert.beam, expert.worth, keep=expert.beam)
        return sim.final(line.state)
    return play_out(sim, state, cards, expert, coming)
