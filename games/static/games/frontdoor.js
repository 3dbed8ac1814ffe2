/* The accept form of an invitation or an open seat (invitation.html, lobby_seat.html): an empty time
   zone field starts with the browser's own zone, which the player may change before accepting. */
(function () {
  "use strict";
  var field = document.querySelector(".frontdoor-form input[name='time_zone']");
  if (!field || field.value) { return; }
  try { field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { /* none */ }
})();
