// The time as the page's other times are shown: in the club's zone (data-time-zone on
// <html>), not the phone's own. ``window.seepClock(date)`` says it "HH:MM", for live.js (when
// a part stopped or paused updating) and keeper.js (when the server was last heard from).
(function () {
  "use strict";
  window.seepClock = function (date) {
    var zone = document.documentElement.getAttribute("data-time-zone");
    if (zone && window.Intl) {
      try {
        return new Intl.DateTimeFormat("en-GB", {
          hour: "2-digit", minute: "2-digit", hour12: false, timeZone: zone
        }).format(date);
      } catch (e) { /* an unknown zone: the phone's own clock below */ }
    }
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return pad(date.getHours()) + ":" + pad(date.getMinutes());
  };
})();
