"""python manage.py qmg_bench [--runs N] [--moves M]

Measures the engine on a full board (all 55 armies and navies): supply + straits + all six
victory steps + sudden victory, against a baseline measured in the same run (copying the
state through its JSON form). Then the cost of an undo's replay: a game of M moves rebuilt by
re-applying its commands (what the event log does) against folding the table operations those
moves caused (what it did before the log stored commands only). Prints figures; asserts nothing
about time.
"""
import statistics
import time

from django.core.management.base import BaseCommand

from gameplay.qmg import Position, compute_supply, load_board, sudden_victory, validate_position, victory_phase_all
from gameplay.qmg.sample import full_board_position
from gameplay.qmg.stepper import QmgStepper
from gameplay.qmg.table import apply_ops


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
        parser.add_argument("--moves", type=int, default=500)

    def handle(self, *args, runs, moves, **options):
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
        self._replay(board, moves, max(3, runs // 200))

    def _replay(self, board, moves, runs):
        """An undo replays the log: commands through the rules vs the old folding of operations."""
        stepper = QmgStepper(board)
        start = stepper.new_state()
        commands, ops, table = [], [], start
        # each country discards a card unused and runs the rest of its turn: a long, legal game
        turn = ({"type": "play_card", "card_type": "discard_unused"}, {"type": "end_play"}, {"type": "supply"},
                {"type": "score"}, {"type": "discard", "n": 0}, {"type": "draw"})
        while len(commands) < moves and not table.finished:
            for command in turn:
                command = stepper.prepare(table, command, None)
                out = stepper.apply(table, command)
                if not out.ok:
                    raise RuntimeError(f"qmg_bench: {command} refused: {out.reason.en}")
                commands.append(command)
                ops.append(list(out.changes))
                table = out.state
        assert stepper.replay(start, commands) == table

        def fold():
            t = start
            for o in ops:
                t = apply_ops(t, o)
            return t

        med_cmd, p95_cmd = _time(lambda: stepper.replay(start, commands), runs)
        med_ops, p95_ops = _time(fold, runs)
        self.stdout.write(f"  undo replay of {len(commands)} moves by commands (the log now): "
                          f"median {med_cmd * 1e3:.1f} ms, p95 {p95_cmd * 1e3:.1f} ms")
        self.stdout.write(f"  baseline, folding the same moves' operations (before): "
                          f"median {med_ops * 1e3:.1f} ms, p95 {p95_ops * 1e3:.1f} ms "
                          f"(ratio {med_cmd / med_ops:.1f}x)")
