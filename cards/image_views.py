"""GET /cards/CODE.png — a card's image, rendered once and then served from the disk cache (cards/images.py).

`?size=small` gives the thumbnail (250x350), `?size=large` the 1000x1400 print size; the default is 500x700.
Responses carry Cache-Control and an ETag derived from the card's data, so browsers revalidate cheaply and get a
304 until the card (or its illustration) is edited.
"""
from django.http import FileResponse, Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.utils.http import parse_etags
from django.views.decorators.http import require_safe

from .images import SIZES, card_cache_key, card_png
from .models import Card

CACHE_CONTROL = "public, max-age=3600"


def _matches(if_none_match: str, etag: str) -> bool:
    if not if_none_match:
        return False
    tags = parse_etags(if_none_match)
    # Weak comparison (RFC 9110 §13.1.2): W/"x" matches "x".
    return "*" in tags or etag in tags or etag in (t.removeprefix("W/") for t in tags)


@require_safe
def card_image(request, code: str) -> HttpResponse:
    size = request.GET.get("size", "normal")
    if size not in SIZES:
        return JsonResponse({"detail": f"Unknown size {size!r}; use one of: {', '.join(SIZES)}."}, status=400)
    try:
        card = Card.objects.select_related("faction", "card_set").get(code=code)
    except Card.DoesNotExist:
        raise Http404(f"No card with code {code!r}.") from None
    key = card_cache_key(card)
    etag = f'"{key}-{size}"'
    if _matches(request.headers.get("If-None-Match", ""), etag):
        response = HttpResponseNotModified()
    else:
        image = card_png(card, size, key=key)
        if image.png is not None:
            response = HttpResponse(image.png, content_type="image/png")
        else:
            try:
                response = FileResponse(open(image.path, "rb"), content_type="image/png")
            except FileNotFoundError:  # removed between the check and the open (a concurrent edit's clean-up)
                response = HttpResponse(card_png(card, size, key=key).read(), content_type="image/png")
    response["ETag"] = etag
    response["Cache-Control"] = CACHE_CONTROL
    return response
