// A deck's and a decklist's page: copy the list as text, draw sample hands, and let the comments
// panel show its own error answers. Progressive enhancement: without this script the text is still there to
// select, "Draw a sample hand" is a link the server answers with a hand, and comments are plain forms.
(function () {
  "use strict";

  // ---- copy to the clipboard --------------------------------------------------------------------------------
  function copied(button, message) {
    var status = button.parentNode.querySelector(".copy-status");
    if (status) status.textContent = message;
  }

  function copyByHand(area, button) {
    // The Clipboard API needs a secure context; elsewhere the old way still works in every browser.
    var details = area.closest("details");
    if (details) details.open = true;
    area.focus();
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    copied(button, ok ? "Copied to the clipboard." : "Selected: press Ctrl+C (⌘C) to copy.");
  }

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var area = document.getElementById(button.dataset.copy);
    if (!area) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var lines = area.value.split("\n").filter(function (line) { return line.trim(); }).length;
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(area.value).then(function () {
          copied(button, "Copied " + lines + " lines to the clipboard.");
        }, function () { copyByHand(area, button); });
      } else {
        copyByHand(area, button);
      }
    });
  });

  // ---- sample hands ------------------------------------------------------------------------------------------
  var panel = document.getElementById("sample-hand");
  var data = document.getElementById("hand-deck");
  if (panel && data) {
    var deck = [];
    JSON.parse(data.textContent).forEach(function (card) {
      for (var i = 0; i < card.count; i++) deck.push(card);
    });
    var size = parseInt(panel.dataset.handSize, 10) || 7;
    var list = document.getElementById("hand-cards");
    var draw = document.getElementById("hand-draw");
    var more = document.getElementById("hand-more");
    var status = document.getElementById("hand-status");
    var library = [], hand = [];

    var random = function () {
      if (window.crypto && window.crypto.getRandomValues) {
        return window.crypto.getRandomValues(new Uint32Array(1))[0] / 4294967296;
      }
      return Math.random();
    };

    var shuffled = function (cards) {  // Fisher–Yates: every order equally likely
      var out = cards.slice();
      for (var i = out.length - 1; i > 0; i--) {
        var j = Math.floor(random() * (i + 1));
        var t = out[i]; out[i] = out[j]; out[j] = t;
      }
      return out;
    };

    var render = function () {
      list.textContent = "";
      hand.forEach(function (card) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = "/cards/" + card.code + "/";
        var img = document.createElement("img");
        img.src = "/cards/" + card.code + ".png?size=small";
        img.alt = card.title;
        img.width = 250;
        img.height = 350;
        link.appendChild(img);
        var title = document.createElement("span");
        title.className = "hand-card-title";
        title.textContent = card.title;
        item.appendChild(link);
        item.appendChild(title);
        list.appendChild(item);
      });
      more.hidden = false;
      more.disabled = library.length === 0;
      draw.textContent = "Draw a new hand";
      status.textContent = hand.length + " cards drawn; " + library.length + " left in the deck.";
    };

    draw.addEventListener("click", function (event) {
      event.preventDefault();
      library = shuffled(deck);
      hand = library.splice(0, size);
      render();
    });
    more.addEventListener("click", function () {
      if (!hand.length) { library = shuffled(deck); }
      if (library.length) hand.push(library.shift());
      render();
    });
    if (list.children.length) {  // a hand the server drew (?hand=1): "one more" goes on from it
      var drawn = Array.prototype.map.call(list.querySelectorAll("a"), function (a) {
        return a.getAttribute("href").split("/")[2];
      });
      var rest = deck.slice();
      hand = drawn.map(function (code) {
        var at = rest.findIndex(function (card) { return card.code === code; });
        return at < 0 ? null : rest.splice(at, 1)[0];
      }).filter(Boolean);
      library = shuffled(rest);
    }
  }

  // ---- comments: an error answer (400, 429) is a panel with the message and the text kept: show it -------------
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if ((status === 400 || status === 429) && event.detail.target && event.detail.target.id === "comments") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
