"""Post-game review: what each move of a game was expected to score, against the best.

For each move the review asks what the player could know then (the woodland, the supply,
the hand and which cards were still unseen, not the draw pile's order) and estimates the
expected final score of the move played and of the expert's best few candidates: each is
played, then the game is played on by the *rollout policy* (the expert's one-look policy:
the best gain plus the worth of the woodland left, exact on the last placement) over the
possible draw orders of the unseen cards. Where few orders remain every one is played;
elsewhere a fixed number is sampled with fixed seeds, the same orders for every candidate
of a move. With three placements left in a standard game (or with ``ReviewSettings.exact``) the
expectations are exact instead (:func:`expected_move`), and with two the values proven
(:func:`proven_move`). ``loss`` is the best candidate's expectation less the played
move's, and a label follows from :data:`THRESHOLDS`. Par's line (the draw order known) is
added for comparison.

Everything is a pure function of the game and the settings: the same record gives the same
review on any machine and with any number of worker processes. docs/review.md explains the
method and its figures.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, as_completed
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, NamedTuple

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt

from forage.ai.bots import Expert, expert_ranking, play_out, unseen_cards
from forage.ai.memory import Memory, analysis_key, kept
from forage.ai.par import FULL, Effort, ParResult, keep_par, kept_par, par_task
from forage.ai.search import ExactSearch, draw_orders
from forage.ai.sim import Move, simulator_for, state_of
from forage.ai.workers import PoolRunner, Runner, Task, pooled
from forage.ai.worth import outlook
from forage.engine import ROTATIONS, Game, Placement
from forage.engine.deal import MOST_CARDS, SplitMix64
from forage.engine.scoring import SCORE_LIMIT
from forage.record import placement_json, record_from_game

LABELS: Final = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The labels of a move, from no loss to the worst."""
THRESHOLDS: Final = (0.5, 2.0, 4.0, 8.0)
"""A move losing less than the first figure (points of expected final score) is ``best``,
less than the second ``good``, the third ``inaccuracy``, the fourth ``mistake``; the rest
``blunder``."""
SAMPLES: Final = 120
"""Draw orders played out per move where there are more possible orders than this."""
CANDIDATES: Final = 4
"""How many of the expert's best placements are weighed beside the move played."""
WORKERS: Final = 2
"""Worker processes by default (the results never depend on it)."""
RACE_ROUND: Final = 30
"""Draw orders a round of a move's race plays for each candidate still in it."""
RACE_Z: Final = 3.0
"""A candidate leaves the race when the leader is ahead of it by more than this many
standard errors of their paired difference (the same draw orders)."""

EXACT_BUDGET: Final = 60
"""The two-placement searches the review spends looking for the proven best move with three
placements left, beyond the candidates' exact values (``ReviewSettings.exact``: no limit)."""

ProgressFn = Callable[[int, int], None]
"""Told (tasks done, tasks in all) as the review goes."""


def label_of(loss: float) -> str:
    """The label of a move that lost this many points of expected final score."""
    for limit, label in zip(THRESHOLDS, LABELS, strict=False):
        if loss < limit:
            return label
    return LABELS[-1]


@dataclass(frozen=True)
class ReviewSettings:
    """How hard the review looks; fixed amounts of work, never seconds."""

    samples: int = SAMPLES
    """Draw orders per move where there are more possible orders than this."""
    candidates: int = CANDIDATES
    """The expert's best placements weighed beside the move played."""
    seed: int = 0
    """Where the fixed seeds of the sampled draw orders start."""
    par_effort: Effort = FULL
    """Par's effort (hindsight: the draw order known)."""
    expert: Expert = field(default_factory=Expert)
    """The expert whose ranking gives the candidates and whose worth guides the rollouts."""
    race: bool = True
    """Whether a candidate clearly behind the leader stops being played out (False: every
    candidate plays every order)."""
    exact: bool = False
    """Whether the best move with three placements left is proven however long it takes
    (False: within :data:`EXACT_BUDGET`, and in a standard game only)."""


