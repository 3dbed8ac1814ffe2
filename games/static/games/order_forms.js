/* The order forms are folded on a phone; a wide screen has room to show them all. Clicking a
   Polis on the board fills the Move form, so that form opens then. Without JavaScript every
   form opens with a tap on its title. */
(function () {
  "use strict";
  var forms = document.querySelectorAll("details.order");
  if (window.matchMedia("(min-width: 64rem)").matches) {
    forms.forEach(function (d) { d.open = true; });
  }
  function openMove(event) {
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") { return; }
    var move = document.getElementById("details-move");
    if (move && event.target.closest && event.target.closest(".polis")) { move.open = true; }
  }
  document.addEventListener("click", openMove, true);
  document.addEventListener("keydown", openMove, true);
})();
