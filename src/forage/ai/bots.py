"""Bots that play whole games: ``greedy`` and ``expert``.

Neither looks at the draw pile. ``greedy`` takes the placement with the best immediate base
score. ``expert`` looks three placements ahead: the next one is averaged over every card that
could still be drawn (the cards of the deck not seen yet), the one after that is tried with
the card then kept; positions are compared by score plus a *worth* of the woodland left for
later cards (learnt from the expert's own games, :mod:`forage.ai.worth`); its best few are
then played to the end on sampled draw orders of the unseen cards, each order by a beam
search that knows it (the one par uses, :func:`beam_line`), and compared by their mean. Both
are deterministic: ties go to the first placement in the engine's order, and the draw orders
are seeded from the position. The *rollout policy* (that worth one placement ahead, not
knowing the order) is the review's imagined player.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from itertools import permutations
from typing import Final, NamedTuple

from forage.ai.sim import Move, Scored, Simulator, State, Worth, state_of
from forage.ai.worth import Outlook, WorthModel, learnt_model, outlook
from forage.carddata import standard_deck
from forage.engine import Deal, Deck, Game
from forage.engine.board import Board
from forage.engine.deal import SplitMix64
from forage.engine.rules import first_colours
from forage.engine.scoring import recipe_bonus

POLICIES: Final = ("greedy", "expert")

EXPERT_WIDTH: Final = 10
"""How many of the best-looking placements the expert looks further into."""
BEAM_KEEP: Final = 40
"""A beam takes at most this many placements from each of its states (its best by value)."""


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
    candidates: int = 4
    """How many of the look's best placements are played out to the end (1: none)."""
    samples: int = 32
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


class Choice(NamedTuple):
    """The expert's placement and the score it expects after the next placement too."""

    move: Move
    expected: float


class Line(NamedTuple):
    """A game played out: the final state and the moves that led there."""

    state: State
    moves: list[Move]


def board_worth(board: Board, worth: Worth) -> float:
    """The total worth of a woodland's squares."""
    values = worth.values
    return sum(values[code] for code in board.values())


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
    early: Callable[[Choice], None] | None = None,
) -> Choice | None:
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
    settings = settings or Expert()
    ranking = expert_ranking(sim, state, pool, draw_pile, settings)
    if not ranking:
        return None
    if early is not None:
        early(ranking[0])
    candidates = ranking[: settings.candidates]
    if len(candidates) < 2 or settings.samples <= 0 or len(state.hand) - 1 + draw_pile == 0:
        return ranking[0]
    orders, _ = draw_orders(pool, draw_pile, settings.samples, _orders_seed(state, pool))
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


def _orders_seed(state: State, pool: Sequence[int]) -> int:
    """The seed of a position's sampled draw orders: from its cards and woodland alone."""
    value = state.next_draw * 1_000_003 + state.base
    for number in sorted(pool):
        value = (value * 131 + number) % (1 << 61)
    for spot, code in sorted(state.board.items()):
        value = (value * 131 + spot * 512 + code) % (1 << 61)
    return value


def expert_ranking(
    sim: Simulator,
    state: State,
    pool: Sequence[int],
    draw_pile: int,
    settings: Expert | None = None,
) -> list[Choice]:
    """The placements the expert looks into, its choice first and the rest in its order.

    The same valuation as :func:`expert_move` (ties to the earlier placement in the
    engine's order); on the last placement every legal one is ranked, otherwise the
    ``width`` best-looking ones.
    """
    settings = settings or Expert()
    moves = sim.all_moves(state, variants=True)
    if not moves:
        return []
    recipes = sim.recipes
    remaining = len(state.hand) - 1 + draw_pile  # placements left after this one

    def bonus(move: Move, board: Board) -> int:
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
        return [Choice(moves[index], float(final)) for final, index in scored]

    # Rank by the immediate result and the worth left, then look further into the best few.
    coming = outlook(sim.deck, pool)
    worth1 = settings.worth(remaining, coming)
    worth2 = settings.worth(remaining - 1, coming)
    ranked: list[tuple[float, int, Board, int]] = []
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
    return [Choice(moves[i], expected) for _, i, expected in found]


# -- rollouts: the expert's one-look policy played to the end ---------------------------------


def draw_orders(
    pool: Sequence[int], draws: int, samples: int, seed: int
) -> tuple[list[tuple[int, ...]], bool]:
    """The draw orders to average over, and whether they are all there are.

    Every ordered choice of ``draws`` cards from ``pool`` when there are at most
    ``samples`` of them; otherwise ``samples`` drawn with SplitMix64 from ``seed``.
    """
    draws = min(draws, len(pool))
    if math.perm(len(pool), draws) <= samples:
        return list(permutations(sorted(pool), draws)), True
    rng = SplitMix64(seed)
    orders: list[tuple[int, ...]] = []
    for _ in range(samples):
        cards = sorted(pool)
        for k in range(draws):
            j = k + rng.below(len(cards) - k)
            cards[k], cards[j] = cards[j], cards[k]
        orders.append(tuple(cards[:draws]))
    return orders, False


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
    worth = expert.worth(remaining, coming)
    found: list[Scored] = []
    for card in dict.fromkeys(state.hand):
        found = sim.best_scored(
            state.board, state.counts, state.edwood, card, worth, 1, found, ordered=True
        )
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
        line = beam_line(sim, state, cards, expert.beam, expert, keep=expert.beam)
        return sim.final(line.state)
    return play_out(sim, state, cards, expert, coming)


