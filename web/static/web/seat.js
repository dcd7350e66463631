// The seat page of a digital match: tap a card, then one of the moves it can make.
//
// Opening a card's choices closes any other card's, and marks the form as being filled in,
// so the live part (live.js) is never replaced under the player's fingers; closing them all
// lets it update again. Sending is keeper.js's (kept on the phone until the server has it).
(function () {
  "use strict";
  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.matches || !opened.matches("details.play")) return;
    var form = opened.closest("form");
    if (!form) return;
    if (opened.open) {
      form.querySelectorAll("details.play[open]").forEach(function (other) {
        if (other !== opened) other.open = false;
      });
      form.setAttribute("data-dirty", "");
    } else if (!form.querySelector("details.play[open]")) {
      form.removeAttribute("data-dirty");
    }
  }, true);
})();
