// Live parts of a page: every element with data-live-url is fetched again every few seconds
// with the ETag it was last rendered at (If-None-Match); a 304 costs the server almost
// nothing, a 200 replaces the element's content. No framework: plain fetch.
//
// A poll that fails (no connection, the server down, an error page) leaves the part as it
// was, so the page says so in a polite live region above it ("stopped updating"), and takes
// the words back at the first poll that gets through.
(function () {
  "use strict";
  var AFTER = 2; // failed polls in a row before the page says so (one can be a blip)

  function clock(date) {
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
    function poll() {
      if (busy || document.hidden || busyTyping()) return;
      busy = true;
      var headers = { "X-Requested-With": "fetch" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, credentials: "same-origin", cache: "no-cache" })
        .then(function (response) {
          if (response.status === 304) return reached();
          if (response.status !== 200) return lost();
          etag = response.headers.get("ETag") || "";
          return response.text().then(function (html) {
            reached();
            el.innerHTML = html;
            el.setAttribute("data-etag", etag);
            // what the page said about the last thing done ("Deal 2 entered…") described
            // the page as it was: the part now shows where things stand instead
            document.querySelectorAll("main > .messages").forEach(function (m) { m.remove(); });
            el.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
          });
        })
        .catch(lost)
        .then(function () { busy = false; });
    }
    setInterval(poll, every);
    document.addEventListener("visibilitychange", poll);
  }
  document.querySelectorAll("[data-live-url]").forEach(watch);
})();
