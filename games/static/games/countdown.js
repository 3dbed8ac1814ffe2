/* The status box's countdown (_deadline.html) ticks on while the page is open: the same words as the
   server's (games/words/countdown.py, countdown_patterns), counted from the server's time when it
   wrote them, so a phone whose clock is wrong still counts right. Without JavaScript the text
   stays as written. */
(function () {
  "use strict";
  var countdown = document.querySelector("#deadline .countdown[data-deadline]");
  if (!countdown) { return; }
  var words = countdown.dataset;
  var deadline = Number(words.deadline) * 1000;
  var skew = Number(words.written) * 1000 - Date.now(); /* the server's clock minus this one */
  var plural = null;
  try { plural = new Intl.PluralRules(document.documentElement.lang || undefined); } catch (e) { plural = null; }

  function fill(pattern, numbers) {
    return pattern.replace(/%\((\w+)\)d/g, function (_, name) { return String(numbers[name]); });
  }

  /* countdown_text's arithmetic: whole minutes left, then days, hours and minutes. */
  function text(now) {
    var minutes = Math.floor((deadline - now) / 60000);
    if (minutes <= 0) { return words.now; }
    var days = Math.floor(minutes / 1440);
    var hours = Math.floor((minutes % 1440) / 60);
    minutes = minutes % 60;
    if (days) {
      var form = plural ? plural.select(days) : (days === 1 ? "one" : "other");
      return fill(form === "one" ? words.dayOne : words.dayOther, { days: days, hours: hours });
    }
    if (hours) { return fill(words.hours, { hours: hours, minutes: minutes }); }
    return fill(words.minutes, { minutes: minutes });
  }

  function tick() {
    var shown = text(Date.now() + skew);
    if (countdown.textContent !== shown) { countdown.textContent = shown; }
  }

  window.setInterval(tick, 20000);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { tick(); } /* a phone woken after hours shows the time left now */
  });
})();
