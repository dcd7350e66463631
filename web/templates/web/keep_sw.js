{% autoescape off %}// The phone pages' service worker (web/views/offline.py serves it, scope /keep/).
//
// It keeps on the phone, in the Cache Storage, only:
// - the page shell: the static files the phone pages load (kept at install, then served from
//   the phone first);
// - the pages of /keep/ the server marked as a phone's own (the X-Seep-Offline header: the
//   pick list and a match's phone page of a team or a score-keeper, never a director's),
//   fetched from the server first and kept as it answered, shown from the phone only when
//   the server cannot be reached.
// Nothing else is kept, whatever a page fetches: not a seat page (a player's cards), not the
// recorder, not a desk, board or admin page, not an API answer, not a team link's address.
// Commands (POST) always go to the server: what could not be sent waits in the page's
// IndexedDB (keeper.js) and is sent again by the page, not by the worker.
"use strict";

var VERSION = {{ version }};
var CACHE = "seep-keep-" + VERSION;
var SHELL = {{ shell }};
var NEVER = {{ never }};
var SCOPE = {{ scope }};
var HEADER = {{ header }};

// a page of /keep/ the worker may keep: the pick list or a match's phone page, no query
function keepable(url) {
  if (url.search) return false;
  var rest = url.pathname.slice(SCOPE.length);
  return url.pathname.indexOf(SCOPE) === 0 && /^(\d+\/)?$/.test(rest);
}

function never(url) {
  return NEVER.some(function (prefix) { return url.pathname.indexOf(prefix) === 0; });
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  // the shell of an older worker goes; the pages kept go with it (they load that shell)
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("seep-keep-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function fromServerFirst(request) {
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic" && !response.redirected &&
        response.headers.get(HEADER) === "keep") {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { return cache.put(request.url, copy); });
    } else if (response.ok || response.status === 404 || response.status === 403) {
      // the server says this phone may not keep it (any more): drop what was kept
      caches.open(CACHE).then(function (cache) { return cache.delete(request.url); });
    }
    return response;
  }, function (error) {
    return caches.match(request.url, { ignoreVary: true }).then(function (kept) {
      if (kept) return kept;
      throw error;
    });
  });
}

function fromPhoneFirst(request) {
  return caches.match(request, { ignoreVary: true }).then(function (kept) {
    return kept || fetch(request);
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || never(url)) return; // the network's, untouched
  if (request.mode === "navigate" && keepable(url)) {
    event.respondWith(fromServerFirst(request));
  } else if (SHELL.indexOf(url.pathname) !== -1) {
    event.respondWith(fromPhoneFirst(request));
  }
  // anything else (a live part, an icon...) goes to the network as if there were no worker
});
{% endautoescape %}
