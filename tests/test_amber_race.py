"""The race of plans on two cores (``solvers/amber.py``: ``races_for``, ``_race``, ``can_race``)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest

from amber_patience.games import get_game
from amber_patience.games.base import GameError
from amber_patience.solvers import amber as amber_solver
from amber_patience.solvers import solve
from amber_patience.solvers.amber import _Board, _Budget, _plan_arden, _race


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test here races, also on a machine with one core (the racers then share it): a race needs
    ``fork``, which every platform that CI runs on has."""
    assert "fork" in multiprocessing.get_all_start_methods()
    monkeypatch.setattr(amber_solver, "_cores", lambda: 2)


def _sleep_then(seconds: float, path: list[tuple[int, int]] | None, used: int = 0):
    def run(budget: _Budget) -> list[tuple[int, int]] | None:
        time.sleep(seconds)
        budget.used += used
        return path
    return run


def _report_pid(seconds: float, out: multiprocessing.queues.Queue):  # type: ignore[name-defined]
    def run(budget: _Budget) -> list[tuple[int, int]] | None:
        out.put(os.getpid())
        time.sleep(seconds)
        return [(0, 1)]
    return run


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped by its new parent, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc here: the signal's answer is all there is
        return True


def test_the_first_plan_to_win_is_kept_and_the_other_is_stopped() -> None:
    queue = multiprocessing.get_context("fork").Queue()
    budget = _Budget(None, 1000)
    started = time.perf_counter()
    result = _race({"slow": _report_pid(60, queue), "fast": _sleep_then(0.2, [(3, 4)], used=7)}, budget)
    assert time.perf_counter() - started < 30  # not the slow plan's 60 s
    assert result == ("fast", [(3, 4)])
    assert budget.used == 7
    slow_pid = queue.get(timeout=10)
    assert not _alive(slow_pid), "the losing plan's process is still running"


def test_a_plan_that_finds_nothing_leaves_the_race_to_the_other() -> None:
    budget = _Budget(None, 1000)
    result = _race({"none": _sleep_then(0, None, used=5), "late": _sleep_then(0.5, [(1, 2), (2, 1)], used=11)}, budget)
    assert result == ("late", [(1, 2), (2, 1)])
    assert budget.used == 16


def test_no_plan_wins_and_every_finished_plan_counts() -> None:
    budget = _Budget(None, 1000)
    assert _race({"a": _sleep_then(0, None, used=3), "b": _sleep_then(0.1, None, used=4)}, budget) is None
    assert budget.used == 7


def test_an_error_in_a_raced_plan_is_raised_here() -> None:
    def broken(budget: _Budget) -> list[tuple[int, int]] | None:
        raise ValueError("a bug in the search")

    with pytest.raises(ValueError, match="a bug in the search"):
        _race({"broken": broken, "slow": _sleep_then(30, [(0, 1)])}, _Budget(None, 1000))


def test_each_raced_plan_gets_the_budget_left() -> None:
    seen = multiprocessing.get_context("fork").Queue()

    def record(budget: _Budget) -> list[tuple[int, int]] | None:
        seen.put((budget.cap, budget.deadline))
        return None

    deadline = time.perf_counter() + 100
    budget = _Budget(deadline, 1000)
    budget.used = 400
    assert _race({"a": record, "b": record}, budget) is None
    assert [seen.get(timeout=10), seen.get(timeout=10)] == [(600, deadline), (600, deadline)]


def _can_race_in_child(out: multiprocessing.queues.Queue) -> None:  # type: ignore[name-defined]
    out.put(amber_solver.can_race())


def test_a_worker_process_does_not_race() -> None:
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_can_race_in_child, args=(queue,))
    child.start()
    assert queue.get(timeout=10) is False
    child.join()


def test_race_switch() -> None:
    old = amber_solver.RACE
    try:
        amber_solver.RACE = False
        assert not amber_solver.can_race()
    finally:
        amber_solver.RACE = old


