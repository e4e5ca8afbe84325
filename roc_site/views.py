from django.shortcuts import render


def home(request):
    return render(request, "home.html")


def games_context(request) -> dict:
    """The game switcher (templates/_nav_links.html): every registered game, and the one being browsed (the
    /<game>/ prefix; none means r1, CONTRACTS §7)."""
    from cards.games import registry

    match = getattr(request, "resolver_match", None)
    current = (match.kwargs.get("game") if match else None) or registry.DEFAULT
    try:
        game = registry.get(current)
    except registry.UnknownGame:
        game = registry.get(None)
    from simulator.games import GAMES as SIMULATED   # the hosted games with simulation pages (/<game>/simulate/)
    from simulator.games import STRATEGY_GAMES

    return {"site_games": registry.games(), "current_game": game,
            "game_prefix": game.prefix, "game_simulates": game.slug in SIMULATED,
            "game_strategies": game.slug in STRATEGY_GAMES}


def rules(request, game: str | None = None):
    """A game's rulebook (roc_site/rulebook.py): r1's at /rules/, every other game's at /<game>/rules/. Every
    numbered section has an anchor, so a page's citation of a rule (§6.2 S.8, §8) is a link to its text."""
    from django.http import Http404

    from cards.games import registry

    from . import rulebook

    spec = registry.get(game)
    try:
        body, toc, _ = rulebook.game_rendered(spec)
    except LookupError as exc:
        raise Http404(str(exc)) from None
    return render(request, "rules.html", {"rules_html": body, "toc": toc, "game": spec,
                                          "book": spec.rulebook})


def favicon(request):
    """/favicon.ico, which browsers and feed readers ask for whatever the page's <link rel="icon"> says: the site's
    icon (static/favicon.svg, under its hashed name in production)."""
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.http import HttpResponsePermanentRedirect

    return HttpResponsePermanentRedirect(staticfiles_storage.url("favicon.svg"))
