"""Numbers to a number of significant digits, as engineers write them (pure: no Django)."""

import math
from decimal import ROUND_HALF_UP, Decimal

# What a table or a sentence writes where there is no figure.
NO_FIGURE = "–"


def rounded_half_up(value: float, decimals: int) -> Decimal:
    """``value`` to ``decimals`` places, half up as the papers round (0.125 -> 0.13), not to even."""
    return Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def written(number: Decimal, decimals: int) -> str:
    """A rounded number with thousands separators and no trailing zeros after the point."""
    text = f"{number:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def significant(value: float | None, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, never rounding away whole digits (1,024, not 1,020),
    trailing zeros dropped (20, not 20.0): 0.0839169 gives "0.0839", 162.46 "162", 7.10 "7.1"."""
    if value is None or not math.isfinite(value):
        return NO_FIGURE
    if value == 0:
        return "0"
    decimals = significant_decimals(value, digits)
    return written(rounded_half_up(value, decimals), decimals)


def significant_decimals(value: float, digits: int = 3) -> int:
    """The digits after the point that keep ``digits`` significant digits of ``value`` (0 for whole digits
    beyond them): 0.0839169 needs 4, 54.46 needs 1, 1,024 none."""
    if value == 0 or not math.isfinite(value):
        return 0
    decimals = max(digits - 1 - math.floor(math.log10(abs(value))), 0)
    number = rounded_half_up(value, decimals)
    if decimals and number != 0 and math.floor(math.log10(abs(number))) > math.floor(math.log10(abs(value))):
        decimals -= 1  # 0.09996 rounds up to 0.1000: one digit fewer after the point
    return decimals