@pytest.mark.parametrize("number", [2, 5])
def test_a_raced_solve_wins_and_names_its_plan(number: int) -> None:
    position = get_game("arden").deal(number)
    raced = solve(position, time_limit=None, node_limit=60000)  # replayed by the rules engine
    assert raced.status == "won" and raced.stats["plan"] in ("chain", "reverse-chain")
    old = amber_solver.RACE
    try:
        amber_solver.RACE = False
        alone = solve(position, time_limit=None, node_limit=60000)
    finally:
        amber_solver.RACE = old
    assert alone.status == "won" and "plan" not in alone.stats
    game = position.game
    board = _Board(position)
    name = raced.stats["plan"]
    budget = _Budget(None, 60000)
    # the winner's path is the very path of its plans and draws run alone, here in this process
    found = amber_solver._plan_drawn(board, game, amber_solver.arden_races(game, board)[name],
                                     amber_solver.arden_draws(game, board)[name], budget)
    assert found is not None and raced.stats["found_length"] == len(found)


def test_the_raced_plans_are_the_chain_and_the_probe_then_the_reverse_chain() -> None:
    game = get_game("arden")
    board = _Board(game.deal(3))
    races = amber_solver.arden_races(game, board)
    assert set(races) == {"chain", "reverse-chain"}
    raced = amber_solver.races_for(game, board)
    assert raced is not None and set(raced) == set(races)
    assert [steps for steps, _ in races["chain"]] == [_plan_arden(game, board, "chain"),
                                                       _plan_arden(game, board, "groups")]
    (whole, quick), (reverse, last) = races["reverse-chain"]
    assert whole == [amber_solver.Step("sort", (tuple(range(len(game.cells))),))]
    assert quick == amber_solver.ARDEN_QUICK_CAP
    assert reverse == _plan_arden(game, board, "reverse-chain") and last is None
    assert amber_solver.races_for(get_game("path-36"), _Board(get_game("path-36").deal(1))) is None


def test_pattern_races_its_portfolio_against_another_order_with_other_seeds() -> None:
    from amber_patience.solvers import amber_pattern

    game = get_game("pattern")
    races = amber_solver.races_for(game, _Board(game.deal(2)))
    assert races is not None and set(races) == {"portfolio", "other-portfolio"}
    ours, theirs = amber_pattern.BALANCE_PORTFOLIO, amber_pattern.RACE_PORTFOLIO
    # the same six settings first, in another order and with other seeds; then a heavy setting each
    assert sorted((i, w, f) for i, w, _, f in ours[:6]) == sorted((i, w, f) for i, w, _, f in theirs[:6])
    assert [x[:2] for x in theirs[:6]] != [x[:2] for x in ours[:6]]  # another order
    assert not {s for *_, s, _ in ours[:6]} & {s for *_, s, _ in theirs[:6]}  # other seeds
    assert ours[6][:2] != theirs[6][:2] and len(ours) == len(theirs) == 7


def test_a_raced_pattern_solve_wins_and_the_other_portfolio_wins_alone() -> None:
    from amber_patience.solvers import amber_pattern

    position = get_game("pattern").deal(2)
    raced = solve(position, time_limit=None, node_limit=3000)  # replayed by the rules engine
    assert raced.status == "won" and raced.stats["plan"] in ("portfolio", "other-portfolio")
    board = _Board(position)
    budget = _Budget(None, 3000)
    path = amber_pattern.plan_pattern(board, position.game, budget, portfolio=amber_pattern.RACE_PORTFOLIO)
    assert path is not None and 0 < budget.used <= 3000
    at = bytearray(board.start)
    for a, b in path:
        assert board.legal_swap(at, a, b), (a, b)
        at[a], at[b] = at[b], at[a]
    assert list(at) == board.goal


@pytest.mark.parametrize("name", ["path", "path-52"])
def test_path_races_its_plans_against_the_main_plan_searched_greedier(name: str) -> None:
    game = get_game(name)
    board = _Board(game.deal(4))
    races = amber_solver.races_for(game, board)
    assert races is not None and set(races) == {"plans", "heavier"}
    heavier = races["heavier"].keywords["plans"]  # type: ignore[attr-defined]
    weight = amber_solver.PATH_RACE_WEIGHT[name]
    assert [(steps, cap) for steps, cap in heavier] == [
        ([amber_solver.replace(step, weight=weight) for step in amber_solver.plan_for(game, board)], None)]
    assert weight != amber_solver.WEIGHTS[name]
    # a step's weight reaches its search settings, and only its weight changes
    ours = amber_solver.settings_for(game, "gather")
    greedier = amber_solver.settings_for(game, "gather", weight)
    assert [s.weight for s in greedier] == [weight] * len(ours)
    assert [amber_solver.replace(s, weight=0) for s in greedier] == [amber_solver.replace(s, weight=0) for s in ours]


