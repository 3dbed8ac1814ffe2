/* Orders on the board: a row of order buttons under the board picks the kind; taps on the board fill
   that kind's form (Move: your Polis, then up to three destinations, drawn as a split from it;
   Expand: an offered empty space; Recruit, Fortify: an offered Polis). Which spaces are offered
   comes from the forms' own lists of legal values (the engine's legal orders; a Move's, per
   origin, from the lists "dl-move-from-<origin>"); the preview of every form is asked of the
   server, which asks the engine, and under it a button sends the form. Nothing here decides a
   rule, and without JavaScript every form works the same, typed by hand. */
(function () {
"use strict";
var SVG_NS = "http://www.w3.org/2000/svg";
function start() {
  var wrap = document.querySelector(".board-picture-wrap");
  var modes = document.getElementById("board-modes");
  if (!wrap || !wrap.dataset.moveCostUrl) { return; }
  var svg = wrap.querySelector("svg");
  var me = wrap.dataset.faction;
  var previewUrl = wrap.dataset.moveCostUrl;
  var choice = wrap.querySelector(".board-choice");  /* the answer under the board, for small screens */
  var help = document.querySelector(".board-help");
  var refusal = wrap.querySelector(".board-refusal");  /* why a tap filled in nothing, under the board */
  var up = function (v) { return (v || "").trim().toUpperCase(); };
  /* The order being built is sent from under its preview: the form's own submit, by its form= */
  var send = document.createElement("button");
  send.type = "submit";
  send.className = "board-send";
  send.hidden = true;
  choice.after(send);
  var mode = document.getElementById("order-move") ? "move" : "";

  function formOf(kind) { return document.getElementById("order-" + kind); }
  function field(kind, name) {
    var form = formOf(kind);
    return form && form.querySelector("[name='" + kind + "-" + name + "']");
  }
  function offered(kind, name) {  /* the engine's legal values of a field, as the form lists them */
    var list = document.getElementById("dl-" + kind + "-" + name);
    return list ? Array.prototype.map.call(list.options, function (o) { return o.value; }) : [];
  }
  function polis(space) { return svg.querySelector("[data-space='" + space + "']"); }
  function phalanxesAt(space) {
    var g = polis(space), count = g && g.querySelector(".phalanxes");
    return count ? parseInt(count.textContent, 10) || 0 : 0;
  }

  /* --- Move (S-MOVE): the fields of the Move form ------------------------------------------ */
  var origin = field("move", "origin");
  var slots = [1, 2, 3].map(function (i) {
    return { to: field("move", "to" + i), phalanxes: field("move", "phalanxes" + i) };
  }).filter(function (s) { return s.to; });
  /* A destination tapped away leaves no gap: the rows after it move up (a Move's first row is the
     one the form requires), and the emptied last row gets the form's first values again. */
  var ROW = ["to", "phalanxes", "king", "navigators", "builders"];
  function closeGaps() {
    var rows = [1, 2, 3].map(function (i) {
      return ROW.map(function (name) { return field("move", name + i); });
    }).filter(function (r) { return r[0]; });
    var read = function (f) { return f.type === "checkbox" ? f.checked : f.value; };
    var kept = rows.filter(function (r) { return up(r[0].value); }).map(function (r) {
      return r.map(function (f) { return f ? read(f) : null; });
    });
    rows.forEach(function (r, i) {
      r.forEach(function (f, j) {
        if (!f) { return; }
        var value = kept[i] ? kept[i][j] : (f.type === "checkbox" ? f.defaultChecked : f.defaultValue);
        if (f.type === "checkbox") { f.checked = value; } else { f.value = value; }
      });
    });
  }

  /* --- the previews: one <output> per form, the Move's keeps its old id ------------------------ */
  var outputs = {};
  document.querySelectorAll("form.order-form").forEach(function (form) {
    var kind = form.id.replace("order-", "");
    var output = form.querySelector("output.order-preview");
    if (!output) { return; }
    if (kind === "move") { output.id = "move-cost"; }
    outputs[kind] = output;
    var timer = null;
    form.addEventListener("input", function () {
      highlight();
      clearTimeout(timer);
      timer = setTimeout(function () { preview(kind); }, 250);
    });
  });
  var asked = {};
  function show(kind, text, className) {
    var output = outputs[kind];
    if (!output) { return; }
    output.textContent = text;
    output.className = "order-preview " + className;
    output.hidden = !text;
    if (kind !== mode) { return; }
    var where = "", next = className === "preview-next";  /* the words of what next name the space */
    if (kind === "move") {
      var to = slots.map(function (s) { return up(s.to.value); }).filter(Boolean);
      where = [up(origin.value), to.join(", ")].filter(Boolean).join(" → ");
    } else if (field(kind, "space")) {
      where = up(field(kind, "space").value);
    }
    choice.textContent = text ? (where && !next ? where + ": " : "") + text : "";
    choice.className = "board-choice " + className;
    choice.hidden = !text;
    /* Only an order the engine would take has a button: it says what it sends, e.g.
       "Give the order: Move (C3 → D4)", with the words of the form's own button. */
    var form = formOf(kind), own = form && form.querySelector("button[type='submit']"), was = send.hidden;
    send.hidden = !(text && className === "preview-cost" && own);
    if (!send.hidden) {
      send.setAttribute("form", form.id);
      send.textContent = own.textContent.trim() + (where ? " (" + where + ")" : "");
      /* A long preview (a warning, German) can push it under a phone's screen: the least scroll shows it. */
      if (was) { send.scrollIntoView({ block: "nearest" }); }
    }
  }
  /* S-MOVE: a Move with its origin and no destination yet is not asked of the server (it would
     answer with the form's "required"): it says what to tap next, or that the engine offers no
     Move from there (the words on #board-modes). */
  function halfMade() {
    var from = up(origin && origin.value);
    if (!from || slots.some(function (s) { return up(s.to.value); })) { return false; }
    var words = modes && modes.dataset[offered("move", "from-" + from).length ? "nextMove" : "nextMoveNone"];
    asked.move = "";
    show("move", (words || "").replace("{space}", from), "preview-next");
    outputs.move.dataset.cost = "";
    outputs.move.dataset.rule = "";
    return true;
  }
  function filled(kind) {
    if (kind === "move") { return up(origin.value) || (slots[0] && up(slots[0].to.value)); }
    var space = field(kind, "space");
    return space ? up(space.value) : true;
  }
  function preview(kind) {
    var form = formOf(kind);
    if (!form || !outputs[kind]) { return; }
    if (!filled(kind)) { show(kind, "", ""); return; }
    if (kind === "move" && halfMade()) { return; }
    var params = new URLSearchParams();
    params.append("kind", kind);
    new FormData(form).forEach(function (value, name) {
      if (name.indexOf(kind + "-") === 0) { params.append(name, value); }
    });
    var url = previewUrl + "?" + params.toString();
    asked[kind] = url;
    fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        if (asked[kind] !== url) { return; }
        show(kind, answer.text || answer.error || "", answer.error ? "preview-error" : "preview-cost");
        outputs[kind].dataset.cost = answer.error ? "" : String(answer.cost);
        outputs[kind].dataset.rule = answer.rule || "";
      })
      .catch(function () { show(kind, "", ""); });
  }

  /* --- what the board shows: offered spaces, the chosen ones, the Move's split ----------------- */
  var split = document.createElementNS(SVG_NS, "g");
  split.setAttribute("class", "move-split");
  svg.appendChild(split);
  function centre(space) {
    var g = polis(space);
    if (!g || !g.getBBox) { return null; }
    var box = g.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  }
  function drawSplit() {
    while (split.firstChild) { split.removeChild(split.firstChild); }
    var from = mode === "move" ? centre(up(origin.value)) : null;
    if (!from) { return; }
    slots.forEach(function (s) {
      var to = centre(up(s.to.value));
      if (!to) { return; }
      var line = document.createElementNS(SVG_NS, "line");
      line.setAttribute("x1", from[0]); line.setAttribute("y1", from[1]);
      line.setAttribute("x2", to[0]); line.setAttribute("y2", to[1]);
      line.setAttribute("data-to", up(s.to.value));
      split.appendChild(line);
    });
  }
  function offeredNow() {
    if (mode === "move" && origin) {  /* your Poleis a Move starts from; then where one from it goes */
      var from = up(origin.value);
      if (!from) { return offered("move", "origin"); }
      var to = slots.map(function (s) { return up(s.to.value); });
      return offered("move", "from-" + from).filter(function (space) { return to.indexOf(space) < 0; });
    }
    if (mode === "expand") { return offered("expand", "space").concat(offered("expand", "link_from")); }
    if (mode === "recruit" || mode === "fortify") { return offered(mode, "space"); }
    return [];
  }
  function highlight() {
    var offers = offeredNow();
    var chosen = [];
    if (mode === "move" && origin) {
      chosen = slots.map(function (s) { return up(s.to.value); });
    } else if (field(mode, "space")) {
      chosen = [up(field(mode, "space").value), up(field(mode, "link_from") && field(mode, "link_from").value)];
    }
    svg.querySelectorAll("[data-space]").forEach(function (g) {
      var space = g.dataset.space;
      g.classList.toggle("chosen-origin", mode === "move" && !!origin && space === up(origin.value));
      g.classList.toggle("chosen-destination", chosen.indexOf(space) >= 0);
      g.classList.toggle("offered", offers.indexOf(space) >= 0);
    });
    drawSplit();
  }

  /* --- a tap on the board --------------------------------------------------------------------- */
  /* A tap the Move cannot take says why ("Origin", "Destination": the words on #board-modes, in the
     page's language); the next tap it takes, or another order's button, clears it. */
  function refuse(why) {
    if (refusal) { refusal.textContent = (why && modes && modes.dataset["refuse" + why]) || ""; }
  }
  /* true when the tap filled in the Move; else why not (S-MOVE: from one of your Poleis, to Poleis). */
  function chooseForMove(g) {
    var space = g.dataset.space;
    if (!g.classList.contains("polis")) { return up(origin.value) ? "Destination" : "Origin"; }
    var chosen = slots.filter(function (s) { return up(s.to.value) === space; });
    if (up(origin.value) === space) {
      origin.value = "";
      slots.forEach(function (s) { s.to.value = ""; });
    } else if (chosen.length) {
      chosen.forEach(function (s) { s.to.value = ""; });
      closeGaps();
    } else if (!up(origin.value)) {
      if (!g.classList.contains("owner-" + me)) { return "Origin"; }  /* the Polis panel opens too */
      origin.value = space;
    } else {
      var slot = slots.find(function (s) { return !up(s.to.value); }) || slots[slots.length - 1];
      slot.to.value = space;
      if (slot.phalanxes && !(parseInt(slot.phalanxes.value, 10) > 0)) {
        var count = function (s) { return parseInt(s.phalanxes && s.phalanxes.value, 10) || 0; };
        var sent = slots.reduce(function (n, s) { return s === slot ? n : n + count(s); }, 0);
        var left = phalanxesAt(up(origin.value)) - sent;
        if (left <= 0) {
          /* All were sent already: a split takes half of the largest share (the player tapped a
             second destination, so they mean to send some there), rather than 0 and a refusal. */
          var largest = slots.reduce(function (a, s) { return s !== slot && count(s) > count(a) ? s : a; }, slot);
          left = Math.floor(count(largest) / 2);
          if (largest !== slot && left > 0) { largest.phalanxes.value = count(largest) - left; }
        }
        slot.phalanxes.value = Math.max(left, 0);
      }
    }
    return true;
  }
  function chooseForSpace(g) {
    var space = g.dataset.space;
    var target = field(mode, "space");
    if (mode === "expand" && offered("expand", "link_from").indexOf(space) >= 0) {
      target = field("expand", "link_from");
    } else if (offered(mode, "space").indexOf(space) < 0) {
      return false;
    }
    target.value = up(target.value) === space ? "" : space;
    return true;
  }
  function choose(g, event) {
    var taken = mode === "move" ? chooseForMove(g) : (mode && field(mode, "space") ? chooseForSpace(g) : false);
    refuse(taken === true ? "" : taken);
    if (taken !== true) { return; }
    event.preventDefault();  /* the tap was an order's: the Polis panel stays shut */
    var details = document.getElementById("details-" + mode);
    if (details) { details.open = true; }
    highlight();
    preview(mode);
  }

  /* --- the row of order buttons above the board ---------------------------------------------- */
  var bar = document.createElement("div");
  bar.className = "board-modes";
  bar.setAttribute("role", "toolbar");
  if (modes) { bar.setAttribute("aria-label", modes.dataset.label); }
  var hint = help || document.createElement("p");
  function pick(kind) {
    mode = kind;
    refuse("");
    bar.querySelectorAll("button").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.kind === kind ? "true" : "false");
    });
    if (modes) {
      var words = modes.dataset["hint" + kind.charAt(0).toUpperCase() + kind.slice(1)];
      hint.textContent = words || modes.dataset.hintForm;
    }
    hint.hidden = false;
    var details = document.getElementById("details-" + kind);
    if (details) { details.open = true; }
    if (!field(kind, "space") && kind !== "move" && details) {
      details.scrollIntoView({ block: "nearest" });
    }
    choice.hidden = true;
    send.hidden = true;
    highlight();
    preview(kind);
  }
  document.querySelectorAll("details.order").forEach(function (details) {
    var kind = details.id.replace("details-", "");
    if (!formOf(kind) || kind === "choose_tile" || kind === "commit_coins") { return; }
    var button = document.createElement("button");
    button.type = "button";
    button.dataset.kind = kind;
    button.textContent = details.querySelector("summary").textContent;
    /* Its name says it is the board's ("…: Pass"), not the suggested order of the same words. */
    if (modes) { button.setAttribute("aria-label", modes.dataset.label + " " + button.textContent); }
    button.addEventListener("click", function () { pick(kind); });
    bar.appendChild(button);
  });
  if (bar.children.length) {
    /* Under the board, the hint under the buttons: a phone's first screen keeps the board itself. */
    /* Under the board and its zoom button (board_zoom.js), not inside the zoomed board's frame. */
    (wrap.querySelector("button.board-zoom") || svg).after(bar);
    if (help) { bar.after(help); }
    if (mode) { bar.querySelector("[data-kind='" + mode + "']").setAttribute("aria-pressed", "true"); }
  }
  if (help) { help.hidden = false; }
  svg.setAttribute("role", "group");  /* its spaces become buttons, no longer one picture */

  svg.querySelectorAll("[data-space]").forEach(function (g) {
    g.setAttribute("tabindex", g.classList.contains("polis") ? "0" : "-1");
    g.setAttribute("role", "button");
    var title = g.querySelector("title");
    if (title) { g.setAttribute("aria-label", title.textContent); } else { g.setAttribute("aria-label", g.dataset.space); }
    g.addEventListener("click", function (event) { choose(g, event); });
    g.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { choose(g, event); }
    });
  });
  highlight();
  if (origin && up(origin.value)) { preview("move"); }
}
/* The forms may come after the board on the page: wait until the whole page is read. */
if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
else { start(); }
})();
