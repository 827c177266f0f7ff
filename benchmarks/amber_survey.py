"""Survey of the Amber layouts: solve deals 1..1000 of each layout and list every deal not won.

    python benchmarks/amber_survey.py [--layouts path-36 ...] [--deals 1-1000] [--time-limit 60]
                                      [--jobs 2] [--out-dir DIR]

The seed texts claim every deal of every Amber layout can be won. A deal listed as "proved lost"
is a counter-example with its reason (a block dealt no card of a kind its goal needs: see
docs/rules.md). A deal listed as "not won" is only a deal the solver did not win in its time
limit (its search proves no loss): a candidate to look at, not a proof. Every won solution is
replayed by the rules engine. It runs on ``amber_patience.survey`` (as ``amber survey`` does) and adds the
solution length against the deal's lower bound; seconds are CPU seconds of the solving process (and of the plans
it races on a second core with --jobs 1: a worker of --jobs 2 does not race).
With ``--out-dir`` each layout's results go to ``DIR/<layout>.jsonl`` and a run stopped half-way resumes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from amber_patience.games import get_game
from amber_patience.games.amber import GAMES
from amber_patience.survey import DealOutcome, SurveyFile, run_survey

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from amber_solver import parse_range, percentile


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layouts", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--deals", type=parse_range, default=parse_range("1-1000"))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal (default 60)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1: the machine is shared)")
    parser.add_argument("--out-dir", type=Path, help="keep each layout's results in DIR/<layout>.jsonl (resumable)")
    parser.add_argument("--progress", type=int, default=0, help="print a progress line every N deals")
    args = parser.parse_args(argv)
    print(f"Amber survey: deals {args.deals[0]}..{args.deals[-1]}, time limit {args.time_limit:g} s per deal, "
          f"{args.jobs} process(es)", flush=True)
    for name in args.layouts:
        game = get_game(name)
        done = 0

        def heard(outcome: DealOutcome, name: str = name) -> None:
            nonlocal done
            done += 1
            if outcome.status == "lost":
                print(f"  {name}: deal {outcome.number} PROVED LOST: {outcome.reason}", flush=True)
            elif outcome.status == "unknown":
                print(f"  {name}: deal {outcome.number} NOT WON in {outcome.seconds:.1f} s CPU ({outcome.nodes} nodes)",
                      flush=True)
            if args.progress and done % args.progress == 0:
                print(f"  {name}: {done} deals decided in this run", flush=True)

        t_start = time.perf_counter()
        results = None
        if args.out_dir is not None:
            args.out_dir.mkdir(parents=True, exist_ok=True)
            results = SurveyFile(args.out_dir / f"{name}.jsonl")
        report = run_survey(game, args.deals, time_limit=args.time_limit, jobs=args.jobs, results=results,
                            on_outcome=heard)
        outcomes = [report.outcomes[number] for number in args.deals]
        seconds = [o.seconds for o in outcomes]
        ratios = []
        for o in outcomes:
            if o.status == "won" and o.length is not None:
                bound = game.deal(o.number).lower_bound()
                ratios.append(o.length / bound if bound else 1.0)
        lost, not_won = report.numbers("lost"), report.numbers("unknown")
        print(f"{name}: {report.count('won')}/{len(outcomes)} won; proved lost: {len(lost)} "
              f"({' '.join(map(str, lost)) or 'none'}); not won in time: {' '.join(map(str, not_won)) or 'none'}; "
              f"median {statistics.median(seconds):.2f} s, p95 {percentile(seconds, 0.95):.2f} s, "
              f"max {max(seconds):.2f} s (CPU); median length/bound "
              f"{statistics.median(ratios) if ratios else float('nan'):.2f}; "
              f"total {time.perf_counter() - t_start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
