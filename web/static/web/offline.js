// The phone pages as an app that works offline: registers the service worker the page's
// manifest link names (data-worker, its scope data-scope: /keep/). A browser without
// service workers, or a page not in a secure context (plain HTTP to another machine than
// this one), goes on as before: the page keeps what it could not send in any case
// (keeper.js); only a page closed while offline cannot be opened again until it is back.
(function () {
  "use strict";
  var link = document.querySelector("link[rel=manifest][data-worker]");
  if (!link || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  // once the page has loaded: the worker's install (the shell's files) waits for the page's own
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(link.getAttribute("data-worker"), {
      scope: link.getAttribute("data-scope"),
      updateViaCache: "none"
    }).catch(function () { /* no worker: the page works as a plain page */ });
  });
})();
