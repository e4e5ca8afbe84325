// Progressive enhancement: + / − in the card browser edit the decklist text, then the legality panel refreshes.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-add], [data-remove]");
  if (!button) return;
  var area = document.getElementById("deck-text");
  var title = button.dataset.add || button.dataset.remove;
  var delta = button.dataset.add ? 1 : -1;
  var lines = area.value.split("\n");
  var key = title.toLowerCase();
  var found = false;
  for (var i = 0; i < lines.length; i++) {
    var m = lines[i].match(/^\s*(\d+)\s*[x\u00d7]?\s+(.+?)\s*$/i);
    if (m && m[2].toLowerCase() === key) {
      var n = parseInt(m[1], 10) + delta;
      if (n > 0) { lines[i] = n + "x " + title; } else { lines.splice(i, 1); }
      found = true;
      break;
    }
  }
  if (!found && delta > 0) lines.push("1x " + title);
  area.value = lines.join("\n");
  area.dispatchEvent(new Event("input", {bubbles: true}));
});
