// The print page's button prints the page. A file of its own, not an inline onclick: the
// Content-Security-Policy runs no inline script.
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
