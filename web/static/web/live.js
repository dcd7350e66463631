// Live parts of a page: every element with data-live-url is fetched again every few seconds
// with the ETag it was last rendered at (If-None-Match); a 304 costs the server almost
// nothing, a 200 replaces the element's content. No framework: plain fetch.
(function () {
  "use strict";
  function watch(el) {
    var url = el.getAttribute("data-live-url");
    var every = parseInt(el.getAttribute("data-live-ms") || "3000", 10);
    var etag = el.getAttribute("data-etag") || "";
    var busy = false;
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
          if (response.status === 200) {
            etag = response.headers.get("ETag") || "";
            return response.text().then(function (html) {
              el.innerHTML = html;
              el.setAttribute("data-etag", etag);
              el.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
            });
          }
        })
        .catch(function () { /* offline: try again at the next tick */ })
        .then(function () { busy = false; });
    }
    setInterval(poll, every);
    document.addEventListener("visibilitychange", poll);
  }
  document.querySelectorAll("[data-live-url]").forEach(watch);
})();
