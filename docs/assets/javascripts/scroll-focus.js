/*
 * A table wider than the text column scrolls sideways inside Material's wrapper. Keyboard
 * users can scroll it only if the wrapper takes focus (WCAG 2.1.1; axe's rule
 * scrollable-region-focusable), so a wrapper whose table overflows gets tabindex="0", and
 * loses it when the window grows wide enough. Material wraps tables as it renders each page
 * (its document$ stream), so this runs then and on every resize.
 */
(function () {
  "use strict";

  function mark() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrap) {
      if (wrap.scrollWidth > wrap.clientWidth) wrap.setAttribute("tabindex", "0");
      else wrap.removeAttribute("tabindex");
    });
  }

  if (window.document$) window.document$.subscribe(mark);
  else document.addEventListener("DOMContentLoaded", mark);
  window.addEventListener("resize", mark);
})();
