/* The one-tap zone of the status box (_deadline.html): here, after the preference form's zones. */
(function () {
  "use strict";
  var hint = document.getElementById("zone-hint");
  if (!hint) { return; }
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!zone || zone === hint.dataset.shown) { return; }
  /* Only a zone the preference form offers (the same list the server accepts). */
  var offered = Array.prototype.some.call(
    document.querySelectorAll("select[name='time_zone'] option"),
    function (option) { return option.value === zone; }
  );
  if (!offered) { return; }
  hint.elements.time_zone.value = zone;
  var button = hint.querySelector("button");
  button.textContent = button.dataset.label.replace("{zone}", zone);
  hint.hidden = false;
})();
