"""What the paired benchmarks (bench/vol/paired, bench/posix/run --paired) share: the figure they
report for a layer, the median over every round of its paired ratio or difference, and how far
that median can be trusted.

Rounds of one process are not independent of each other (they share the process's address layout
and the host's mood while it ran), so the interval resamples whole processes, each with all of its
rounds (a cluster bootstrap): a process that ran in a slow phase then moves the interval as much
as it moves the figure, where an interval over rounds would pretend it was many independent draws.
"""
import random
import statistics

MIN_GROUPS = 5


def median_interval(groups, level=0.95, resamples=2000):
    """The median of all values in `groups` (one list per process) and the `level` interval of that
    median, (median, low, high); low and high are None with fewer than MIN_GROUPS groups, too few
    to resample."""
    groups = [g for g in groups if g]
    median = statistics.median(v for g in groups for v in g)
    if len(groups) < MIN_GROUPS:
        return median, None, None
    draw = random.Random(1)  # fixed: the same rounds give the same interval
    medians = sorted(
        statistics.median([v for _ in groups for v in groups[draw.randrange(len(groups))]])
        for _ in range(resamples))
    cut = int(resamples * (1 - level) / 2)
    return median, medians[cut], medians[-cut - 1]


def quartiles(values):
    values = sorted(values)
    q = len(values) // 4
    return values[q], values[-q - 1]


def interval_text(low, high, form, sep="–"):
    """`[low–high]` in `form` (a % format), or `[n/a]` when there was no interval."""
    return "[n/a]" if low is None else "[%s%s%s]" % (form % low, sep, form % high)
