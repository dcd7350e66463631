// Live parts of a page: every element with data-live-url is fetched again every few seconds
// with the ETag it was last rendered at (If-None-Match); a 304 costs the server almost
// nothing, a 200 replaces the element's content. No framework: plain fetch.
//
// A part with data-push-url is pushed instead (server-sent events from the push process:
// "part" the whole part, "patch" the lines that changed since the last one, "changed" only
// that it changed: then it is fetched as a poll fetches it); it polls only while the stream
// is not open (the browser reconnects by itself, with the last event's id), and for good
// once the stream is refused or ended.
//
// A poll that fails (no connection, the server down, an error page) leaves the part as it
// was, so the page says so in a polite live region above it ("stopped updating"), and takes
// the words back at the first poll that gets through.
(function () {
  "use strict";
  var AFTER = 2; // failed polls in a row before the page says so (one can be a blip)

  // the time as the page's other times are shown: in the club's zone (data-time-zone on
  // <html>), not the phone's own
  function clock(date) {
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
  }

  function watch(el) {
    var url = el.getAttribute("data-live-url");
    var every = parseInt(el.getAttribute("data-live-ms") || "3000", 10);
    var etag = el.getAttribute("data-etag") || "";
    var busy = false;
    var failed = 0;
    var since = new Date();
    // present from the start (a region added at the moment it speaks is often not heard)
    var notice = document.createElement("p");
    notice.className = "live-lost offline";
    notice.setAttribute("role", "status");
    notice.setAttribute("aria-live", "polite");
    notice.setAttribute("data-live-lost", "");
    el.parentNode.insertBefore(notice, el);

    function reached() {
      failed = 0;
      since = new Date();
      if (notice.textContent) notice.textContent = "";
    }
    function lost() {
      failed += 1;
      if (failed < AFTER) return;
      notice.textContent = "No connection: this page stopped updating at " + clock(since) +
        ". It updates again by itself once the connection is back.";
    }
    function busyTyping() {
      // never replace a form someone is filling in
      var active = document.activeElement;
      if (el.querySelector("form[data-dirty]")) return true;
      return active && el.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
    }
    function show(html) {
      el.innerHTML = html;
      // what the page said about the last thing done ("Deal 2 entered…") described
      // the page as it was: the part now shows where things stand instead
      document.querySelectorAll("main > .messages").forEach(function (m) { m.remove(); });
      el.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
    }

    var stream = null;
    var text = null; // the part as the stream last sent it (the patches' base)
    var pending = null; // a pushed part held back while a form is being filled in
    var stale = false; // the stream said the part changed, and it is not fetched yet
    function streaming() { return stream !== null && stream.readyState === 1; }
    function pushed(html) {
      text = html;
      etag = ""; // the next poll, if any, fetches the part afresh
      if (busyTyping()) { pending = html; return; }
      pending = null;
      show(html);
    }
    function listen(url) {
      stream = new EventSource(url, { withCredentials: true });
      stream.addEventListener("open", reached);
      stream.addEventListener("part", function (e) { reached(); pushed(e.data); });
      stream.addEventListener("patch", function (e) {
        var patch = JSON.parse(e.data);
        if (text === null) { stream.close(); listen(url); return; } // start again, whole
        var lines = text.split("\n");
        patch.edits.forEach(function (edit) {
          lines.splice.apply(lines, [edit[0], edit[1] - edit[0]].concat(edit[2]));
        });
        reached();
        pushed(lines.join("\n"));
      });
      stream.addEventListener("changed", function () { reached(); stale = true; fetchPart(); });
      stream.addEventListener("end", function () { stream.close(); stream = null; });
      stream.addEventListener("error", function () {
        if (stream !== null && stream.readyState === 2) stream = null; // refused: poll
      });
    }

    function poll() {
      if (streaming()) {
        if (pending !== null && !busyTyping()) { var held = pending; pending = null; show(held); }
        if (stale) fetchPart();
        return;
      }
      fetchPart();
    }
    function fetchPart() {
      if (busy || document.hidden || busyTyping()) return;
      busy = true;
      var headers = { "X-Requested-With": "fetch" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, credentials: "same-origin", cache: "no-cache" })
        .then(function (response) {
          if (response.status === 304) { stale = false; return reached(); }
          if (response.status !== 200) return lost();
          stale = false;
          etag = response.headers.get("ETag") || "";
          return response.text().then(function (html) {
            reached();
            el.setAttribute("data-etag", etag);
            show(html);
          });
        })
        .catch(lost)
        .then(function () { busy = false; });
    }
    var pushUrl = el.getAttribute("data-push-url");
    if (pushUrl && window.EventSource) listen(pushUrl);
    setInterval(poll, every);
    document.addEventListener("visibilitychange", poll);
  }
  document.querySelectorAll("[data-live-url]").forEach(watch);
})();
