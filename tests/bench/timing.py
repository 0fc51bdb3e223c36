"""Alternating timing and the benchmark's report table."""

import statistics
import time


def alternate(candidate, baseline, *, repeat):
    """Run both ``repeat`` times in turn; (median candidate s, median baseline s, median ratio)."""
    pairs = []
    for _ in range(repeat):
        pairs.append((_seconds(candidate), _seconds(baseline)))
    ratio = statistics.median(c / b for c, b in pairs)
    return statistics.median(c for c, _ in pairs), statistics.median(b for _, b in pairs), ratio


def _seconds(function):
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


class Report:
    """The table printed at the end: goal, what was measured, the target and whether it is met."""

    def __init__(self):
        self.rows = []

    def add(self, goal, measured, target, met, detail=""):
        self.rows.append((goal, measured, target, "met" if met else "NOT MET", detail))
        print(f"  {goal}: {measured} (goal {target}) {'met' if met else 'NOT MET'} {detail}", flush=True)

    def print(self):
        print("\n| goal | measured | target | | detail |\n|---|---|---|---|---|")
        for row in self.rows:
            print("| " + " | ".join(row) + " |")


def rounds(functions, *, repeat, before=None, after=None):
    """Each function of ``{name: function}`` once per round, in turn, ``repeat`` rounds; their seconds by name.
    ``before()`` and ``after(name)`` run untimed around each (emptying tables, checking what was stored)."""
    seconds = {name: [] for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            if before is not None:
                before()
            seconds[name].append(_seconds(function))
            if after is not None:
                after(name)
    return seconds
