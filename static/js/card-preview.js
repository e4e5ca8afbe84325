// Card image previews: hovering a card's name in a deck, a decklist or the decklist browser shows the
// card's image beside the pointer; keyboard focus shows it too. Links inside an element marked data-card-previews
// whose href is /cards/CODE/ get one. A touch has no hover: a tap follows the link to the card's page as before,
// and no preview appears (nothing to dismiss). The page works the same without this script.
(function () {
  "use strict";

  var CARD_LINK = /^\/cards\/([a-z0-9-]{1,32})\/$/;
  var WIDTH = 250, HEIGHT = 350, GAP = 16;
  var preview = null, current = null, lastX = 0, lastY = 0;

  function cardLink(node) {
    var link = node && node.closest ? node.closest("a[href]") : null;
    if (!link || !link.closest("[data-card-previews]") || link.querySelector("img")) return null;
    var match = CARD_LINK.exec(link.getAttribute("href"));
    return match ? {link: link, code: match[1]} : null;
  }

  function element() {
    if (!preview) {
      preview = document.createElement("img");
      preview.className = "card-preview";
      preview.alt = "";
      preview.setAttribute("aria-hidden", "true");
      preview.width = WIDTH;
      preview.height = HEIGHT;
      document.body.appendChild(preview);
    }
    return preview;
  }

  function place(x, y) {
    var img = element();
    lastX = x; lastY = y;
    var left = x + GAP, top = y - HEIGHT / 2;
    if (left + WIDTH > window.innerWidth - 4) left = x - GAP - WIDTH;   // no room on the right: on the left
    if (left < 4) left = 4;
    top = Math.max(4, Math.min(top, window.innerHeight - HEIGHT - 4));
    img.style.left = left + "px";
    img.style.top = top + "px";
  }

  function show(found, x, y) {
    var img = element();
    var src = "/cards/" + found.code + ".png?size=small";
    if (img.getAttribute("src") !== src) img.setAttribute("src", src);
    current = found.link;
    place(x, y);
    img.classList.add("is-shown");
  }

  function hide() {
    current = null;
    if (preview) preview.classList.remove("is-shown");
  }

  document.addEventListener("pointerover", function (event) {
    if (event.pointerType === "touch") return;
    var found = cardLink(event.target);
    if (found) show(found, event.clientX, event.clientY);
  });
  document.addEventListener("pointermove", function (event) {
    if (current && event.pointerType !== "touch") place(event.clientX, event.clientY);
  });
  document.addEventListener("pointerout", function (event) {
    if (!current) return;
    var to = event.relatedTarget;
    if (!to || !current.contains(to)) hide();
  });
  document.addEventListener("focusin", function (event) {
    var found = cardLink(event.target);
    if (!found || !found.link.matches(":focus-visible")) return;   // keyboard focus, not a click
    var box = found.link.getBoundingClientRect();
    show(found, box.right, box.top + box.height / 2);
  });
  document.addEventListener("focusout", hide);
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") hide(); });
  // Scrolling moves the page under a still pointer: keep the preview while the pointer is still on that link.
  window.addEventListener("scroll", function () {
    if (!current) return;
    var under = document.elementFromPoint(lastX, lastY);
    if (under && current.contains(under)) place(lastX, lastY); else hide();
  }, {passive: true});
})();
