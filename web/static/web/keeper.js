// The score-keeper's phone page: the card points checked as they are typed, sweeps counted
// with buttons, and every command kept on the phone until the server has it.
//
// A form marked data-resend is sent with fetch. Before sending, it is saved in the phone's
// IndexedDB (the outbox) with its client id (the idempotency key): if the connection drops,
// the phone keeps it, says so, lists it as waiting to be sent, and sends it again (every few
// seconds while the page is open, at once when the browser is back online, and when the
// page is opened again, even after it was closed: Safari and Firefox have no background
// sync, so the page sends, not the service worker). The server writes a command with a
// given client id once, so a resend after a lost answer is harmless; a client id is never
// used for a second command (a page kept on the phone may show a form with one already
// sent: it gets a new one). The page says where the phone stands (#phone-state): all sent,
// or waiting (n) with each command's deal, and when the server was last heard from, in the
// club's time. Its words are the template's (data attributes), to be translated there.
(function () {
  "use strict";
  var OLD_KEY = "seep-outbox"; // the outbox in localStorage, before IndexedDB
  var HEARD_KEY = "seep-heard";
  var RETRY_MS = 4000;
  var live = document.querySelector("[data-live-url]");
  var notice = document.getElementById("connection");
  var state = document.getElementById("phone-state");
  var retryTimer = null;
  var flushing = false;

  function words(name, fallback) {
    var text = state && state.getAttribute("data-" + name);
    return text || fallback;
  }

  // --- the outbox: IndexedDB (the "outbox" store, by client id, in the order made; "used":
  // the client ids sent, kept for good: a few bytes each, and a page the service worker kept
  // may be as old as the phone's cache), else localStorage where IndexedDB cannot be opened
  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
        var request = indexedDB.open("seep-phone", 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore("outbox", { keyPath: "id" });
          request.result.createObjectStore("used", { keyPath: "id" });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opened;
  }
  function tx(store, mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var t = d.transaction(store, mode);
        var result = work(t.objectStore(store));
        t.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        t.onerror = function () { reject(t.error); };
        t.onabort = function () { reject(t.error); };
      });
    });
  }
  function oldOutbox() {
    try { return JSON.parse(localStorage.getItem(OLD_KEY) || "[]"); } catch (e) { return []; }
  }
  function outbox() {
    return tx("outbox", "readonly", function (s) { return s.getAll(); }).then(function (items) {
      return items.sort(function (a, b) { return a.at - b.at; });
    }, function () { return oldOutbox(); });
  }
  function keep(item) {
    return tx("outbox", "readwrite", function (s) { s.put(item); }).catch(function () {
      localStorage.setItem(OLD_KEY, JSON.stringify(
        oldOutbox().filter(function (i) { return i.id !== item.id; }).concat([item])));
    });
  }
  function drop(id) {
    return db().then(function (d) {
      return new Promise(function (resolve) {
        var t = d.transaction(["outbox", "used"], "readwrite");
        t.objectStore("outbox").delete(id);
        t.objectStore("used").put({ id: id, at: Date.now() });
        t.oncomplete = resolve;
        t.onerror = resolve;
      });
    }, function () {
      localStorage.setItem(OLD_KEY, JSON.stringify(
        oldOutbox().filter(function (i) { return i.id !== id; })));
    });
  }
  function used(id) {
    return tx("used", "readonly", function (s) { return s.get(id); })
      .then(function (found) { return !!found; }, function () { return false; });
  }
  // what an older page kept in localStorage moves to IndexedDB (once it can be opened)
  function moveOld() {
    var items = oldOutbox();
    if (!items.length) return Promise.resolve();
    return db().then(function () {
      return Promise.all(items.map(function (item, i) {
        item.at = item.at || i;
        return tx("outbox", "readwrite", function (s) { s.put(item); });
      })).then(function () { localStorage.removeItem(OLD_KEY); });
    }, function () {});
  }

  // --- where the phone stands: sent, or waiting (n) and what; last heard from the server
  var clock = window.seepClock; // clock.js: in the club's zone
  function heard() {
    try { localStorage.setItem(HEARD_KEY, String(Date.now())); } catch (e) { /* full */ }
    show();
  }
  function lastHeard() {
    var at = parseInt(localStorage.getItem(HEARD_KEY) || "", 10);
    return isNaN(at) ? null : new Date(at);
  }
  function show() {
    if (!state) return Promise.resolve();
    return outbox().then(function (items) {
      var line = state.querySelector("[data-standing]");
      var list = state.querySelector("[data-waiting-list]");
      var when = lastHeard();
      var heardText = when ? " " + words("heard", "Last heard from the server at {time}.")
        .replace("{time}", clock(when)) : "";
      if (!items.length) {
        line.textContent = words("sent", "Sent: nothing is waiting on this phone.") + heardText;
        state.setAttribute("data-count", "0");
      } else {
        line.textContent = words("waiting", "Waiting to be sent ({n}):")
          .replace("{n}", String(items.length)) + heardText;
        state.setAttribute("data-count", String(items.length));
      }
      list.textContent = "";
      items.forEach(function (item) {
        var li = document.createElement("li");
        li.textContent = item.label || item.url;
        list.appendChild(li);
      });
    });
  }

  function say(text, kind) {
    if (!notice) {
      // a page with no region of its own (the pick list): the phone's standing line says it
      var line = state && state.querySelector("[data-said]");
      if (line) line.textContent = text;
      return;
    }
    // the region stays in the page, empty when it has nothing to say (site.css): one that
    // appears at the moment it speaks is often not heard
    notice.textContent = text;
    notice.className = kind || "";
  }
  // the page's CSRF token, else the cookie's (the pick list has no form: it sends what a
  // match's page left waiting)
  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    var found = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return found ? decodeURIComponent(found[1]) : "";
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
      headers: {
        "Accept": "application/json",
        "X-CSRFToken": csrf(),
        "X-Unsent-Entries": state ? state.getAttribute("data-count") || "0" : "0"
      }
    }).then(function (response) {
      heard();
      return response.json().then(function (answer) {
        if (answer.ok) {
          // the server keeps the message for the page loaded now, at the top, where it
          // has the focus (below): read whole, not cut off by a reload
          return drop(item.id).then(function () {
            setTimeout(refresh, parseInt(item.refreshMs || "0", 10)); // the form's own pause
            return "reload";
          });
        }
        if (answer.retry) throw new Error("retry");
        if (answer.moved) {
          // the other team's entry got there first: show it (with Confirm) at once; the
          // server keeps the words for the page loaded now (its banner, focused)
          return drop(item.id).then(function () {
            document.querySelectorAll("form[data-dirty]").forEach(function (f) {
              f.removeAttribute("data-dirty");
            });
            refresh();
            return "reload";
          });
        }
        // refused: nothing was written; the numbers stay in the form
        return drop(item.id).then(function () {
          say(answer.message, "sum bad");
          ready(item, answer.last_seq);
          return "refused";
        });
      }, function () {
        if (response.status === 403) {
          return drop(item.id).then(function () {
            say(words("ended", "Not sent: {what}. This phone may not send it any more (its session ended, or the team has a new link): sign in again, or give the numbers to the director.")
              .replace("{what}", item.label || item.url), "sum bad");
            ready(item);
            return "refused";
          });
        }
        throw new Error("retry");
      });
    });
  }

  // send what waits, the oldest first, one at a time: a command written makes the page
  // load again (and that page sends the next); a refused one is said, and the next goes
  function flush() {
    if (flushing) return;
    flushing = true;
    outbox().then(function (items) {
      if (!items.length) { flushing = false; return show(); }
      var item = items[0];
      if (!notice || !notice.textContent || notice.className === "offline") say(words("sending", "Sending…"), "");
      return send(item).then(function (how) {
        flushing = how === "reload"; // no second send while the page loads again
        return show().then(function () { if (how === "refused" && items.length > 1) retrySoon(); });
      }, function () {
        flushing = false;
        say(words("offline", "No connection. Your entry is kept on this phone and will be sent again by itself."), "offline");
        retrySoon();
        return show();
      });
    }).catch(function () { flushing = false; });
  }
  function retrySoon() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, RETRY_MS);
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

  // the command in words, for the list of what waits: its button ("Send deal 3",
  // "Confirm deal 3") and the card points typed, if any
  function label(form, submitter, data) {
    var button = submitter || form.querySelector("button[type=submit], button:not([type])");
    var text = button ? button.textContent.replace(/\s+/g, " ").trim() : "";
    if (data.points_a !== undefined && data.points_b !== undefined && data.points_a !== "") {
      text += " (" + data.points_a + " + " + data.points_b + ")";
    }
    return text;
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
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    var idInput = form.querySelector("[name=client_id]");
    used(data.client_id).then(function (sent) {
      // a page kept on the phone may hold a form whose client id was sent already: this is
      // a new command, so it gets a new id (the server would take it for the old one)
      if (sent) {
        data.client_id = newId();
        if (idInput) idInput.value = data.client_id;
      }
      // getAttribute: a field named "action" (the answer buttons) shadows form.action
      var item = { id: data.client_id, url: form.getAttribute("action"), fields: data,
                   refreshMs: form.getAttribute("data-refresh-ms"),
                   label: label(form, submitter, data), at: Date.now() };
      return keep(item);
    }).then(function () { show(); flush(); });
  });
  window.addEventListener("online", flush);
  document.addEventListener("seep:heard", heard); // live.js: a poll or a push got through
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flush();
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted) flush(); });
  // Safari and Firefox have no background sync: while the page is open it tries again
  setInterval(flush, 15000);

  // what the server said of the last thing done (the notification banner at the top of
  // the page loaded after it) has the focus, so a screen reader reads it first
  var banner = document.querySelector("main > .messages");
  if (banner) {
    banner.setAttribute("tabindex", "-1");
    banner.focus();
  }

  // an entry left from before (the page was closed while offline): send it now
  moveOld().then(show).then(flush, flush);
})();
