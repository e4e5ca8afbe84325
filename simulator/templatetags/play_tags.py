"""Template helpers of the replay, playtest and sandbox pages."""
from django import template

register = template.Library()


@register.filter
def index(seq, i):
    """seq|index:i — the i-th item, or "" when there is none."""
    try:
        return seq[int(i)]
    except (IndexError, KeyError, TypeError, ValueError):
        return ""


@register.simple_tag
def game_summary(lines, first_name, second_name):
    """The sample log as a game summary (simulator/replay.py summary)."""
    from simulator.replay import summary
    return summary(list(lines or []), (first_name or "The deck", second_name or "The opponent"))


@register.filter
def get(mapping, key):
    """mapping|get:key — mapping[key], or None."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def possessive(name):
    """"You" -> "Your", "Camelot" -> "Camelot's"."""
    name = str(name)
    return "Your" if name == "You" else f"{name}'s"
