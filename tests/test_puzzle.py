"""Puzzles: every shipped answer proven by counting every line, the daily pick, the JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import pytest

from forage.ai.games import play
from forage.ai.puzzle import prove
from forage.ai.sim import Simulator, State, simulator_for, state_of
from forage.carddata import standard_deck
from forage.cli import main
from forage.engine import Deal, Game, Placement
from forage.puzzle import (
    EPOCH,
    FORMAT,
    Puzzle,
    daily_puzzle,
    parse_puzzles,
    puzzle_index,
    puzzles,
)
from forage.record import parse_record

ROOT = Path(__file__).parent.parent


class Count:
    """What an exhaustive count of a position's lines finds."""

    def __init__(self, values: dict[Spot, int], lines: int) -> None:
        """Each first choice's best final score, and how many lines there are."""
        self.values = values
        self.lines = lines

    def top_two(self) -> tuple[int, int]:
        """The best and second-best first choices' values."""
        ranked = sorted(self.values.values(), reverse=True)
        return ranked[0], ranked[1] if len(ranked) > 1 else -1


Spot = tuple[int, int, int, int]
"""A placement's card, rotation in degrees and top-left square: what a player chooses."""


def spot_of(placement: Placement) -> Spot:
    """What a placement chooses, its mouse colours aside."""
    return placement.card, int(placement.rotation), placement.x, placement.y


def _lines(sim: Simulator, state: State, deal: tuple[int, ...]) -> tuple[int, int]:
    """The best final score and the number of lines from a state: every placement and
    every mouse colour choice tried, no table, no bound."""
    moves = sim.all_moves(state, variants=True)
    if not moves:
        return sim.final(state), 1
    if len(state.hand) == 1 and state.next_draw == len(deal) and not sim.recipes:
        return state.base + max(move.gain for move in moves), len(moves)  # R15: the base
    best, count = -1, 0
    for move in moves:
        value, lines = _lines(sim, sim.apply(state, move, deal), deal)
        best, count = max(best, value), count + lines
    return best, count


def plain_count(game: Game) -> Count:
    """Every line from a game's position, counted by plain enumeration."""
    sim, state, deal = simulator_for(game), state_of(game), game.deal.cards
    values: dict[Spot, int] = {}
    lines = 0
    for move in sim.all_moves(state, variants=True):
        value, count = _lines(sim, sim.apply(state, move, deal), deal)
        choice = spot_of(sim.placement(move))
        values[choice] = max(values.get(choice, value), value)
        lines += count
    return Count(values, lines)


def game_api_top_two(game: Game) -> tuple[int, int]:
    """The best and second-best first placements' final scores, through the public
    ``Game`` API alone (``outcomes``, ``mouse_options``, ``push``, ``pop``, ``result``)."""
    values: dict[Spot, int] = {}
    for first in list(game.outcomes()):
        key = spot_of(first.placement)
        for option in game.mouse_options(first.placement) or [first]:
            game.push(option)
            lasts = list(game.outcomes())
            if lasts:
                best_last = max(lasts, key=lambda o: o.score_change)
                game.push(best_last)
                value = game.result().score.final
                game.pop()
                assert value == game.base + best_last.score_change
            else:
                value = game.result().score.final
            game.pop()
            values[key] = max(values.get(key, value), value)
    ranked = sorted(values.values(), reverse=True)
    return ranked[0], ranked[1]


def _proof_of(index: int) -> tuple[int, int, int, bool]:
    """A shipped puzzle's top two by plain count, and whether its solution is the best."""
    puzzle = puzzles()[index]
    game = puzzle.game()
    count = plain_count(game)
    first = puzzle.line()[0]
    best, second = count.top_two()
    return best, second, count.values[spot_of(first)], count.lines > 0


PROOF_PARTS = 8
"""The shipped puzzles are counted in this many tests, so that the suite's workers share them."""


def test_at_least_200_puzzles_are_shipped() -> None:
    assert len(puzzles()) >= 200


@pytest.mark.parametrize("part", range(PROOF_PARTS))
def test_every_shipped_puzzle_is_proven_by_counting_every_line(part: int) -> None:
    shipped = puzzles()
    for index in range(part, len(shipped), PROOF_PARTS):
        puzzle = shipped[index]
        best, second, answer, any_lines = _proof_of(index)
        assert any_lines
        assert (best, second) == (puzzle.best, puzzle.second), puzzle.id
        assert answer == best > second, puzzle.id


@pytest.mark.parametrize("day", ["2026-12-03", "2027-02-28", "1999-07-04"])
def test_daily_puzzles_are_proven_through_the_game_api(day: str) -> None:
    puzzle = daily_puzzle(date.fromisoformat(day))
    assert game_api_top_two(puzzle.game()) == (puzzle.best, puzzle.second)


def test_the_solution_line_reaches_best_on_the_engine() -> None:
    for puzzle in puzzles():
        game = puzzle.game()
        assert len(game.hand) + game.draw_pile == puzzle.left == len(puzzle.solution)
        _, refusal = game.replay(puzzle.line())
        assert refusal is None, puzzle.id
        assert game.is_over() and game.result().score.final == puzzle.best, puzzle.id


