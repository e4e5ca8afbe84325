// The judge sandbox's card search: queries the site's own card API (CONTRACTS §4, §5 syntax) and adds
// a clicked card's code to the chosen zone field. Served by the site (CSP script-src 'self'); no inline script.
(function () {
  var q = document.getElementById("sb-q"), go = document.getElementById("sb-go"),
      zone = document.getElementById("sb-zone"), out = document.getElementById("sb-results");
  if (!q || !go || !out) return;
  function add(code) {
    var field = document.getElementById(zone.value);
    if (!field) return;
    if (field.tagName === "INPUT") { field.value = code; }
    else { field.value = (field.value.trim() ? field.value.trim() + " " : "") + code; }
    field.dispatchEvent(new Event("change"));
  }
  function search() {
    var text = q.value.trim();
    if (!text) return;
    out.textContent = "…";
    fetch("/api/cards/?q=" + encodeURIComponent(text), {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
      .then(function (res) {
        out.textContent = "";
        if (!res.ok) { var e = document.createElement("li"); e.className = "field-error"; e.textContent = res.body.detail || "search failed"; out.appendChild(e); return; }
        (res.body.results || []).slice(0, 24).forEach(function (c) {
          var li = document.createElement("li"), b = document.createElement("button");
          b.type = "button"; b.textContent = c.name; b.title = "adds its code, " + c.code + ", to the field"; b.setAttribute("data-code", c.code);
          b.addEventListener("click", function () { add(c.code); });
          li.appendChild(b); out.appendChild(li);
        });
        if (!out.children.length) { out.textContent = "No card matches."; }
      })
      .catch(function () { out.textContent = "The search is not available."; });
  }
  go.addEventListener("click", search);
  q.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); search(); } });
})();
