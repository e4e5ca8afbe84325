from django import template

register = template.Library()


@register.filter
def pct(value, digits: int = 1) -> str:
    """0.3154 -> '31.5%'; None -> '–'."""
    if value is None or value == "":
        return "–"
    try:
        return f"{100 * float(value):.{int(digits)}f}%"
    except (TypeError, ValueError):
        return "–"


def _one(value) -> str:
    return f"{100 * float(value):.1f}"


@register.filter
def ci_pct(ci) -> str:
    """A rate's 95% interval in percentages, the site's one way of writing it: (0.938, 0.964) -> '93.8–96.4%'."""
    try:
        return f"{_one(ci[0])}–{_one(ci[1])}%"
    except (TypeError, ValueError, IndexError, KeyError):
        return "–"


@register.filter
def rate_ci(rate, ci) -> str:
    """A rate with its interval: 0.95, (0.938, 0.964) -> '95.0% (93.8–96.4%)'."""
    return f"{pct(rate)} ({ci_pct(ci)})" if ci else pct(rate)


def _signed(value) -> str:
    return f"{100 * float(value):+.1f}".replace("-", "−")


@register.filter
def points(delta) -> str:
    """A difference of two rates in percentage points: 0.032 -> '+3.2 points'."""
    try:
        return f"{_signed(delta)} points"
    except (TypeError, ValueError):
        return "–"


@register.filter
def points_ci(ci) -> str:
    """The 95% interval of a difference of rates, in points: (-0.01, 0.074) -> '−1.0 to +7.4 points'."""
    try:
        return f"{_signed(ci[0])} to {_signed(ci[1])} points"
    except (TypeError, ValueError, IndexError, KeyError):
        return "–"
