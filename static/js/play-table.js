// The playtest table's and the sandbox's cards, enlarged: hovering or focusing a card (anything with
// data-card-img) shows its image at a readable size beside it; on a touch screen a tap shows it and a second tap,
// or a tap elsewhere, hides it. Served by the site (CSP script-src 'self'); the page works without it.
(function () {
  "use strict";
  var W = 250, H = 350, GAP = 12, preview = null, shown = null;
  function el() {
    if (!preview) {
      preview = document.createElement("img");
      preview.className = "pt-preview";
      preview.alt = "";
      preview.setAttribute("aria-hidden", "true");
      document.body.appendChild(preview);
    }
    return preview;
  }
  function show(node) {
    var img = el(), r = node.getBoundingClientRect();
    var w = window.innerWidth < 800 ? 200 : W, h = window.innerWidth < 800 ? 280 : H;
    img.src = node.getAttribute("data-card-img");
    var x = r.right + GAP;
    if (x + w > window.innerWidth - 4) x = r.left - w - GAP;
    if (x < 4) x = Math.max(4, (window.innerWidth - w) / 2);
    var y = Math.min(Math.max(4, r.top + r.height / 2 - h / 2), window.innerHeight - h - 4);
    img.style.left = x + "px";
    img.style.top = Math.max(4, y) + "px";
    img.hidden = false;
    shown = node;
  }
  function hide() { if (preview) preview.hidden = true; shown = null; }
  function card(t) { return t && t.closest ? t.closest("[data-card-img]") : null; }
  var touch = false;
  document.addEventListener("touchstart", function () { touch = true; }, {passive: true, capture: true});
  document.addEventListener("mouseover", function (e) { if (touch) return; var c = card(e.target); if (c) show(c); });
  document.addEventListener("mouseout", function (e) { if (touch) return; var c = card(e.target); if (c && !c.contains(e.relatedTarget)) hide(); });
  document.addEventListener("focusin", function (e) { var c = card(e.target); if (c && !touch) show(c); });
  document.addEventListener("focusout", function (e) { if (card(e.target) && !touch) hide(); });
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("button, a[href]:not([data-card-img])")) return;
    var c = card(e.target);
    if (!c) { hide(); return; }
    if (c.tagName === "A") e.preventDefault();
    if (shown === c) hide(); else show(c);
  });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") hide(); });
  document.addEventListener("htmx:afterSwap", hide);
})();
