"""python manage.py qmg_bench [--runs N]

Measures the engine on a full board (all 55 armies and navies): supply + straits + all six
victory steps + sudden victory, against a baseline measured in the same run (copying the
state through its JSON form). Prints figures; asserts nothing about time.
"""
import statistics
import time

from django.core.management.base import BaseCommand

from gameplay.qmg import Position, compute_supply, load_board, sudden_victory, validate_position, victory_phase_all
from gameplay.qmg.sample import full_board_position


def _time(fn, runs):
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


class Command(BaseCommand):
    help = "Benchmark a full evaluation of a full-board QMG position (figures only, no pass/fail)."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=2000)

    def handle(self, *args, runs, **options):
        board = load_board()
        position = full_board_position(board)
        validate_position(board, position)
        assert len(position.pieces) == 55

        def evaluate():
            supply = compute_supply(board, position)
            victory_phase_all(board, position, supply)
            sudden_victory(board, position)

        def copy_state():
            Position.from_dict(position.to_dict())

        evaluate(), copy_state()  # warm-up
        base_med, base_p95 = _time(copy_state, runs)
        med, p95 = _time(evaluate, runs)
        self.stdout.write(f"qmg_bench: {runs} runs, full board ({len(position.pieces)} pieces)")
        self.stdout.write(f"  full evaluation (supply+straits+6 victory steps+sudden victory): "
                          f"median {med * 1e6:.0f} us, p95 {p95 * 1e6:.0f} us (target: under 1000 us)")
        self.stdout.write(f"  baseline (copy the state via JSON dict): median {base_med * 1e6:.0f} us, "
                          f"p95 {base_p95 * 1e6:.0f} us")
        self.stdout.write(f"  ratio evaluation/baseline: {med / base_med:.1f}x")