def beam_line(
    sim: Simulator,
    start: State,
    cards: Sequence[int],
    width: int,
    expert: Expert,
    keep: int | None = None,
) -> Line:
    """The best line a beam search of ``width`` finds from ``start``, drawing ``cards``.

    The search knows the draw order. It keeps the ``width`` most promising states at each
    turn (twice that in a recipe challenge, then the best by value with the recipes' bonus),
    ranked by their score plus the expert's worth of the woodland left, which looks at the
    cards to come. A state gives at most its ``keep`` best placements (by default twice the
    width, at most ``BEAM_KEEP``). A state with no legal placement ends its game there (R13).
    """
    recipes = bool(sim.recipes)
    beam: list[tuple[State, tuple[Move, ...]]] = [(start, ())]
    best: tuple[int, Line] | None = None if start.hand else (sim.final(start), Line(start, []))
    keep = min(BEAM_KEEP, 2 * width) if keep is None else keep
    while beam:
        first = beam[0][0]
        left = len(first.hand) - 1 + len(cards) - first.next_draw
        # The draw order is known: the worth looks at the cards to come (less one hand card).
        worth = expert.worth(left, outlook(sim.deck, cards[first.next_draw :]))
        candidates: list[tuple[float, int, Move]] = []
        for index, (state, line) in enumerate(beam):
            base = state.base + board_worth(state.board, worth)
            # Only a state's best few can make the beam: the rest are not resolved.
            top: list[Scored] = []
            for card in dict.fromkeys(state.hand):
                top = sim.best_scored(
                    state.board, state.counts, state.edwood, card, worth, keep, top
                )
            candidates.extend((base + value, index, move) for value, move in top)
            if not top and (best is None or sim.final(state) > best[0]):
                best = (sim.final(state), Line(state, list(line)))
        if not candidates:
            break
        candidates.sort(key=lambda t: -t[0])
        chosen: list[tuple[float, State, tuple[Move, ...]]] = []
        seen: set[object] = set()
        for value, index, move in candidates:
            if len(chosen) >= (2 * width if recipes else width):
                break
            state, line = beam[index]
            child = sim.apply(state, move, cards)
            key = (frozenset(child.board.items()), child.hand)
            if key in seen:
                continue
            seen.add(key)
            path = (*line, move)
            if not child.hand:
                final = sim.final(child)
                if best is None or final > best[0]:
                    best = (final, Line(child, list(path)))
                continue
            if recipes:
                value += sim.final(child) - child.base
            chosen.append((value, child, path))
        if recipes:
            chosen.sort(key=lambda t: -t[0])
        beam = [(state, path) for _, state, path in chosen[:width]]
    return best[1] if best is not None else Line(start, [])


def play(
    sim: Simulator,
    deal: Deal,
    policy: str,
    start: State,
    numbers: Sequence[int],
    settings: Expert | None = None,
) -> Line:
    """Play a game from ``start`` to the end with a policy; the final state and the moves."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (choose from {', '.join(POLICIES)})")
    cards = deal.cards
    recipes = deal.recipes or ()
    state = start
    played: list[Move] = []
    while state.hand:
        if policy == "greedy":
            move = greedy_move(sim, state)
        else:
            pool = unseen_cards(numbers, cards[: state.next_draw], recipes)
            choice = expert_move(sim, state, pool, len(cards) - state.next_draw, settings)
            move = choice.move if choice is not None else None
        if move is None:
            break
        played.append(move)
        state = sim.apply(state, move, cards)
    return Line(state, played)


def bot_game(
    seed: int,
    policy: str,
    recipes: bool = False,
    deck: Deck | None = None,
    sim: Simulator | None = None,
    settings: Expert | None = None,
) -> int:
    """The final score a policy reaches on the deal of a seed (``settings``: the expert's)."""
    run = _bot_run(seed, policy, recipes, deck, sim, settings)
    return run.sim.final(run.line.state)


def bot_played(
    seed: int, policy: str, recipes: bool = False, settings: Expert | None = None
) -> Game:
    """The whole game a policy plays on the deal of a seed, as the engine's game (built-in
    deck), so that it can be written as a record and reviewed."""
    run = _bot_run(seed, policy, recipes, None, None, settings)
    game = run.game
    for move in run.line.moves:
        outcome = game.push(run.sim.placement(move))
        if not outcome.legal:  # pragma: no cover - the simulator is the engine's own rules
            raise RuntimeError(f"internal error: the {policy} bot's move {move} is refused")
    return game


class BotRun(NamedTuple):
    """A bot's game on a seed's deal: the fresh game, its simulator, the line played."""

    game: Game
    sim: Simulator
    line: Line


def _bot_run(
    seed: int,
    policy: str,
    recipes: bool,
    deck: Deck | None,
    sim: Simulator | None,
    settings: Expert | None,
) -> BotRun:
    """A seed's fresh game, a simulator for it, and the line the policy plays on it."""
    deck = deck or standard_deck()
    deal = Deal.from_seed(seed, recipes=recipes)
    game = Game(deal, deck)
    if sim is None or tuple(sim.recipes) != tuple(game.recipes):
        sim = Simulator(deck, game.recipes)
    return BotRun(game, sim, play(sim, deal, policy, state_of(game), deck.numbers, settings))
