// The wall screen: its panels (pairings, standings a page at a time, the bracket) shown one
// at a time, the next every few seconds, on a screen that never scrolls. When live.js brings
// new panels, the screen stays on the panel it was showing (panels keep their data-panel key).
(function () {
  "use strict";
  var root = document.getElementById("wall");
  if (!root) return;
  var seconds = parseInt(root.getAttribute("data-wall-seconds") || "12", 10);
  var pause = document.getElementById("wall-pause");
  var shown = null;
  var paused = false;
  function panels() {
    return Array.prototype.slice.call(root.querySelectorAll("[data-panel]"));
  }
  function indexOf(all, key) {
    for (var i = 0; i < all.length; i++) {
      if (all[i].getAttribute("data-panel") === key) return i;
    }
    return -1;
  }
  function show(index) {
    var all = panels();
    if (!all.length) return;
    index = ((index % all.length) + all.length) % all.length;
    all.forEach(function (panel, i) { panel.hidden = i !== index; });
    shown = all[index].getAttribute("data-panel");
    root.setAttribute("data-showing", shown);
  }
  function next() {
    if (paused) return;
    show(indexOf(panels(), shown) + 1);
  }
  root.classList.add("cycling");
  show(0);
  setInterval(next, seconds * 1000);
  root.addEventListener("live:updated", function () {
    show(Math.max(0, indexOf(panels(), shown)));
  });
  if (pause) {
    pause.hidden = false;
    pause.addEventListener("click", function () {
      paused = !paused;
      // its words in the page's language (wall.html's data-pause and data-resume)
      pause.textContent = paused
        ? pause.getAttribute("data-resume") || "Resume"
        : pause.getAttribute("data-pause") || "Pause";
      pause.setAttribute("aria-pressed", paused ? "true" : "false");
    });
  }
})();