def test_a_raced_path_solve_wins_and_names_its_plan() -> None:
    position = get_game("path").deal(7)
    raced = solve(position, time_limit=None, node_limit=60000)  # replayed by the rules engine
    assert raced.status == "won" and raced.stats["plan"] in ("plans", "heavier")


def test_kolvir_races_its_attempts_against_the_same_in_the_other_order() -> None:
    from amber_patience.solvers import amber_kolvir

    game = get_game("kolvir")
    races = amber_solver.races_for(game, _Board(game.deal(1)))
    assert races is not None and set(races) == {"attempts", "other-order"}
    assert races["attempts"].keywords == {}  # type: ignore[attr-defined]
    assert races["other-order"].keywords == {"attempts": amber_kolvir.ATTEMPTS[::-1]}  # type: ignore[attr-defined]


def test_a_raced_kolvir_solve_wins_and_names_its_plan() -> None:
    position = get_game("kolvir").deal(3)
    raced = solve(position, time_limit=None, node_limit=60000)  # replayed by the rules engine
    assert raced.status == "won" and raced.stats["plan"] in ("attempts", "other-order")


def test_a_racer_ignores_ctrl_c_which_is_its_parents_to_handle() -> None:
    def interrupted(budget: _Budget) -> list[tuple[int, int]] | None:
        os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C reaches every process of the terminal's group
        time.sleep(0.2)
        return [(5, 6)]

    assert _race({"interrupted": interrupted}, _Budget(None, 10)) == ("interrupted", [(5, 6)])


_ORPHAN_PARENT = '''
import os, sys, time
from amber_patience.solvers.amber import _Budget, _race

def report(budget):
    with open(sys.argv[1], "a") as pids:  # a file of the test's own: the parent's stdout may carry other text
        pids.write(f"{os.getpid()}\\n")
    time.sleep(120)
    return None

_race({"a": report, "b": report}, _Budget(None, 10))
'''


def test_a_racer_ends_when_its_parent_is_killed_outright(tmp_path) -> None:
    """SIGKILL gives the parent no chance to stop its racers: they notice and end on their own."""
    import subprocess
    import sys

    pids, said = tmp_path / "racers", tmp_path / "parent-output"
    with open(said, "w") as output:
        parent = subprocess.Popen([sys.executable, "-c", _ORPHAN_PARENT, str(pids)], stdout=output,
                                  stderr=subprocess.STDOUT)  # the environment as it is, as the server's test has it
    give_up = time.perf_counter() + 60
    racers: list[int] = []
    while len(racers) < 2 and parent.poll() is None and time.perf_counter() < give_up:
        time.sleep(0.05)
        racers = [int(line) for line in pids.read_text().split("\n")[:-1]] if pids.exists() else []  # whole lines
    if len(racers) < 2:
        parent.kill()
        parent.wait()
    assert len(racers) == 2, f"the racers did not start (parent's exit code {parent.returncode}): {said.read_text()!r}"
    assert all(_alive(pid) for pid in racers)
    parent.kill()
    parent.wait()
    give_up = time.perf_counter() + 20
    while any(_alive(pid) for pid in racers) and time.perf_counter() < give_up:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in racers), "a racer goes on searching after its parent was killed"


def test_a_racer_silent_past_the_deadline_is_stopped_and_the_race_finds_nothing(monkeypatch) -> None:
    """A racer stuck where no deadline is checked (a lock held by another thread at the fork) does not hold
    the parent forever: ``RACE_GRACE`` after the deadline, the race gives up and stops it."""
    monkeypatch.setattr(amber_solver, "RACE_GRACE", 0.5)
    queue = multiprocessing.get_context("fork").Queue()
    budget = _Budget(time.perf_counter() + 0.5, None)
    started = time.perf_counter()
    assert _race({"stuck": _report_pid(60, queue)}, budget) is None
    assert time.perf_counter() - started < 30  # not the stuck racer's 60 s
    stuck = queue.get(timeout=10)
    assert not _alive(stuck), "the stuck racer is still running"


