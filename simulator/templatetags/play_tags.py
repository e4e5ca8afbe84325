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
def game_summary(lines, first_name, second_name, cards=None, influence=None):
    """The sample log as a game summary (simulator/replay.py summary); `influence`, the game's Influence at the end
    of each round, gives each round its score."""
    from simulator.replay import summary
    return summary(list(lines or []), (first_name or "The deck", second_name or "The opponent"),
                   cards if isinstance(cards, dict) else None, influence if isinstance(influence, list) else None)


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


@register.filter
def rule_link(rule):
    """A cited rule ("§6.2 S.8") as a small link to its section of the rulebook page (/rules/); another game's
    rule ("002 §18") stays a small tag."""
    from django.utils.html import format_html
    from roc_site.rulebook import rule_href
    rule = str(rule or "")
    href = rule_href(rule)
    if not href:
        return format_html('<small class="rule-ref">{}</small>', rule)
    return format_html('<a class="rule-ref" href="{}" title="The rulebook, {}">{}</a>', href, rule, rule)


@register.filter
def cite(text):
    """Text whose rule citations (§5.1, S.8, Appendix A) become links to the rulebook page; the rest escaped."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe
    from roc_site.rulebook import link_citations
    return mark_safe(link_citations(escape(str(text or ""))))


@register.filter
def game_cite(text, game):
    """Text whose citations of `game`'s own rulebook become links to its rulebook page, shown without the source
    document's number ("002 §8" -> "§8", linked to /realms/rules/#s8); the rest escaped. `game` is the registry
    Game or its slug; r1's citations link as `cite` does."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe
    from roc_site.rulebook import link_game_citations
    return mark_safe(link_game_citations(escape(str(text or "")), game or None))
