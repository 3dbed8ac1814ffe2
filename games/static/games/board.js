/* Click-to-choose for the Move form. Only fills the form's own fields and asks the server for
   the cost (the engine computes it); without JavaScript the form works the same, typed by hand. */
(function () {
"use strict";
function start() {
  var wrap = document.querySelector(".board-picture-wrap");
  var form = document.getElementById("order-move");
  if (!wrap || !form || !wrap.dataset.moveCostUrl) { return; }
  var svg = wrap.querySelector("svg");
  var me = wrap.dataset.faction;
  var field = function (name) { return form.querySelector("[name='move-" + name + "']"); };
  var origin = field("origin");
  var slots = [1, 2, 3].map(function (i) {
    return { to: field("to" + i), phalanxes: field("phalanxes" + i) };
  }).filter(function (s) { return s.to; });
  var choice = wrap.querySelector(".board-choice");  /* the same answer under the board, for small screens */
  var output = document.createElement("output");
  output.id = "move-cost";
  output.setAttribute("aria-live", "polite");
  form.querySelector("button[type='submit']").before(output);
  document.querySelector(".board-help").hidden = false;
  svg.setAttribute("role", "group");  /* its Poleis become buttons, no longer one picture */

  function polis(space) { return svg.querySelector(".polis[data-space='" + space + "']"); }
  function phalanxesAt(space) {
    var g = polis(space), count = g && g.querySelector(".phalanxes");
    return count ? parseInt(count.textContent, 10) || 0 : 0;
  }
  function highlight() {
    svg.querySelectorAll(".polis").forEach(function (g) {
      var space = g.dataset.space;
      g.classList.toggle("chosen-origin", space === origin.value.trim().toUpperCase());
      g.classList.toggle("chosen-destination", slots.some(function (s) {
        return s.to.value.trim().toUpperCase() === space;
      }));
    });
  }
  function choose(g) {
    var space = g.dataset.space;
    var chosen = slots.filter(function (s) { return s.to.value.trim().toUpperCase() === space; });
    if (origin.value.trim().toUpperCase() === space) {
      origin.value = "";
      slots.forEach(function (s) { s.to.value = ""; });
    } else if (chosen.length) {
      chosen.forEach(function (s) { s.to.value = ""; });
    } else if (!origin.value.trim() && g.classList.contains("owner-" + me)) {
      origin.value = space;
    } else {
      var slot = slots.find(function (s) { return !s.to.value.trim(); }) || slots[slots.length - 1];
      slot.to.value = space;
      if (slot.phalanxes && !(parseInt(slot.phalanxes.value, 10) > 0)) {
        var sent = slots.reduce(function (n, s) {
          return s === slot ? n : n + (parseInt(s.phalanxes && s.phalanxes.value, 10) || 0);
        }, 0);
        slot.phalanxes.value = Math.max(phalanxesAt(origin.value.trim().toUpperCase()) - sent, 0);
      }
    }
    highlight();
    preview();
  }
  var pending = null;
  function show(text, className) {
    output.textContent = text;
    output.className = className;
    var route = [origin.value].concat(slots.map(function (s) { return s.to.value; }))
      .map(function (v) { return v.trim().toUpperCase(); }).filter(Boolean).join(" → ");
    choice.textContent = text ? route + ": " + text : "";
    choice.className = "board-choice " + className;
    choice.hidden = !text;
  }
  function preview() {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (name.indexOf("move-") === 0) { params.append(name, value); }
    });
    if (!origin.value.trim() && !slots[0].to.value.trim()) { show("", ""); return; }
    var url = wrap.dataset.moveCostUrl + "?" + params.toString();
    pending = url;
    fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        if (pending !== url) { return; }
        show(answer.text || answer.error || "", answer.error ? "preview-error" : "preview-cost");
        output.dataset.cost = answer.error ? "" : String(answer.cost);
        output.dataset.rule = answer.rule || "";
      })
      .catch(function () { show("", ""); });
  }
  svg.querySelectorAll(".polis").forEach(function (g) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    var title = g.querySelector("title");
    if (title) { g.setAttribute("aria-label", title.textContent); }
    g.addEventListener("click", function () { choose(g); });
    g.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(g); }
    });
  });
  var timer = null;
  form.addEventListener("input", function () {
    highlight();
    clearTimeout(timer);
    timer = setTimeout(preview, 250);
  });
  highlight();
  if (origin.value.trim()) { preview(); }
}
/* The Move form may come after the board on the page: wait until the whole page is read. */
if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
else { start(); }
})();
