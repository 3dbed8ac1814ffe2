/* The order forms are folded on a phone; a wide screen has room to show them all. A tap on the
   board opens the form it fills (board.js). Without JavaScript every form opens with a tap on its
   title. */
(function () {
  "use strict";
  var forms = document.querySelectorAll("details.order");
  if (window.matchMedia("(min-width: 64rem)").matches) {
    forms.forEach(function (d) { d.open = true; });
  }
})();
