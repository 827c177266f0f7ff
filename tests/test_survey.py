"""Winnability surveys (``amber_patience.survey``) and ``amber survey``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amber_patience.cli import main
from amber_patience.games import get_game
from amber_patience.solvers import solve
from amber_patience.survey import DealOutcome, DealRange, SurveyError, SurveyFile, SurveyReport, run_survey

NODES = 3000  # node limits keep the surveys reproducible (a time limit would depend on the machine)


# -- deal numbers ---------------------------------------------------------------------------------


@given(st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 50)), min_size=1, max_size=5))
def test_a_range_of_deals_is_the_numbers_it_writes(pieces: list[tuple[int, int]]) -> None:
    text = ",".join(f"{a}" if k == 0 else f"{a}-{a + k}" for a, k in pieces)
    deals = DealRange.parse(text)
    expected = [n for a, k in pieces for n in range(a, a + k + 1)]
    assert list(deals) == expected
    assert len(deals) == len(expected)
    assert list(DealRange.parse(str(deals))) == expected


def test_a_huge_range_costs_nothing_until_walked() -> None:
    deals = DealRange.parse("1-100000000")
    assert len(deals) == 100_000_000
    assert next(iter(deals)) == 1


@pytest.mark.parametrize("text, says", [("5-1", "ends before it starts"), ("x", "not a deal number"),
                                        ("1-", "not a deal number"), ("-3", "not a deal number"),
                                        ("1,,2", "not a deal number"), ("2.5", "not a deal number")])
def test_a_bad_range_says_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(SurveyError, match=says):
        DealRange.parse(text)


# -- the figures ----------------------------------------------------------------------------------


@given(st.integers(1, 10_000), st.data())
def test_the_win_rate_lies_inside_its_interval(n: int, data: st.DataObject) -> None:
    won = data.draw(st.integers(0, n))
    report = SurveyReport("path-36", {}, 1.0, None)
    for i in range(n):
        report.add(DealOutcome(i, "won" if i < won else "unknown", 0.0))
    rate = report.win_rate()
    assert rate is not None
    share, low, high = rate
    assert share == won / n
    assert 0.0 <= low <= share <= high <= 1.0
    assert high - low > 0  # a finite sample never pins the rate down


def test_the_interval_narrows_with_more_deals() -> None:
    def width(n: int) -> float:
        report = SurveyReport("x", {}, 1.0, None)
        for i in range(n):
            report.add(DealOutcome(i, "won" if i % 3 else "lost", 0.0))
        rate = report.win_rate()
        assert rate is not None
        return rate[2] - rate[1]

    assert width(30) > width(300) > width(3000)


# -- surveys --------------------------------------------------------------------------------------


def test_a_survey_counts_what_the_solver_finds() -> None:
    game = get_game("pattern")
    heard: list[int] = []
    report = run_survey(game, [4, 6, 1], node_limit=5, time_limit=None, on_outcome=lambda o: heard.append(o.number))
    assert heard == [4, 6, 1]
    for number in (4, 6):  # dealt with a side block that lacks its suit: proved lost, with the reason
        outcome = report.outcomes[number]
        assert outcome.status == "lost"
        assert outcome.reason == solve(game.deal(number), time_limit=None, node_limit=5).stats["reason"]
    assert report.outcomes[1].status == "unknown"  # five states are not enough to win it
    assert (report.count("won"), report.count("lost"), report.count("unknown")) == (0, 2, 1)
    assert report.numbers("lost") == [4, 6]


def test_won_deals_have_the_solvers_lines() -> None:
    game = get_game("path-36")
    report = run_survey(game, DealRange.parse("1-4"), time_limit=None, node_limit=NODES)
    for number in range(1, 5):
        solution = solve(game.deal(number), time_limit=None, node_limit=NODES)
        outcome = report.outcomes[number]
        assert outcome.status == solution.status == "won"
        assert outcome.length == len(solution.moves)
        assert outcome.nodes == solution.stats["nodes"]
    assert "4 of 4 deals won" in report.summary()


def test_worker_processes_find_what_one_process_finds() -> None:
    game = get_game("pyramid-52", passes=3)
    deals = DealRange.parse("1-12")
    alone = run_survey(game, deals, time_limit=None, node_limit=200_000)
    pool = run_survey(game, deals, time_limit=None, node_limit=200_000, jobs=2)
    assert sorted(pool.outcomes) == list(deals)
    for number in deals:
        a, b = alone.outcomes[number], pool.outcomes[number]
        assert (a.status, a.length, a.nodes) == (b.status, b.length, b.nodes)
    assert pool.to_json()["options"] == {"passes": 3, "relaxed": False}


def test_a_survey_needs_a_limit_and_a_worker() -> None:
    game = get_game("path-36")
    with pytest.raises(SurveyError, match="time limit or a node limit"):
        run_survey(game, [1], time_limit=None, node_limit=None)
    with pytest.raises(SurveyError, match="jobs must be 1 or more"):
        run_survey(game, [1], node_limit=10, jobs=0)


# -- the results file -----------------------------------------------------------------------------


def test_a_survey_resumes_from_its_file(tmp_path: Path) -> None:
    game = get_game("path-36")
    results = SurveyFile(tmp_path / "path-36.jsonl")
    first = run_survey(game, range(1, 4), time_limit=None, node_limit=NODES, results=results)
    heard: list[int] = []
    second = run_survey(game, range(1, 7), time_limit=None, node_limit=NODES, results=results,
                        on_outcome=lambda o: heard.append(o.number))
    assert heard == [4, 5, 6]  # deals 1-3 were read back, not solved again
    assert sorted(second.outcomes) == [1, 2, 3, 4, 5, 6]
    assert all(second.outcomes[n] == first.outcomes[n] for n in (1, 2, 3))
    lines = results.path.read_text().splitlines()
    assert json.loads(lines[0]) == {"survey": {"game": "path-36", "options": {}, "time_limit": None,
                                               "node_limit": NODES}}
    assert [json.loads(line)["number"] for line in lines[1:]] == [1, 2, 3, 4, 5, 6]


def test_a_file_of_another_survey_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    run_survey(get_game("path-36"), [1], time_limit=None, node_limit=NODES, results=SurveyFile(path))
    before = path.read_text()
    with pytest.raises(SurveyError, match="holds a survey of"):
        run_survey(get_game("path-36"), [1, 2], time_limit=None, node_limit=NODES + 1, results=SurveyFile(path))
    with pytest.raises(SurveyError, match="holds a survey of"):
        run_survey(get_game("path-52"), [1], time_limit=None, node_limit=NODES, results=SurveyFile(path))
    assert path.read_text() == before  # nothing written to a file that was refused


def test_a_damaged_file_says_where(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    run_survey(get_game("path-36"), [1, 2], time_limit=None, node_limit=NODES, results=SurveyFile(path))
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "{not json", lines[2]]) + "\n")
    with pytest.raises(SurveyError, match=r"line 2: not JSON"):
        SurveyFile(path).read(json.loads(lines[0])["survey"])
    path.write_text("\n".join([lines[0], json.dumps({"number": 1, "status": "maybe", "seconds": 1})]) + "\n")
    with pytest.raises(SurveyError, match=r"line 2: deal 1: the status must be one of won, lost, unknown"):
        SurveyFile(path).read(json.loads(lines[0])["survey"])


def test_a_line_cut_short_is_solved_again(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    game = get_game("path-36")
    run_survey(game, [1, 2], time_limit=None, node_limit=NODES, results=SurveyFile(path))
    text = path.read_text()
    path.write_text(text[: text.rindex("{") + 12])  # the last deal's line half written, as by a kill
    heard: list[int] = []
    report = run_survey(game, [1, 2, 3], time_limit=None, node_limit=NODES, results=SurveyFile(path),
                        on_outcome=lambda o: heard.append(o.number))
    assert heard == [2, 3]
    assert report.count("won") == 3
    numbers = [json.loads(line)["number"] for line in path.read_text().splitlines()[1:] if line.endswith("}")]
    assert sorted(set(numbers)) == [1, 2, 3]


# -- amber survey ---------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_amber_survey_prints_the_win_rate(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    out_file = tmp_path / "pattern.jsonl"
    status, out, err = run(capsys, monkeypatch, ["survey", "pattern", "--deals", "4-6", "--node-limit", "5",
                                                 "--out", str(out_file)])
    assert status == 0
    assert "pattern: 0 of 3 deals won (0.00%" in out
    assert "2 proved lost, 1 not decided" in out
    assert "lost: deal 4: the bottom-right block holds no clubs" in out
    assert "not decided: 5" in out
    assert "deal 6: proved lost" in err  # heard as it came
    assert len(out_file.read_text().splitlines()) == 4
    status, out, _ = run(capsys, monkeypatch, ["survey", "pattern", "-d", "4-6", "--node-limit", "5",
                                               "--out", str(out_file), "--json"])
    figures = json.loads(out)
    assert (figures["deals"], figures["won"], figures["lost"], figures["unknown"]) == (3, 0, 2, 1)
    assert figures["unknown_deals"] == [5]
    assert len(out_file.read_text().splitlines()) == 4  # resumed: nothing solved twice


@pytest.mark.parametrize("argv, says", [
    (["survey", "path-36", "--deals", "9-3"], "--deals: '9-3': the range ends before it starts"),
    (["survey", "path-36"], "the following arguments are required: --deals"),
    (["survey", "nope", "--deals", "1"], "unknown game 'nope'"),
    (["survey", "path-36", "-d", "1", "--jobs", "0"], "is not a whole number, 1 or more"),
    (["survey", "pyramid-52", "-d", "1", "-o", "passes=0"], "passes"),
])
def test_amber_survey_refuses_bad_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                        argv: list[str], says: str) -> None:
    status, out, err = run(capsys, monkeypatch, argv)
    assert status == 2
    assert says in err
    assert "Traceback" not in err and out == ""


def test_amber_survey_refuses_another_surveys_file(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    first = ["survey", "path-36", "-d", "1", "--node-limit", "3000", "--out", str(path)]
    assert run(capsys, monkeypatch, first)[0] == 0
    status, _, err = run(capsys, monkeypatch, ["survey", "path-52", "-d", "1", "--node-limit", "3000",
                                               "--out", str(path)])
    assert status == 2
    assert "holds a survey of" in err
