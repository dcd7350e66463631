// Live parts of a page: every element with data-live-url is fetched again every few seconds
// with the ETag it was last rendered at (If-None-Match); a 304 costs the server almost
// nothing, a 200 replaces the element's content. No framework: plain fetch.
//
// A part with data-push-url is pushed instead (server-sent events from the push process:
// "part" the whole part, "patch" the lines that changed since the last one, "changed" only
// that it changed: then it is fetched as a poll fetches it); it polls only while the stream
// is not open (the browser reconnects by itself, with the last event's id), and for good
// once the stream is refused or ended. A part whose stream stays out of reach (the push
// process down or restarting, a proxy that drops it) says so above it, in a polite live
// region ("Live updates are unavailable"), while it polls, and takes the words back once the
// stream opens again.
//
// A poll that fails (no connection, the server down, an error page) leaves the part as it
// was, so the page says so in a polite live region above it ("stopped updating"), and takes
// the words back at the first poll that gets through.
//
// For a screen reader: the part carries, hidden, what the server says of it in a few
// sentences (each the data-announce attribute of an empty element, keyed by what it is
// about in data-about: a table, the standings, the deal); after an update, the sentences
// that changed are copied into the page's one polite live region, so what changed is read,
// once, and never the whole part.
// The focus stays on the same control (or its replacement) when the part is replaced, and a
// "Pause updates" button holds the part as it is until it is pressed again.
(function () {
  "use strict";
  var AFTER = 2; // failed polls in a row before the page says so (one can be a blip)
  var MOST = 3; // sentences read at once; more are counted ("More changes: 2.")
  // the page's words, in its language (base.html's data-say-*, from the catalogs)
  function say(name, fallback) {
    return document.body.getAttribute("data-say-" + name.replace(/[A-Z]/g, function (c) {
      return "-" + c.toLowerCase();
    }).replace(/^-/, "")) || fallback;
  }

  // the page's one live region, present from the start (a region added at the moment it
  // speaks is often not heard)
  var speaker = document.createElement("div");
  speaker.className = "visually-hidden";
  speaker.setAttribute("role", "status");
  speaker.setAttribute("aria-live", "polite");
  speaker.setAttribute("data-announcer", "");
  (document.getElementById("main") || document.body).appendChild(speaker);

  // what the part says of itself: its sentences by key
  function sentences(el) {
    var out = {};
    el.querySelectorAll("[data-announce]").forEach(function (node) {
      var words = node.getAttribute("data-announce").replace(/\s+/g, " ").trim();
      out[node.getAttribute("data-about")] = words;
    });
    return out;
  }
  // read the sentences of ``now`` that ``before`` did not have; whether there were any
  function announce(before, now) {
    var news = Object.keys(now).filter(function (key) {
      return now[key] && now[key] !== before[key];
    }).map(function (key) { return now[key]; });
    if (!news.length) return false;
    if (news.length > MOST) {
      var more = news.length - MOST;
      news = news.slice(0, MOST).concat([say("More", "More changes: {n}.").replace("{n}", String(more))]);
    }
    speaker.textContent = news.join(" ");
    return true;
  }

  // the focused control, described well enough to find its replacement in the new part
  function described(node) {
    var text = (node.textContent || "").replace(/\s+/g, " ").trim();
    return {
      tag: node.tagName, id: node.id, name: node.getAttribute("name"),
      value: node.getAttribute("value"), href: node.getAttribute("href"),
      label: node.getAttribute("aria-label"), text: text
    };
  }
  // the ways a control is the same one again, surest first: all of it; its accessible
  // name (a scrolling table's, whose rows change); what it sends or links to; its words
  var WAYS = [
    function (a, b) {
      return a.name === b.name && a.value === b.value && a.href === b.href &&
        a.label === b.label && a.text === b.text;
    },
    function (a, b) { return !!a.label && a.label === b.label; },
    function (a, b) {
      return !!(a.name || a.href) && a.name === b.name && a.value === b.value && a.href === b.href;
    },
    function (a, b) { return !!a.text && a.text === b.text; }
  ];
  function focusedIn(el) {
    var active = document.activeElement;
    if (!active || active === el || !el.contains(active)) return null;
    return described(active);
  }
  function focusAgain(el, was) {
    if (!was) return;
    var found = was.id ? document.getElementById(was.id) : null;
    if (found && !el.contains(found)) found = null;
    var all = Array.prototype.slice.call(el.querySelectorAll(was.tag)).map(function (node) {
      return { node: node, is: described(node) };
    });
    WAYS.forEach(function (same) {
      for (var i = 0; i < all.length && !found; i++) {
        if (same(was, all[i].is)) found = all[i].node;
      }
    });
    if (found) found.focus({ preventScroll: true });
    else focusPart(el); // gone (a Confirm button once confirmed)
  }
  // the part itself then, not the page's body: a screen reader stays where it was
  function focusPart(el) {
    el.setAttribute("tabindex", "-1");
    el.focus({ preventScroll: true });
  }

  // the time as the page's other times are shown: in the club's zone (clock.js)
  var clock = window.seepClock;

  function watch(el) {
    var url = el.getAttribute("data-live-url");
    var every = parseInt(el.getAttribute("data-live-ms") || "3000", 10);
    var etag = el.getAttribute("data-etag") || "";
    var busy = false;
    var failed = 0;
    var since = new Date();
    var said = sentences(el);
    var paused = false;
    // present from the start (a region added at the moment it speaks is often not heard)
    var notice = document.createElement("p");
    notice.className = "live-lost offline";
    notice.setAttribute("role", "status");
    notice.setAttribute("aria-live", "polite");
    notice.setAttribute("data-live-lost", "");
    el.parentNode.insertBefore(notice, el);
    // a pushed part whose stream is not open says that it only polls (empty otherwise, and
    // while the "stopped updating" words say more)
    var pushless = document.createElement("p");
    pushless.className = "live-pushless";
    pushless.setAttribute("role", "status");
    pushless.setAttribute("aria-live", "polite");
    pushless.setAttribute("data-live-pushless", "");
    var away = 0; // polls in a row that found the stream not open

    function reached() {
      failed = 0;
      since = new Date();
      // the phone page says when the server was last heard from (keeper.js)
      document.dispatchEvent(new CustomEvent("seep:heard"));
      if (notice.textContent) notice.textContent = "";
      pushState();
    }
    // what the pushless words say now: after AFTER polls without the stream (a push process
    // restarting is back in a moment), unless the page already says it stopped updating
    function pushState() {
      if (!pushless.parentNode) return;
      var words = away >= AFTER && !notice.textContent ? say("Pushless", "Live updates are " +
        "unavailable: this page checks for changes every few seconds.") : "";
      if (pushless.textContent !== words) pushless.textContent = words;
    }
    function lost() {
      failed += 1;
      if (failed < AFTER) return;
      notice.textContent = say("Lost", "No connection: this page stopped updating at {time}. " +
        "It updates again by itself once the connection is back.").replace("{time}", clock(since));
    }
    function busyTyping() {
      // never replace a form someone is filling in
      var active = document.activeElement;
      if (el.querySelector("form[data-dirty]")) return true;
      return active && el.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
    }
    function show(html) {
      var was = focusedIn(el);
      el.innerHTML = html;
      focusAgain(el, was);
      var now = sentences(el);
      if (announce(said, now)) {
        // what the page said about the last thing done ("Deal 2 entered…") described
        // the page as it was: the part now shows where things stand instead (kept while
        // nothing said changed: a stream's first part is the page as it loaded)
        document.querySelectorAll("main > .messages").forEach(function (m) {
          var had = m.contains(document.activeElement);
          m.remove();
          if (had) focusPart(el); // the banner read: the focus on what replaced it
        });
      }
      said = now;
      el.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
    }

    var stream = null;
    var text = null; // the part as the stream last sent it (the patches' base)
    var pending = null; // a part held back while a form is being filled in, or paused
    var stale = false; // the stream said the part changed, and it is not fetched yet
    function streaming() { return stream !== null && stream.readyState === 1; }
    function pushed(html) {
      text = html;
      etag = ""; // the next poll, if any, fetches the part afresh
      if (paused || busyTyping()) { hold(html); return; }
      pending = null;
      show(html);
    }
    function listen(url) {
      stream = new EventSource(url, { withCredentials: true });
      stream.addEventListener("open", function () { away = 0; reached(); });
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
      away = streaming() ? 0 : away + 1;
      pushState();
      if (streaming()) {
        if (pending !== null && !paused && !busyTyping()) { var held = pending; pending = null; show(held); }
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
      // a phone page says how many of its commands wait to be sent (keeper.js keeps the
      // count on #phone-state): the board shows it beside the table's last-heard time
      var phone = document.getElementById("phone-state");
      if (phone) headers["X-Unsent-Entries"] = phone.getAttribute("data-count") || "0";
      fetch(url, { headers: headers, credentials: "same-origin", cache: "no-cache" })
        .then(function (response) {
          if (response.status === 304) { stale = false; return reached(); }
          if (response.status !== 200) return lost();
          stale = false;
          etag = response.headers.get("ETag") || "";
          return response.text().then(function (html) {
            reached();
            el.setAttribute("data-etag", etag);
            if (paused) hold(html);
            else show(html);
          });
        })
        .catch(lost)
        .then(function () { busy = false; });
    }
    // a pause: the part stays as it is (what arrives is held, and the page says that there
    // is more) until resumed, which shows what was held and fetches the part as it is now.
    // A page with a pause of its own (the wall's) names its button in data-live-pause.
    var own = el.getAttribute("data-live-pause");
    var pause = own ? document.getElementById(own) : document.createElement("button");
    var note = document.createElement("p");
    note.className = "live-paused";
    note.setAttribute("data-live-paused", "");
    note.hidden = true;
    el.parentNode.insertBefore(note, el);
    var pausedAt = null;
    function hold(html) {
      pending = html;
      if (paused) note.textContent = say("PausedMore", "Updates paused at {time}. There are " +
        "new ones: resume updates to see them.").replace("{time}", clock(pausedAt));
    }
    if (!own) {
      pause.type = "button";
      pause.className = "secondary live-pause";
      pause.textContent = say("Pause", "Pause updates");
      el.parentNode.insertBefore(pause, notice);
    }
    if (pause) {
      pause.addEventListener("click", function () {
        paused = !paused;
        if (!own) pause.textContent = paused ? say("Resume", "Resume updates") : say("Pause", "Pause updates");
        note.hidden = !paused;
        if (paused) {
          pausedAt = new Date();
          note.textContent = say("Paused", "Updates paused at {time}.").replace("{time}", clock(pausedAt));
          return;
        }
        note.textContent = "";
        if (pending !== null && !busyTyping()) { var held = pending; pending = null; show(held); }
        stale = true;
        fetchPart();
      });
    }

    var pushUrl = el.getAttribute("data-push-url");
    if (pushUrl && window.EventSource) {
      el.parentNode.insertBefore(pushless, notice);
      listen(pushUrl);
    }
    setInterval(poll, every);
    document.addEventListener("visibilitychange", poll);
  }
  document.querySelectorAll("[data-live-url]").forEach(watch);
})();
