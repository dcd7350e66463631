// The recorder's 52 cards as one tab stop (the W3C ARIA grid pattern), the play's links as the
// bid's checkboxes: Tab reaches the card picked (or the first one that can be picked) and
// leaves the grid; the arrow keys move a card at a time, Home and End to a row's ends,
// Ctrl+Home and Ctrl+End to the first and last card; Enter or Space picks a link's card,
// Space (or Enter) checks a checkbox's. Without this script each card is a tab stop.
(function () {
  "use strict";
  document.querySelectorAll("[data-card-grid]").forEach(function (grid) {
    var rows = Array.prototype.map.call(grid.querySelectorAll("[role=row]"), function (row) {
      return Array.prototype.map.call(row.querySelectorAll("[role=gridcell]"), function (cell) {
        // a cell's link takes the focus; a card seen already has none, so its cell does
        return cell.querySelector("a, input") || cell;
      });
    });
    var all = [].concat.apply([], rows);
    if (!all.length) return;
    all.forEach(function (el) { el.tabIndex = -1; });
    var start = grid.querySelector("a[aria-current]") || grid.querySelector("a.card-pick, input") || all[0];
    start.tabIndex = 0;

    function place(el) {
      for (var r = 0; r < rows.length; r++) {
        var c = rows[r].indexOf(el);
        if (c >= 0) return [r, c];
      }
      return null;
    }
    function move(to) {
      all.forEach(function (el) { el.tabIndex = -1; });
      to.tabIndex = 0;
      to.focus();
    }
    // a card reached another way (a tap, a click) becomes the grid's tab stop too
    grid.addEventListener("focusin", function (event) {
      if (place(event.target) && event.target.tabIndex !== 0) {
        all.forEach(function (el) { el.tabIndex = -1; });
        event.target.tabIndex = 0;
      }
    });
    grid.addEventListener("keydown", function (event) {
      var at = place(event.target);
      if (!at) return;
      var r = at[0], c = at[1], row = rows[r];
      var to = null;
      switch (event.key) {
        case "ArrowRight": to = row[c + 1] || (rows[r + 1] && rows[r + 1][0]); break;
        case "ArrowLeft": to = row[c - 1] || (rows[r - 1] && rows[r - 1][rows[r - 1].length - 1]); break;
        case "ArrowDown": to = rows[r + 1] && (rows[r + 1][c] || rows[r + 1][rows[r + 1].length - 1]); break;
        case "ArrowUp": to = rows[r - 1] && rows[r - 1][c]; break;
        case "Home": to = event.ctrlKey ? all[0] : row[0]; break;
        case "End": to = event.ctrlKey ? all[all.length - 1] : row[row.length - 1]; break;
        case " ":
        case "Enter":
          // a link follows Enter and a checkbox toggles on Space by themselves
          var native = event.target.tagName === "A" ? "Enter" : event.target.tagName === "INPUT" ? " " : "";
          if (event.key === native) return;
          if (native) event.target.click();
          event.preventDefault();
          return;
        default: return;
      }
      event.preventDefault();
      if (to) move(to);
    });
  });
})();