def test_a_racer_that_answers_within_the_grace_is_heard() -> None:
    budget = _Budget(time.perf_counter() + 0.1, None)  # the answer comes after the deadline, within RACE_GRACE
    assert _race({"late": _sleep_then(0.6, [(7, 8)], used=3)}, budget) == ("late", [(7, 8)])
    assert budget.used == 3


def test_a_race_for_length_waits_for_a_shorter_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber_solver, "RACE_WAIT_MIN", 2.0)
    budget = _Budget(None, 1000)
    long, short = [(1, 2)] * 5, [(3, 4)] * 2
    result = _race({"first": _sleep_then(0.1, long, used=7), "shorter": _sleep_then(0.6, short, used=9)}, budget,
                   length=len)
    assert result == ("shorter", short)
    assert budget.used == 7  # the fewest states of a win: the difficulty figure does not depend on the wait


def test_a_race_for_length_counts_the_fewest_states_of_a_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber_solver, "RACE_WAIT_MIN", 2.0)
    budget = _Budget(None, 1000)
    result = _race({"none": _sleep_then(0, None, used=5), "first": _sleep_then(0.2, [(1, 2)] * 3, used=40),
                    "fewer-states": _sleep_then(0.5, [(3, 4)] * 3, used=9)}, budget, length=len)
    assert result == ("first", [(1, 2)] * 3)  # the first of equal lines
    assert budget.used == 5 + 9


def test_a_race_for_length_waits_only_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber_solver, "RACE_WAIT_MIN", 0.2)
    monkeypatch.setattr(amber_solver, "RACE_WAIT_FACTOR", 1.0)
    queue = multiprocessing.get_context("fork").Queue()
    started = time.perf_counter()
    late = _report_pid(60, queue)
    result = _race({"first": _sleep_then(0.1, [(1, 2)] * 5, used=3), "late": late}, _Budget(None, 1000), length=len)
    assert time.perf_counter() - started < 30  # not the late plan's 60 s
    assert result == ("first", [(1, 2)] * 5)
    assert not _alive(queue.get(timeout=10)), "the plan still searching after the wait is still running"


def test_a_race_for_length_keeps_the_first_of_equal_lines_and_never_waits_past_the_deadline() -> None:
    budget = _Budget(time.perf_counter() + 0.5, None)
    started = time.perf_counter()
    result = _race({"first": _sleep_then(0.1, [(1, 2)], used=1), "equal": _sleep_then(0.3, [(5, 6)], used=1),
                    "shorter-too-late": _sleep_then(3, [], used=1)}, budget, length=len)
    assert result == ("first", [(1, 2)])
    assert time.perf_counter() - started < 2.5


def test_a_raced_line_is_shortened_by_its_racer() -> None:
    position = get_game("path-36").deal(3)
    board = _Board(position)
    path = amber_solver._plan(board, position.game, _Budget(None, 60000))
    assert path is not None
    line = amber_solver._line(lambda budget: list(path), board, "path-36", None, _Budget(None, 60000))
    assert line == (len(path), amber_solver.shorten(board, path, None, "path-36"))
    assert amber_solver._line(lambda budget: None, board, "path-36", None, _Budget(None, 1)) is None


