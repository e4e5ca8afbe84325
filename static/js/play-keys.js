// Keyboard shortcuts of the replay and the sandbox: a key follows the link that names it in
// data-key ("ArrowLeft", "[", "PageDown", ...). Served by the site itself (CSP: script-src 'self').
(function () {
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    var links = document.querySelectorAll("[data-key]");
    for (var i = 0; i < links.length; i++) {
      if (links[i].getAttribute("data-key") === e.key) {
        e.preventDefault();
        links[i].click();
        return;
      }
    }
  });
})();
