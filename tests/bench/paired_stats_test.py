"""bench/paired_stats.py: the interval the paired benchmarks print next to a median must hold the
median, narrow as processes are added, widen when processes differ from each other (their
rounds are not independent draws), and be absent when there are too few processes to resample."""
import random
import statistics
import sys
import unittest

sys.path.insert(0, sys.argv.pop(1))
import paired_stats  # noqa: E402


def processes(n, rounds=10, spread=0.0, seed=7):
    """n processes of `rounds` ratios around 1.05, each process offset by up to `spread`."""
    draw = random.Random(seed)
    return [[1.05 + shift + draw.gauss(0, 0.05) for _ in range(rounds)]
            for shift in (draw.uniform(-spread, spread) for _ in range(n))]


class MedianInterval(unittest.TestCase):
    def test_holds_the_median_of_every_round(self):
        groups = processes(12)
        median, low, high = paired_stats.median_interval(groups)
        self.assertEqual(median, statistics.median(v for g in groups for v in g))
        self.assertLess(low, median)
        self.assertGreater(high, median)

    def test_narrows_with_more_processes(self):
        _, low, high = paired_stats.median_interval(processes(8))
        _, low_many, high_many = paired_stats.median_interval(processes(80))
        self.assertLess(high_many - low_many, (high - low) / 2)

    def test_processes_that_differ_widen_it(self):
        _, low, high = paired_stats.median_interval(processes(20))
        _, low_apart, high_apart = paired_stats.median_interval(processes(20, spread=0.05))
        self.assertGreater(high_apart - low_apart, 1.5 * (high - low))

    def test_too_few_processes_give_no_interval(self):
        median, low, high = paired_stats.median_interval(processes(paired_stats.MIN_GROUPS - 1))
        self.assertIsNone(low)
        self.assertIsNone(high)
        self.assertEqual(paired_stats.interval_text(low, high, "%.3f"), "[n/a]")

    def test_same_rounds_same_interval(self):
        self.assertEqual(paired_stats.median_interval(processes(9)), paired_stats.median_interval(processes(9)))

    def test_text(self):
        self.assertEqual(paired_stats.interval_text(1.0312, 1.0456, "%.3f"), "[1.031–1.046]")
        self.assertEqual(paired_stats.interval_text(-3, 12, "%+.0f", ".."), "[-3..+12]")
        self.assertEqual(paired_stats.quartiles([4, 1, 3, 2, 5, 6, 7, 8]), (3, 6))


if __name__ == "__main__":
    unittest.main()