@pytest.mark.parametrize(("number", "kept_line"), [(4, 1), (6, 2), (2, 0)])
def test_arden_draws_run_the_chains_with_lighter_gatherings_and_keep_the_fewest_swaps(number: int,
                                                                                      kept_line: int) -> None:
    game = get_game("arden")
    board = _Board(game.deal(number))
    draws = amber_solver.arden_draws(game, board)
    assert set(draws) == set(amber_solver.arden_races(game, board))
    for name in ("chain", "reverse-chain"):
        assert len(draws[name]) == len(amber_solver.ARDEN_DRAW_WEIGHTS) >= 2
        for steps, weight in zip(draws[name], amber_solver.ARDEN_DRAW_WEIGHTS, strict=True):
            assert [replace_weight(step) for step in steps] == _plan_arden(game, board, name)
            assert {step.weight for step in steps if step.kind == "gather"} == {weight}
            assert {step.weight for step in steps if step.kind == "sort"} == {None}
    plans = amber_solver.arden_races(game, board)["chain"]
    first_budget = _Budget(None, 60000)
    first = amber_solver._plan(board, game, first_budget, plans=plans)
    assert first is not None
    cap = min(amber_solver.ARDEN_DRAW_MAX,
              max(amber_solver.ARDEN_DRAW_MIN, int(amber_solver.ARDEN_DRAW_SCALE * first_budget.used)))
    drawn = [amber_solver._run_plan(board, game, steps, _Budget(None, cap)) for steps in draws["chain"]]
    budget = _Budget(None, 60000)
    kept = amber_solver._plan_drawn(board, game, plans, draws["chain"], budget)
    assert budget.used == first_budget.used  # the draws' states are their own
    candidates = [first] + [path for path in drawn if path is not None]
    assert kept == min(candidates, key=len)  # the first of the fewest swaps
    # deal 4: the first draw (weight 2) wins in its budget with the fewest swaps; deal 6: the second (1.5); deal 2: none
    assert kept == [first, *drawn][kept_line]
    at = bytearray(board.start)
    for a, b in kept:
        assert board.legal_swap(at, a, b), (a, b)
        at[a], at[b] = at[b], at[a]
    assert list(at) == board.goal


def replace_weight(step: amber_solver.Step) -> amber_solver.Step:
    return amber_solver.replace(step, weight=None)


def test_a_quick_arden_race_makes_no_draws_and_a_full_one_does() -> None:
    game = get_game("arden")
    board = _Board(game.deal(2))
    full, quick = amber_solver.races_for(game, board), amber_solver.races_for(game, board, quick=True)
    assert full is not None and quick is not None
    for name in full:
        assert full[name].args[3] == amber_solver.arden_draws(game, board)[name]  # type: ignore[attr-defined]
        assert quick[name].args[3] == []  # type: ignore[attr-defined]


def test_the_work_for_length_stops_at_the_budgets_length_until_never_past_the_deadline() -> None:
    assert _Budget(10.0, None, 5.0).for_length() == 5.0
    assert _Budget(3.0, None, 5.0).for_length() == 3.0
    assert _Budget(None, None, 5.0).for_length() == 5.0
    assert _Budget(4.0, None).for_length() == 4.0
    assert _Budget(None, None).for_length() is None


def _sees_length_until(expected: float, path: list[tuple[int, int]], seconds: float):
    def run(budget: _Budget) -> list[tuple[int, int]] | None:
        time.sleep(seconds)
        return path if budget.length_until == expected else None
    return run


def test_a_race_for_length_waits_no_later_than_a_while_after_the_draws_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber_solver, "RACE_WAIT_MIN", 5.0)
    monkeypatch.setattr(amber_solver, "RACE_WAIT_AFTER_LENGTH", 0.1)
    started = time.perf_counter()
    until = started + 0.2
    budget = _Budget(None, 1000, until)
    long, short = [(1, 2)] * 5, [(3, 4)] * 2
    result = _race({"first": _sees_length_until(until, long, 0.1), "shorter": _sees_length_until(until, short, 3)},
                   budget, length=len)
    assert result == ("first", long)  # each racer had the length's deadline; the wait ended at 0.3 s, not 5 s
    assert time.perf_counter() - started < 2.5
    # a first win after that end is kept at once
    budget = _Budget(None, 1000, time.perf_counter() - 1)
    result = _race({"first": _sleep_then(0.1, long), "shorter": _sleep_then(3, short)}, budget, length=len)
    assert result == ("first", long)


def test_arden_draws_stop_at_the_length_deadline() -> None:
    game = get_game("arden")
    board = _Board(game.deal(4))  # the deal whose draw is shorter than its first win (above)
    plans = amber_solver.arden_races(game, board)["chain"]
    draws = amber_solver.arden_draws(game, board)["chain"]
    first = amber_solver._plan(board, game, _Budget(None, 60000), plans=plans)
    drawn = amber_solver._plan_drawn(board, game, plans, draws, _Budget(None, 60000))
    assert first is not None and drawn is not None and len(drawn) < len(first)
    late = amber_solver._plan_drawn(board, game, plans, draws, _Budget(None, 60000, time.perf_counter() - 1))
    assert late == first


