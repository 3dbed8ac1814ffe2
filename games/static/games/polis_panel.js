/* The Polis panel: a tap on a Polis of the board shows what the server wrote about it (the list
   "The Poleis, one by one" under the board, games/board/polis_facts.py). No rule is read here.
   A tap the order picker took (board.js calls preventDefault) is the order's, not the panel's. */
(function () {
"use strict";
function start() {
  var wrap = document.querySelector("#board .board-picture-wrap");
  var panel = document.getElementById("polis-panel");
  if (!wrap || !panel) { return; }
  var body = panel.querySelector(".panel-body");
  var svg = wrap.querySelector("svg");
  var opener = null;
  function close() {
    panel.hidden = true;
    body.textContent = "";
    if (opener) { opener.classList.remove("panel-open"); opener = null; }
  }
  function open(g) {
    var facts = document.getElementById("polis-" + g.dataset.space);
    if (!facts) { return; }
    if (opener) { opener.classList.remove("panel-open"); }
    body.textContent = "";
    body.appendChild(facts.cloneNode(true)).removeAttribute("id");
    opener = g;
    g.classList.add("panel-open");
    panel.hidden = false;
  }
  function polisOf(event) {
    var target = event.target;
    return target && target.closest ? target.closest(".polis[data-space]") : null;
  }
  svg.querySelectorAll(".polis[data-space]").forEach(function (g) {
    if (!g.hasAttribute("tabindex")) { g.setAttribute("tabindex", "0"); }
  });
  /* On the wrap, so board.js's own listeners on each Polis run first and may take the tap. */
  wrap.addEventListener("click", function (event) {
    var g = polisOf(event);
    if (g && !event.defaultPrevented) { open(g); }
  });
  wrap.addEventListener("keydown", function (event) {
    var g = polisOf(event);
    if (g && !event.defaultPrevented && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      open(g);
    }
  });
  panel.querySelector(".close").addEventListener("click", close);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !panel.hidden) { close(); }
  });
}
if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
else { start(); }
})();
