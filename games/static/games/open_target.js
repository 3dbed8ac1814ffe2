/* A link to a folded section opens it: the status bar's "Standings" jumped to the <details> and left
   it closed, a second tap away. Chromium opens a <details> only for a target inside its folded part,
   not for the <details> itself. Without JavaScript the section is reached, still folded.
   And a link's target lands below the sticky supplies bar: the bar's height, as tall as its coins
   make it, is --supply-bar-height, which scroll-padding-top reads (aegea.css); without JavaScript
   the padding is a fixed room for three lines. */
(function () {
"use strict";
var bar = document.querySelector(".supply-bar");
function measureBar() {
  document.documentElement.style.setProperty("--supply-bar-height", bar.getBoundingClientRect().height + "px");
}
if (bar) {
  measureBar();
  if (window.ResizeObserver) { new ResizeObserver(measureBar).observe(bar); }
}
function openTarget() {
  var id = decodeURIComponent(location.hash.slice(1));
  var target = id && document.getElementById(id);
  if (target && target.tagName === "DETAILS") { target.open = true; }
}
window.addEventListener("hashchange", openTarget);
document.addEventListener("click", function (event) {  /* a second tap on the same link: no hashchange */
  var link = event.target.closest && event.target.closest("a[href^='#']");
  if (link && link.getAttribute("href") === location.hash) { openTarget(); }
});
if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", openTarget); } else { openTarget(); }
})();