def test_prove_agrees_with_a_plain_count_on_fresh_positions() -> None:
    """On positions never shipped (unique answer or not), the pruned search's best and
    second are the plain count's."""
    deck = standard_deck()
    for seed in (11, 12, 13):
        deal = Deal.from_seed(seed)
        game = Game(deal, deck)
        sim = Simulator(deck)
        line = play(sim, deal, "greedy", state_of(game), deck.numbers)
        game.replay([sim.placement(move) for move in line.moves[:-2]])
        proof = prove(game)
        assert proof is not None
        assert (proof.best, proof.second) == plain_count(game).top_two()
        assert proof.unique == (proof.second < proof.best)


def test_prove_says_nothing_of_a_finished_game() -> None:
    puzzle = puzzles()[0]
    game = puzzle.game()
    game.replay(puzzle.line())
    assert prove(game) is None


def test_the_same_date_gives_the_same_puzzle_and_each_cycle_every_puzzle() -> None:
    count = len(puzzles())
    days = [EPOCH + timedelta(days=i) for i in range(count)]
    picked = Counter(puzzle_index(day, count) for day in days)
    assert len(picked) == count
    later = [puzzle_index(day + timedelta(days=count), count) for day in days]
    assert later == [puzzle_index(day, count) for day in days]
    # Everyone gets the same puzzle: another process, with another hash seed, picks the same.
    dates = ["2026-12-03", "2027-02-28", "2031-07-14"]
    script = (
        "import json, sys; from datetime import date; from forage.puzzle import daily_puzzle; "
        "print(json.dumps([daily_puzzle(date.fromisoformat(d)).id for d in sys.argv[1:]]))"
    )
    elsewhere = subprocess.run(
        [sys.executable, "-c", script, *dates],
        env={**os.environ, "PYTHONHASHSEED": "4242"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(elsewhere.stdout) == [daily_puzzle(date.fromisoformat(d)).id for d in dates]
    assert len({daily_puzzle(EPOCH + timedelta(days=i)).id for i in range(7)}) == 7


def test_puzzle_ids_are_one_to_n_and_every_position_is_another() -> None:
    shipped = puzzles()
    assert [p.id for p in shipped] == list(range(1, len(shipped) + 1))
    assert len({p.record.to_json() for p in shipped}) == len(shipped)


def test_puzzles_are_standard_games_of_the_built_in_deck() -> None:
    for puzzle in puzzles():
        assert puzzle.record.recipes is None and puzzle.record.cards is None
        assert puzzle.record.deal is not None and len(puzzle.record.deal) == 9
        assert 900 <= puzzle.rating <= 2000


def test_a_puzzle_file_of_another_format_is_refused() -> None:
    text = (ROOT / "data" / "puzzles.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert parse_puzzles(text).format == FORMAT
    data["format"] = "forage-puzzles/9"
    with pytest.raises(ValueError, match="format"):
        parse_puzzles(json.dumps(data))


@pytest.mark.parametrize("day", ["2026-12-03", "0001-01-01", "9999-12-31", "2024-02-29"])
def test_puzzle_json_has_the_contract_fields(day: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--date", day, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed) == {"date", "id", "record", "left", "solution", "best", "second"}
    assert printed["date"] == day
    puzzle = daily_puzzle(date.fromisoformat(day))
    assert printed["id"] == puzzle.id and printed["left"] == len(printed["solution"]) == 2
    assert printed["second"] < printed["best"] == puzzle.best
    record = parse_record(json.dumps(printed["record"]))
    assert record.deal is not None and all("mouse" not in m for m in printed["solution"])


def test_the_puzzle_record_and_its_solution_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["puzzle", "--date", "2026-12-03", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    position = tmp_path / "position.json"
    position.write_text(json.dumps(printed["record"]), encoding="utf-8")
    assert main(["replay", str(position), "--json"]) == 0
    at_position = json.loads(capsys.readouterr().out)
    assert at_position["moves_applied"] == len(printed["record"]["moves"])
    solved = tmp_path / "solved.json"
    whole = {**printed["record"], "moves": printed["record"]["moves"] + printed["solution"]}
    solved.write_text(json.dumps(whole), encoding="utf-8")
    assert main(["replay", str(solved), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"]["final"] == printed["best"]


def test_today_is_the_default_date(capsys: pytest.CaptureFixture[str]) -> None:
    from forage.history.daily import today

    assert main(["puzzle", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["date"] == today().isoformat()


@pytest.mark.parametrize("text", ["2026-13-01", "tomorrow", "", "2026-02-30"])
def test_a_bad_date_is_one_line_and_exit_2(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--date", text, "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("forage: --date:") and err.count("\n") == 1


def test_the_generator_makes_the_shipped_first_puzzle() -> None:
    """scripts/make_puzzles.py from the file's seed finds the shipped first puzzle again."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import make_puzzles
    finally:
        sys.path.pop(0)
    seed = json.loads((ROOT / "data" / "puzzles.json").read_text(encoding="utf-8"))["seed"]
    for candidate in make_puzzles.candidates(seed, 8):
        found: Puzzle | None = make_puzzles.puzzle_of(candidate)
        if found is not None:
            assert found.model_copy(update={"id": 1}) == puzzles()[0]
            return
    pytest.fail("no puzzle among the first candidates")
