// The simulate page: choosing one of my saved decks fills its list at once (the deck's text from
// /api/decks/ID/export/), so nothing else typed on the page is lost; editing the list afterwards makes it a pasted
// list again. Without this script the "Load" button next to each choice does the same through the server. A choice
// with data-separator (a box of several lists, as on /tune/) adds the deck's list to the box after that line.
(function () {
  "use strict";

  document.querySelectorAll("select[data-fills]").forEach(function (select) {
    var area = document.getElementById(select.dataset.fills);
    var status = document.querySelector('[data-fills-status="' + select.dataset.fills + '"]');
    var load = select.parentNode.querySelector("[data-load-button]");
    if (!area) return;
    if (load) load.hidden = true;
    var loaded = select.value ? area.value : null;

    var say = function (text) { if (status) status.textContent = text; };

    select.addEventListener("change", function () {
      if (!select.value) { loaded = null; say("The list below is simulated as it is."); return; }
      var name = select.options[select.selectedIndex].textContent;
      say("Loading " + name + "…");
      fetch("/api/decks/" + encodeURIComponent(select.value) + "/export/?format=text",
            {credentials: "same-origin", headers: {"Accept": "text/plain"}})
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .then(function (text) {
          var sep = select.dataset.separator;
          if (sep && area.value.trim() && area.value.indexOf(text.trim()) < 0) {
            area.value = area.value.replace(/\s+$/, "") + "\n" + sep + "\n" + text;
          } else if (!sep || !area.value.trim()) {
            area.value = text;
          }
          loaded = area.value;
          say("Loaded " + name + ".");
          if (select.dataset.mode) {
            var radio = document.querySelector('input[name="mode"][value="' + select.dataset.mode + '"]');
            if (radio) radio.checked = true;
          }
        })
        .catch(function (error) {
          select.value = "";
          loaded = null;
          say("Could not load that deck (" + error.message + "); paste its list instead.");
        });
    });

    area.addEventListener("input", function () {
      if (loaded !== null && area.value !== loaded) {
        select.value = "";
        loaded = null;
        say("Edited: the list below is simulated as it is now.");
      }
    });
  });
})();