@dataclass(frozen=True)
class MoveReview:
    """One move of the game: what was played, what was best, and what the difference cost."""

    index: int
    placement: Placement
    score_after: int
    """The score (final: base plus any recipe bonus) right after the move."""
    best: Placement
    expected_played: float
    expected_best: float
    loss: float
    label: str
    orders: int
    """How many draw orders each candidate was played out over."""
    exact: bool
    """Whether those were every possible order (the expectation is then exact for the policy)."""
    proven: bool = False
    """Whether both expectations are proven: the best play's exact expected final score
    after the move played and after the best move, that move proven the best
    (:func:`proven_move`, :func:`expected_move`)."""

    def to_json(self) -> dict[str, Any]:
        """The move as an entry of ``review --json``'s ``moves`` (CONTRACT.md)."""
        return {
            "index": self.index,
            "placement": placement_json(self.placement),
            "score_after": self.score_after,
            "best": placement_json(self.best),
            "expected": {"played": self.expected_played, "best": self.expected_best},
            "loss": self.loss,
            "label": self.label,
            "proven": self.proven,
        }


class ParLine(NamedTuple):
    """Par's line from the start of the game: its final score and its placements."""

    score: int
    placements: list[Placement]
    proven: bool


@dataclass(frozen=True)
class Review:
    """A game's review: each move's, then par's line for comparison."""

    start: Game
    """The game at its first position (no move made)."""
    moves: list[MoveReview]
    par: ParLine

    def par_record(self) -> dict[str, Any]:
        """Par's line as a game record (the JSON of CONTRACT.md)."""
        return line_record(self.start, self.par.placements)

    def to_json(self) -> dict[str, Any]:
        """The review as ``forage review --json`` prints it (CONTRACT.md)."""
        return {
            "moves": [m.to_json() for m in self.moves],
            "par": {"score": self.par.score, "record": self.par_record()},
        }


REVIEW_VERSION: Final = "review/4"
"""The review's analysis version: a stored review of another version is worked out again.
Change it whenever what the review finds for a game could change."""


def review_key(start: Game, placements: Sequence[Placement], settings: ReviewSettings) -> str:
    """What decides a review, as one key: its version, the deal (and deck), the moves and
    the settings."""
    return analysis_key(
        REVIEW_VERSION,
        start.deal.code,
        start.deck.model_dump_json(),
        [p.notation() for p in placements],
        repr(settings),
    )


def stored_review(review: Review) -> str:
    """A review as text to keep (:func:`review_from_text` reads it back)."""
    return json.dumps(
        {
            "moves": [
                {
                    "index": m.index,
                    "placement": m.placement.notation(),
                    "score_after": m.score_after,
                    "best": m.best.notation(),
                    "expected": [m.expected_played, m.expected_best],
                    "loss": m.loss,
                    "label": m.label,
                    "orders": m.orders,
                    "exact": m.exact,
                    "proven": m.proven,
                }
                for m in review.moves
            ],
            "par": {
                "score": review.par.score,
                "placements": [p.notation() for p in review.par.placements],
                "proven": review.par.proven,
            },
        }
    )


def _label(text: str) -> str:
    if text not in LABELS:
        raise ValueError(f"not a label: {text[:20]!r}")
    return text


Points = Annotated[float, Field(ge=-SCORE_LIMIT, le=SCORE_LIMIT, allow_inf_nan=False)]
"""An expected final score as kept: within what the rules can give."""
Notations = Annotated[list[str], Field(max_length=MOST_CARDS)]
"""Placements as kept: at most a deal's."""


class KeptMove(BaseModel):
    """One move's review as kept (:func:`stored_review`), each value checked as read back."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: StrictInt = Field(ge=0, lt=MOST_CARDS)
    placement: str
    score_after: StrictInt = Field(ge=-SCORE_LIMIT, le=SCORE_LIMIT)
    best: str
    expected: tuple[Points, Points]
    loss: float = Field(ge=0, le=2 * SCORE_LIMIT, allow_inf_nan=False)
    label: Annotated[str, AfterValidator(_label)]
    orders: StrictInt = Field(ge=1)
    exact: StrictBool
    proven: StrictBool = False


class KeptParLine(BaseModel):
    """Par's line of a review as kept, each value checked as read back."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    score: StrictInt = Field(ge=-SCORE_LIMIT, le=SCORE_LIMIT)
    placements: Notations
    proven: StrictBool


