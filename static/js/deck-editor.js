// Deck editor, progressive enhancement (the page works without it: the decklist is a plain textarea).
// + / − buttons and keys edit the decklist text; the legality panel then refreshes through htmx.
(function () {
  "use strict";

  function editDeck(title, delta) {
    var area = document.getElementById("deck-text");
    if (!area || !title) return;
    var lines = area.value.split("\n");
    var key = title.toLowerCase();
    var found = false;
    for (var i = 0; i < lines.length; i++) {
      var m = lines[i].match(/^\s*(\d+)\s*[x\u00d7]?\s+(.+?)\s*$/i) || lines[i].match(/^\s*(.+?)\s+[x\u00d7](\d+)\s*$/i);
      if (!m) continue;
      var count = /^\d+$/.test(m[1]) ? m[1] : m[2];
      var name = /^\d+$/.test(m[1]) ? m[2] : m[1];
      if (name.replace(/^\u2022\s*/, "").toLowerCase() !== key) continue;
      var n = parseInt(count, 10) + delta;
      if (n > 0) { lines[i] = n + "x " + title; } else { lines.splice(i, 1); }
      found = true;
      break;
    }
    if (!found && delta > 0) lines.push("1x " + title);
    area.value = lines.join("\n");
    area.dispatchEvent(new Event("input", {bubbles: true}));
    var status = document.getElementById("edit-status");
    if (status) status.textContent = (delta > 0 ? "Added " : "Removed ") + "a copy of " + title + ".";
  }

  // Phone: the decklist, the card browser and the live deck are tabs (CSS shows one part per data-tab, only on
  // narrow screens); links that lead to a part (the quests step, the pinned legality summary) open its tab.
  var grid = document.querySelector(".editor-grid");
  function showTab(name) {
    if (!grid) return;
    grid.dataset.tab = name;
    document.querySelectorAll(".editor-tabs [data-tab]").forEach(function (tab) {
      tab.setAttribute("aria-current", tab.dataset.tab === name ? "true" : "false");
    });
  }
  showTab("list");

  document.addEventListener("click", function (event) {
    var tab = event.target.closest(".editor-tabs [data-tab]");
    if (tab) {
      event.preventDefault();
      showTab(tab.dataset.tab);
      document.querySelector(".editor-tabs").scrollIntoView({block: "start"});
      return;
    }
    if (event.target.closest('#live-summary a[href="#legality"]')) showTab("deck");
    if (event.target.closest("[data-browse-type]")) showTab("cards");
    var button = event.target.closest("[data-add], [data-remove]");
    if (button) {
      editDeck(button.dataset.add || button.dataset.remove, button.dataset.add ? 1 : -1);
      return;
    }
    var browse = event.target.closest("[data-browse-type]");
    if (browse) {
      var radio = document.querySelector('#browser-form input[name="type"][value="' + browse.dataset.browseType + '"]');
      if (radio) {
        event.preventDefault();
        radio.checked = true;
        radio.dispatchEvent(new Event("change", {bubbles: true}));
        document.getElementById("browser-h").scrollIntoView();
        document.getElementById("br-q").focus();
      }
    }
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var typing = target.matches("input, textarea, select");
    if (event.key === "/" && !typing) {
      var q = document.getElementById("br-q");
      if (q) { event.preventDefault(); q.focus(); }
      return;
    }
    var card = target.closest && target.closest(".browser-card");
    if (!card || typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      editDeck(card.dataset.card, 1);
    } else if (event.key === "-" || event.key === "\u2212" || event.key === "_" || event.key === "Delete") {
      event.preventDefault();
      editDeck(card.dataset.card, -1);
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      var next = event.key === "ArrowDown" ? card.nextElementSibling : card.previousElementSibling;
      if (next) { event.preventDefault(); next.focus(); }
    } else if (event.key === "Enter") {
      var link = card.querySelector(".browser-title");
      if (link) window.open(link.href, "_blank", "noopener");
    }
  });

  // "n in deck" beside each browser result, from the live deck list (whichever of the two was refreshed).
  function markInDeck() {
    var counts = {};
    document.querySelectorAll("#legality [data-in-deck]").forEach(function (li) {
      counts[li.dataset.inDeck.toLowerCase()] = li.dataset.count;
    });
    document.querySelectorAll("#browser-results .browser-card").forEach(function (card) {
      var badge = card.querySelector(".in-deck");
      if (!badge) return;
      var n = counts[card.dataset.card.toLowerCase()];
      badge.hidden = !n;
      badge.textContent = n ? n + " in deck" : "";
    });
    var quests = document.querySelector("#legality .verdict-counts strong:nth-of-type(2)");
    var step = document.getElementById("step-quests");
    if (quests && step) {
      document.getElementById("quest-count").textContent = quests.textContent + " / 7";
      step.classList.toggle("done", quests.textContent === "7");
    }
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target.id === "legality" || event.target.id === "browser-results") markInDeck();
  });

  // After each live refresh, the one-line summary (pinned to the bottom of a phone screen) follows the verdict.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target.id !== "legality") return;
    var summary = document.querySelector("#live-summary a");
    var verdict = event.target.querySelector(".verdict");
    if (!summary || !verdict) return;
    var counts = verdict.querySelectorAll(".verdict-counts strong");
    var required = verdict.querySelector(".required-draw");
    var legal = verdict.classList.contains("verdict-legal");
    summary.textContent = (legal ? "\u2713 Legal" : "\u2717 Not legal") + " \u00b7 " +
      (counts[0] ? counts[0].textContent : "0") + "/" + (required ? required.textContent : "60") + " draw \u00b7 " + (counts[1] ? counts[1].textContent : "0") + "/7 quests";
    summary.parentNode.classList.toggle("is-legal", legal);
  });

  // Owned copies set from the card browser (htmx posts the small form; the answer is 204 or a 400 message).
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target.closest && event.target.closest(".own-form");
    if (!form) return;
    var xhr = event.detail.xhr;
    var input = form.querySelector('input[name="count"]');
    var message = xhr.status === 204 ? "Saved: you own " + input.value + "." : (xhr.responseText || "Not saved.");
    form.setAttribute("data-state", xhr.status === 204 ? "saved" : "error");
    var status = document.getElementById("edit-status");
    if (status) status.textContent = message;
    input.setAttribute("title", message);
  });

  // The Faction and Destiny menus and the decklist text are one thing: choosing in a menu replaces that card's
  // line in the text, and the menus follow the text (the live check names the list's faction card and destiny),
  // so whatever the page shows is what Save stores. `*_shown` tells the server what the menus were drawn with.
  function lineCard(line) {
    var m = line.match(/^\s*(\d+)\s*[x\u00d7]?\s+(.+?)\s*$/i) || line.match(/^\s*(.+?)\s+[x\u00d7](\d+)\s*$/i);
    if (!m) return null;
    var name = /^\d+$/.test(m[1]) ? m[2] : m[1];
    return name.replace(/^\u2022\s*/, "").replace(/\s+\([^)]*\)(\s+\S+)?$/, "").replace(/\u2019/g, "'").toLowerCase();
  }

  function chooseIdentity(kind, select) {
    var area = document.getElementById("deck-text");
    if (!area) return;
    var names = {};
    select.querySelectorAll("option[value]").forEach(function (option) {
      if (!option.value) return;
      names[option.value.toLowerCase()] = true;
      names[option.dataset.title.replace(/\u2019/g, "'").toLowerCase()] = true;
    });
    var out = [], at = -1;
    area.value.split("\n").forEach(function (line) {
      var card = lineCard(line);
      if (card && names[card]) { if (at < 0) at = out.length; } else { out.push(line); }
    });
    var option = select.selectedOptions[0];
    if (select.value && option) {
      if (at < 0) {  // under its "Faction:" / "Destiny:" header when the list has one, else first
        at = 0;
        out.forEach(function (line, i) { if (line.trim().toLowerCase() === kind + ":") at = i + 1; });
      }
      out.splice(at, 0, "1x " + option.dataset.title);
    }
    while (out.length && !out[out.length - 1].trim() && out.length > 1 && !out[out.length - 2].trim()) out.pop();
    area.value = out.join("\n");
    document.getElementById("ed-" + kind + "-shown").value = select.value;
    area.dispatchEvent(new Event("input", {bubbles: true}));
    var status = document.getElementById("edit-status");
    if (status) status.textContent = select.value ? option.dataset.title + " is the deck's " + kind + " now." : "";
  }

  function showIdentity(kind) {
    var select = document.getElementById("ed-" + kind);
    if (!select) return;
    var option = select.selectedOptions[0];
    document.getElementById("step-" + kind).classList.toggle("done", !!select.value);
    if (kind === "destiny") {
      var rules = document.getElementById("destiny-chosen-rules");
      if (rules) rules.textContent = select.value ? option.dataset.name + ": " + option.dataset.rules : "";
    } else {
      var legal = document.getElementById("br-legal");
      var slug = select.value && option ? option.dataset.slug || "" : "";
      if (legal && legal.value !== slug && legal.querySelector('option[value="' + slug + '"]')) {
        legal.value = slug;
        legal.dispatchEvent(new Event("change", {bubbles: true}));
      }
    }
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.id === "ed-faction" || target.id === "ed-destiny") {
      var kind = target.id.slice(3);
      chooseIdentity(kind, target);
      showIdentity(kind);
    }
  });

  // After each live check: the menus show the list's faction card and destiny (none when it has 0 or 2+).
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target.id !== "legality") return;
    var identity = document.getElementById("live-identity");
    if (!identity) return;
    ["faction", "destiny"].forEach(function (kind) {
      var select = document.getElementById("ed-" + kind);
      if (!select) return;
      var code = identity.dataset[kind] || "";
      if (!select.querySelector('option[value="' + code + '"]')) code = "";
      if (select.value !== code) select.value = code;
      document.getElementById("ed-" + kind + "-shown").value = code;
      showIdentity(kind);
    });
  });
})();
