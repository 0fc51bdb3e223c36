"""Thresholds a comparison can be read at, from the response times its curves are measured between."""

import math


def thresholds_within(low_ms: float, high_ms: float, *, most: int = 4) -> list[float]:
    """Thresholds a comparison can be read at when both curves are measured between ``low_ms`` and ``high_ms``:
    the lowest response time both reach, rounded up to two significant digits, and round values (1, 2, 5
    times a power of ten) up to ``high_ms``, at most ``most`` in all, spread over the range."""
    exponent = math.floor(math.log10(low_ms)) - 1
    lowest = round(math.ceil(low_ms / 10**exponent - 1e-9) * 10**exponent, -exponent)
    round_values = [
        round(mantissa * 10**power, max(-power, 0))
        for power in range(exponent + 1, math.floor(math.log10(high_ms)) + 1)
        for mantissa in (1, 2, 5)
        if lowest < mantissa * 10**power <= high_ms
    ]
    if len(round_values) > most - 1:
        step = (len(round_values) - 1) / (most - 2)
        round_values = [round_values[round(index * step)] for index in range(most - 1)]
    return [lowest, *round_values] if lowest <= high_ms else round_values