class KeptReview(BaseModel):
    """A review as kept: its moves and par's line."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    moves: list[KeptMove] = Field(max_length=MOST_CARDS)
    par: KeptParLine


def review_from_text(start: Game, text: str) -> Review:
    """A kept review of a game at its first position, each value within what the rules
    can give; ValueError if it cannot be read as one."""
    stored = KeptReview.model_validate_json(text)  # a ValidationError is a ValueError
    moves = [
        MoveReview(
            index=m.index,
            placement=Placement.from_notation(m.placement),
            score_after=m.score_after,
            best=Placement.from_notation(m.best),
            expected_played=m.expected[0],
            expected_best=m.expected[1],
            loss=m.loss,
            label=m.label,
            orders=m.orders,
            exact=m.exact,
            proven=m.proven,
        )
        for m in stored.moves
    ]
    par = stored.par
    line = ParLine(par.score, [Placement.from_notation(p) for p in par.placements], par.proven)
    return Review(start, moves, line)


def fits(found: Review, placements: Sequence[Placement], settings: ReviewSettings) -> bool:
    """Whether a kept review is one of these placements from its start with these settings:
    each move in its place and played as the game played it, its best a legal placement
    there, at most ``settings.samples`` draw orders (or, where every card that could come
    was weighed, ``exact``, the deck's cards), and par's line legal."""
    if len(found.moves) != len(placements):
        return False
    game = found.start.copy()
    for index, (entry, placement) in enumerate(zip(found.moves, placements, strict=True)):
        played = game.outcome(placement)
        if (
            entry.index != index
            or game.outcome(entry.placement).placement != played.placement
            or not game.outcome(entry.best).legal
            or entry.orders > max(settings.samples, len(game.deck.numbers) if entry.exact else 0)
        ):
            return False
        game.push(played)
    return found.start.copy().replay(found.par.placements).refusal is None


def line_record(start: Game, placements: Sequence[Placement]) -> dict[str, Any]:
    """The game record of a line of placements from a game's first position."""
    game = start.copy()
    replayed = game.replay(placements)
    assert replayed.refusal is None, "a line found by the search is legal"
    return record_from_game(game).to_data()


# -- the estimate ------------------------------------------------------------------------------


def _same(a: Move, b: Move) -> bool:
    """Whether two moves are the same placement with the same mouse colours."""
    return (a.card, a.rotation, a.spot, a.result.new) == (b.card, b.rotation, b.spot, b.result.new)


def _seed_of(seed: int, index: int) -> int:
    """The fixed seed of move ``index``'s sampled draw orders."""
    return SplitMix64(seed * 1_000_003 + index).next()


def review_move(
    start: Game, placements: Sequence[Placement], index: int, settings: ReviewSettings
) -> MoveReview:
    """The review of move ``index`` of a game played from ``start`` (its earlier moves legal)."""
    game = start.copy()
    game.replay(placements[:index])
    sim = simulator_for(game)
    state = state_of(game)
    known = game.deal.cards[: state.next_draw]
    pool = unseen_cards(game.deck.numbers, known, game.deal.recipes or ())
    outcome = game.outcome(placements[index])
    resolved = outcome.resolved
    assert resolved is not None, f"move {index} is illegal"
    played = Move(
        outcome.placement.card,
        ROTATIONS.index(outcome.placement.rotation),
        resolved.spot,
        resolved.result,
    )
    if game.draw_pile == 0:  # nothing left to chance: the exact search proves it
        return proven_move(game, index, outcome.placement, played)
    ranked = expert_ranking(sim, state, pool, game.draw_pile, settings.expert)
    candidates = [played]
    for choice in ranked[: settings.candidates]:
        if not any(_same(choice.move, c) for c in candidates):
            candidates.append(choice.move)
    if game.draw_pile == 1 and len(state.hand) == 2 and (settings.exact or not sim.recipes):
        return expected_move(game, index, outcome.placement, candidates, settings.exact)
    orders, exact = draw_orders(
        pool, game.draw_pile, settings.samples, _seed_of(settings.seed, index)
    )
    finals: list[list[int]] = [[] for _ in candidates]
    racing = list(range(len(candidates)))
    coming = outlook(game.deck, pool)
    for first in range(0, len(orders), RACE_ROUND):
        if first and settings.race:
            racing = still_racing(finals, racing)
        for order in orders[first : first + RACE_ROUND]:
            cards = (*known, *order)
            for k in racing:
                next_state = sim.apply(state, candidates[k], cards)
                finals[k].append(play_out(sim, next_state, cards, settings.expert, coming))
    means = {k: round(sum(finals[k]) / len(orders), 2) for k in racing}
    top = min(racing, key=lambda k: (-means[k], k))  # the move played wins ties
    loss = round(means[top] - means[0], 2)
    after = sim.final(sim.apply(state, played, game.deal.cards))
    return MoveReview(
        index=index,
        placement=outcome.placement,
        score_after=after,
        best=sim.placement(candidates[top]) if top else outcome.placement,
        expected_played=means[0],
        expected_best=means[top],
        loss=loss,
        label=label_of(loss),
        orders=len(orders),
        exact=exact,
    )


def proven_move(game: Game, index: int, placement: Placement, played: Move) -> MoveReview:
    """The review of a move made with nothing left to draw (``game`` before it), proven by
    the exact search: the best final score after the move played and after the best."""
    sim = simulator_for(game)
    state = state_of(game)
    search = ExactSearch(sim, state, game.deal.cards)
    top = search.best(state)
    after = sim.apply(state, played, game.deal.cards)
    value = search.exact(after)
    better = top.move is not None and top.value > value
    best = sim.placement(top.move) if better and top.move is not None else placement
    loss = float(max(0, top.value - value))
    return MoveReview(
        index=index,
        placement=placement,
        score_after=sim.final(after),
        best=best,
        expected_played=float(value),
        expected_best=float(max(value, top.value)),
        loss=loss,
        label=label_of(loss),
        orders=1,
        exact=True,
        proven=True,
    )


def expected_move(
    game: Game, index: int, placement: Placement, candidates: Sequence[Move], exact: bool
) -> MoveReview:
    """The review of a move made with three placements left and one card to draw (``game``
    before it; ``candidates`` the move played first): the exact expected final score of each
    candidate (the best play after it, averaged over the unseen cards), and the best move
    proven by :meth:`ExactSearch.best_expected` (within :data:`EXACT_BUDGET` unless
    ``exact``; otherwise the best candidate, and the move is not marked proven)."""
    sim = simulator_for(game)
    state = state_of(game)
    known = game.deal.cards[: state.next_draw]
    pool = unseen_cards(game.deck.numbers, known, game.deal.recipes or ())
    search = ExactSearch(sim, state, game.deal.cards)
    values = [search.expected(state, c, pool) for c in candidates]
    top = min(range(len(candidates)), key=lambda k: (-values[k], k))  # the move played on ties
    best_move, best_value = candidates[top], values[top]
    search.node_limit = None if exact else search.nodes + EXACT_BUDGET
    found = search.best_expected(state, pool, first=candidates)
    if found.best is not None and found.best.move is not None and found.best.value > best_value:
        best_move, best_value = found.best.move, found.best.value
    played = round(values[0], 2)
    best = round(best_value, 2)
    loss = round(best - played, 2)
    after = sim.final(sim.apply(state, candidates[0], game.deal.cards))
    return MoveReview(
        index=index,
        placement=placement,
        score_after=after,
        best=sim.placement(best_move) if best_move is not candidates[0] else placement,
        expected_played=played,
        expected_best=best,
        loss=loss,
        label=label_of(loss),
        orders=len(pool),
        exact=True,
        proven=found.proven,
    )


def clearly_behind(leader: Sequence[int], other: Sequence[int]) -> bool:
    """Whether ``other`` is behind ``leader`` by more than :data:`RACE_Z` standard errors of
    their paired difference (the final scores of the same draw orders)."""
    diffs = [a - b for a, b in zip(leader, other, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    spread = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean * mean * n > RACE_Z * RACE_Z * spread


def still_racing(finals: Sequence[Sequence[int]], racing: Sequence[int]) -> list[int]:
    """The candidates that stay in a move's race: the move played (0), the leader by mean
    (the earlier on ties) and every one not :func:`clearly_behind` it."""
    leader = min(racing, key=lambda k: (-sum(finals[k]), k))
    return [k for k in racing if k in (0, leader) or not clearly_behind(finals[leader], finals[k])]


def par_line(start: Game, placements: Sequence[Placement], found: ParResult) -> ParLine:
    """Par's line from the game's start (``found``), or the game's own line where that
    scored more."""
    game = start.copy()
    game.replay(placements)
    own = game.score().final
    if own > found.score:  # the player beat a search that was not proven
        return ParLine(own, list(placements), False)
    return ParLine(found.score, found.placements, found.proven)


def move_task(
    start: Game, placements: Sequence[Placement], index: int, settings: ReviewSettings
) -> Task:
    """The review of move ``index`` as a task for a worker process: keyed by what decides it
    (the deal and deck, the moves up to it, the settings), so the review of a game asked
    once it ends meets the work done while it was played."""
    moves = list(placements[: index + 1])
    key = analysis_key(
        REVIEW_VERSION,
        "move",
        start.deal.code,
        start.deck.model_dump_json(),
        [p.notation() for p in start.moves],
        [p.notation() for p in moves],
        repr(settings),
    )
    return Task(key, review_move, (start, moves, index, settings))


def _tasks(
    start: Game, placements: Sequence[Placement], settings: ReviewSettings, with_par: bool = True
) -> Iterator[tuple[int, Task]]:
    """The review's tasks, numbered (par -1, move i), in the order they are handed out:
    par (the longest) first, unless it is known already, then the moves in order."""
    if with_par:
        yield -1, par_task(start, settings.par_effort)
    for index in range(len(placements)):
        yield index, move_task(start, placements, index, settings)


MEMORY_KIND: Final = "review"
"""The kind of analysis a review is kept as."""


def review(
    start: Game,
    placements: Sequence[Placement],
    settings: ReviewSettings | None = None,
    workers: int = WORKERS,
    progress: ProgressFn | None = None,
    memory: Memory | None = None,
    each: Callable[[MoveReview], None] | None = None,
    runner: Runner | None = None,
) -> Review:
    """The review of a game: ``start`` its first position, ``placements`` its (legal) moves.

    Its tasks (:func:`move_task`, par's) run on ``runner`` when one is given (the app's
    shared workers), else with ``workers`` above 1 in that many worker processes
    (:func:`forage.ai.workers.worker_pool`), else here; the result is the same either way.
    ``progress`` is told (done, total) after each task; an exception it raises stops the
    review, dropping the tasks not yet started. With a ``memory``, a review kept there under
    its key (:func:`review_key`) is read back at once, and one worked out is kept; so is the
    deal's par (the end screen's, for one), which is then not worked out again. ``each`` is
    given each move's review as soon as it is done (in any order), before the whole review
    is.
    """
    settings = settings or ReviewSettings()
    moves = list(placements)
    total = len(moves) + 1
    known_par = kept_par(start, memory, settings.par_effort) if memory is not None else None
    key = review_key(start, moves, settings) if memory is not None else ""
    if memory is not None:
        known = kept(memory, MEMORY_KIND, key, lambda text: review_from_text(start, text))
        if known is not None and fits(known, moves, settings):
            if progress is not None:
                progress(total, total)
            if each is not None:
                for entry in known.moves:
                    each(entry)
            return known
    results: dict[int, Any] = {}

    def finished(task: int, value: Any) -> None:
        results[task] = value
        if each is not None and task >= 0:
            each(value)
        if progress is not None:
            progress(len(results), total)

    if known_par is not None:
        results[-1] = known_par
    if progress is not None:
        progress(len(results), total)
    tasks = list(_tasks(start, moves, settings, with_par=known_par is None))
    if runner is not None:
        _gather(runner, tasks, finished)
    elif workers > 1:
        with pooled(workers) as pool:
            _gather(PoolRunner(pool), tasks, finished)
    else:
        for number, task in tasks:
            finished(number, task.work(*task.args))
    par_found: ParResult = results.pop(-1)
    if memory is not None and known_par is None:
        keep_par(start, par_found, memory, settings.par_effort)
    found = Review(
        start, [results[i] for i in range(len(moves))], par_line(start, moves, par_found)
    )
    if memory is not None:
        memory.remember(MEMORY_KIND, key, stored_review(found))
    return found


def _gather(
    runner: Runner, tasks: Sequence[tuple[int, Task]], finished: Callable[[int, Any], None]
) -> None:
    """Start every task on ``runner`` and hand each result on as it comes; stopped (by
    ``finished`` raising, or a task failing), the tasks not yet started are dropped."""
    futures: dict[Future[Any], int] = {runner.start(task): number for number, task in tasks}
    try:
        for future in as_completed(futures):
            finished(futures[future], future.result())
    except BaseException:
        runner.drop(futures)
        raise


def start_of(game: Game) -> Game:
    """A copy of a game at its first position, before any of its moves."""
    return game.rewound(0)
