// The score-keeper's phone page: the card points checked as they are typed, sweeps counted
// with buttons, and every command kept on the phone until the server has it.
//
// A form marked data-resend is sent with fetch. Before sending, it is saved in localStorage
// with its client id (the idempotency key): if the connection drops, the phone keeps it,
// says so, and sends it again (every few seconds, and at once when the browser is back
// online). The server writes a command with a given client id once, so a resend after a
// lost answer is harmless.
(function () {
  "use strict";
  var KEY = "seep-outbox";
  var live = document.querySelector("[data-live-url]");
  var notice = document.getElementById("connection");
  var retryTimer = null;

  function outbox() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function save(items) { localStorage.setItem(KEY, JSON.stringify(items)); }
  function drop(id) { save(outbox().filter(function (item) { return item.id !== id; })); }
  function say(text, kind) {
    if (!notice) return;
    // the region stays in the page, empty when it has nothing to say (site.css): one that
    // appears at the moment it speaks is often not heard
    notice.textContent = text;
    notice.className = kind || "";
  }
  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function refresh() {
    if (live) live.removeAttribute("data-etag");
    window.location.reload();
  }

  function newId() {
    // crypto.randomUUID needs a secure context; a club's server may be plain HTTP on its LAN
    var out = "";
    for (var i = 0; i < 32; i++) out += Math.floor(Math.random() * 16).toString(16);
    return out;
  }
  // after a refusal: the form can be sent again, at the match's head, as a new command
  function ready(item, head) {
    document.querySelectorAll("form[data-resend]").forEach(function (form) {
      if (form.getAttribute("action") !== item.url) return;
      var id = form.querySelector("[name=client_id]");
      if (!id || id.value !== item.id) return;
      id.value = newId();
      var seq = form.querySelector("[name=expected_seq]");
      if (seq && typeof head === "number") seq.value = String(head);
      form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    });
  }

  function send(item) {
    var body = new URLSearchParams();
    Object.keys(item.fields).forEach(function (name) {
      [].concat(item.fields[name]).forEach(function (value) { body.append(name, value); });
    });
    return fetch(item.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": csrf() }
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (answer.ok) {
          // the server keeps the message for the page loaded now, at the top, where it
          // has the focus (below): read whole, not cut off by a reload
          drop(item.id);
          setTimeout(refresh, parseInt(item.refreshMs || "0", 10)); // the form's own pause
          return;
        }
        if (answer.retry) throw new Error("retry");
        if (answer.moved) {
          // the other team's entry got there first: show it (with Confirm) at once; the
          // server keeps the words for the page loaded now (its banner, focused)
          drop(item.id);
          document.querySelectorAll("form[data-dirty]").forEach(function (f) {
            f.removeAttribute("data-dirty");
          });
          refresh();
          return;
        }
        drop(item.id); // refused: nothing was written; the numbers stay in the form
        say(answer.message, "sum bad");
        ready(item, answer.last_seq);
      }, function () {
        if (response.status === 403) {
          drop(item.id);
          say("Your session has ended: sign in again (in another tab). Your entry is still in the form.", "sum bad");
          ready(item);
          return;
        }
        throw new Error("retry");
      });
    });
  }

  function flush() {
    var items = outbox();
    if (!items.length) return;
    var item = items[0];
    say("Sending…", "");
    send(item).catch(function () {
      say("No connection. Your entry is kept on this phone and will be sent again by itself.", "offline");
      clearTimeout(retryTimer);
      retryTimer = setTimeout(flush, 4000);
    });
  }

  function fields(form) {
    var out = {};
    new FormData(form).forEach(function (value, name) {
      // a field given more than once (the recorder's cards) keeps every value
      if (!(name in out)) out[name] = value;
      else out[name] = [].concat(out[name], [value]);
    });
    return out;
  }

  // More sweeps than a deal usually has (a slip of the + button) are asked about once: the
  // second tap on Send sends them.
  var MANY_SWEEPS = 5;
  function sureOfSweeps(form) {
    var many = [];
    form.querySelectorAll("input[name^=sweeps_]").forEach(function (input) {
      var n = parseInt(input.value, 10);
      if (n >= MANY_SWEEPS) {
        var label = form.querySelector("label[for='" + input.id + "']");
        var what = label ? label.textContent.replace(/,.*$/, "").trim() : "sweeps";
        many.push(n + " " + what.charAt(0).toLowerCase() + what.slice(1));
      }
    });
    var asked = many.join(" and ");
    if (!asked || form.getAttribute("data-sure") === asked) return true;
    form.setAttribute("data-sure", asked);
    say(asked + "? That is more than a deal usually has: check it, and tap Send again to send it.", "sum bad");
    return false;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-resend")) return;
    event.preventDefault();
    if (form.hasAttribute("data-check") && window.seepPoints && !window.seepPoints.check(form)) return;
    if (!sureOfSweeps(form)) return;
    var data = fields(form);
    var submitter = event.submitter;
    if (submitter && submitter.name) data[submitter.name] = submitter.value;
    // getAttribute: a field named "action" (the answer buttons) shadows form.action
    var item = { id: data.client_id, url: form.getAttribute("action"), fields: data,
                 refreshMs: form.getAttribute("data-refresh-ms") };
    save(outbox().filter(function (i) { return i.id !== item.id; }).concat([item]));
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    flush();
  });
  window.addEventListener("online", flush);

  // what the server said of the last thing done (the notification banner at the top of
  // the page loaded after it) has the focus, so a screen reader reads it first
  var banner = document.querySelector("main > .messages");
  if (banner) {
    banner.setAttribute("tabindex", "-1");
    banner.focus();
  }

  // an entry left from before (the page was closed while offline): send it now
  flush();
})();
