/* The board at twice its width on a phone, one tap away: its tile names and the key are small print
   at 390 px. The zoomed board scrolls inside its frame, and opens on the reader's own Poleis (else
   the middle of the sea). Tapping a Polis still opens its panel. Without JavaScript the button
   stays hidden and the browser's own pinch-zoom does the same. */
(function () {
"use strict";
function start() {
  document.querySelectorAll(".board-picture-wrap").forEach(function (wrap) {
    var button = wrap.querySelector("button.board-zoom");
    var frame = wrap.querySelector(".board-frame");
    if (!button || !frame) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var zoomed = !wrap.classList.contains("board-zoomed");
      wrap.classList.toggle("board-zoomed", zoomed);
      button.setAttribute("aria-pressed", zoomed ? "true" : "false");
      button.textContent = zoomed ? button.dataset.zoomOut : button.dataset.zoomIn;
      if (zoomed) { openOn(wrap, frame); }
    });
  });
}
function openOn(wrap, frame) {
  var own = wrap.dataset.faction && frame.querySelector(".polis.owner-" + wrap.dataset.faction);
  var target = own || frame.querySelector("svg");
  var box = target.getBoundingClientRect(), view = frame.getBoundingClientRect();
  frame.scrollLeft += box.left + box.width / 2 - (view.left + view.width / 2);
  frame.scrollTop += box.top + box.height / 2 - (view.top + view.height / 2);
}
if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
