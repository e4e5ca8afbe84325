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
