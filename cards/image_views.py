from django.http import Http404


def card_image(request, code):  # replaced by the card-image work
    raise Http404("Card images are not rendered yet.")