def test_pattern_draws_stop_at_the_length_deadline() -> None:
    from amber_patience.solvers.amber_pattern import plan_pattern
    game = get_game("pattern")
    board = _Board(game.deal(1))
    undrawn = plan_pattern(board, game, _Budget(None, None), draws=0)
    drawn = plan_pattern(board, game, _Budget(None, None))
    assert undrawn is not None and drawn is not None and len(drawn) < len(undrawn)
    assert plan_pattern(board, game, _Budget(None, None, time.perf_counter() - 1)) == undrawn


def test_a_full_solve_gives_its_draws_for_length_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber_solver, "RACE", False)
    monkeypatch.setattr(amber_solver, "LENGTH_SECONDS", 7.0)
    seen: list[float | None] = []
    drawn: list[list[list[amber_solver.Step]]] = []
    plan_drawn = amber_solver._plan_drawn

    def spy(board, game, plans, draws, budget):  # type: ignore[no-untyped-def]
        seen.append(budget.length_until)
        drawn.append(draws)
        return plan_drawn(board, game, plans, draws, budget)

    monkeypatch.setattr(amber_solver, "_plan_drawn", spy)
    before = time.perf_counter()
    assert solve(get_game("arden").deal(2), time_limit=30).status == "won"
    (until,) = seen
    # without a race both raced plans' draws, by weight: both first draws before the second ones, and so on (the clock
    # cuts the last)
    game = get_game("arden")
    sides = amber_solver.arden_draws(game, _Board(game.deal(2)))
    assert drawn[0] == [side[k] for k in range(len(amber_solver.ARDEN_DRAW_WEIGHTS))
                        for side in (sides["chain"], sides["reverse-chain"])]
    assert len(drawn[0]) == 2 * len(amber_solver.ARDEN_DRAW_WEIGHTS) >= 6
    assert until is not None and before + 7.0 <= until <= time.perf_counter() + 7.0
    assert solve(get_game("arden").deal(2), time_limit=None, node_limit=200_000).status == "won"  # no clock either
    assert seen[1] is None
    monkeypatch.setattr(amber_solver, "LENGTH_SECONDS", None)
    assert solve(get_game("arden").deal(2), time_limit=30).status == "won"
    assert seen[2] is None


def test_a_solve_asked_for_length_seconds_gives_its_draws_that_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve(length_seconds=S)`` sets the clock of the draws for length S seconds after the start instead of
    ``LENGTH_SECONDS``; the time limit still stops them; a quick solve, another family or a clock of no time is
    refused, and the solver itself refuses a clock of no time."""
    monkeypatch.setattr(amber_solver, "RACE", False)
    seen: list[float | None] = []
    plan_drawn = amber_solver._plan_drawn

    def spy(board, game, plans, draws, budget):  # type: ignore[no-untyped-def]
        seen.append(budget.for_length())
        return plan_drawn(board, game, plans, draws, budget)

    monkeypatch.setattr(amber_solver, "_plan_drawn", spy)
    deal = get_game("arden").deal(2)
    before = time.perf_counter()
    assert solve(deal, time_limit=30, length_seconds=4.0).status == "won"
    assert seen[-1] is not None and before + 4.0 <= seen[-1] <= time.perf_counter() + 4.0
    before = time.perf_counter()
    assert solve(deal, time_limit=2.0, length_seconds=9.0).status == "won"
    assert seen[-1] is not None and before + 2.0 <= seen[-1] <= time.perf_counter() + 2.0  # the time limit's
    with pytest.raises(GameError, match="quick"):
        solve(deal, length_seconds=4.0, quick=True)
    with pytest.raises(GameError, match="more than 0"):
        solve(deal, length_seconds=0.0)
    with pytest.raises(GameError, match="Amber layouts"):
        solve(get_game("pyramid-52").deal(1), length_seconds=4.0)
    with pytest.raises(ValueError, match="more than 0"):
        amber_solver.solve(deal, time_limit=30, length_seconds=-1.0)
    assert len(seen) == 2
