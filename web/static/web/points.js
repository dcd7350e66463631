// The card points of a deal's result as they are typed (the phone page, the recorder, the
// director's decision): the first team's box typed in fills the other with 100 - x until
// the other is typed in itself, the sum is checked as they are typed, and sweeps are counted
// with + and - buttons. A form marked data-check is checked; ``window.seepPoints.check``
// tells keeper.js whether a form may be sent.
(function () {
  "use strict";
  // --- the card points: they must add up to 100 -------------------------------------------
  function checkSum(form) {
    var a = form.querySelector("[name$=points_a]"), b = form.querySelector("[name$=points_b]");
    var out = form.querySelector("[data-sum]");
    if (!a || !b || !out) return true;
    if (form.getAttribute("data-check") === "optional" && a.value === "" && b.value === "") {
      out.textContent = "";  // a version is optional: none given is fine
      out.className = "sum";
      return true;
    }
    var x = parseInt(a.value, 10), y = parseInt(b.value, 10);
    var ok = !isNaN(x) && !isNaN(y) && x >= 0 && y >= 0 && x + y === 100;
    // the page's own words, in its language, where it gives them (data-say-*)
    var missing = out.getAttribute("data-say-missing") ||
      "Enter both teams' card points (they add up to 100).";
    var wrong = out.getAttribute("data-say-wrong") ||
      "{a} + {b} = {sum}: the card points must add up to 100.";
    if (isNaN(x) || isNaN(y)) out.textContent = missing;
    else if (ok) out.textContent = x + " + " + y + " = 100 ✓";
    else out.textContent = wrong.replace("{a}", x).replace("{b}", y).replace("{sum}", x + y);
    out.className = "sum " + (ok ? "ok" : "bad");
    var button = form.querySelector("button[type=submit]");
    if (button) button.setAttribute("aria-disabled", ok ? "false" : "true");
    return ok;
  }
  // delegated: the live part of the page replaces its forms when the match moves on
  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.hasAttribute("data-resend")) form.setAttribute("data-dirty", "");
    if (!form || !form.hasAttribute("data-check")) return;
    // the first box typed in (the reader's own team's, whichever side it is) fills the
    // other with 100 - x until the other is typed in itself
    var a = form.querySelector("[name$=points_a]"), b = form.querySelector("[name$=points_b]");
    if (a && b && (event.target === a || event.target === b)) {
      var typed = event.target, other = typed === a ? b : a;
      if (!form.getAttribute("data-lead")) form.setAttribute("data-lead", typed.name);
      if (typed.name !== form.getAttribute("data-lead")) {
        typed.setAttribute("data-touched", typed.value !== "" ? "1" : "");
      } else if (!other.getAttribute("data-touched")) {
        var x = parseInt(typed.value, 10);
        if (!isNaN(x) && x >= 0 && x <= 100) other.value = String(100 - x);
      }
    }
    checkSum(form);
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-step]") : null;
    if (!button) return;
    var input = document.getElementById(button.getAttribute("data-for"));
    var n = (parseInt(input.value, 10) || 0) + parseInt(button.getAttribute("data-step"), 10);
    input.value = String(Math.max(0, Math.min(24, n)));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.querySelectorAll("form[data-check]").forEach(function (form) {
    var a = form.querySelector("[name$=points_a]");
    if (a && a.value) checkSum(form);
  });

  window.seepPoints = { check: checkSum };
})();
