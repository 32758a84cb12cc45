/* Small helpers of every page (own code, no inline scripts: the CSP allows 'self' only).
 *
 * - htmx swaps keep the page's scroll: the answer to a tap is pinned at the top (core/_shell.html),
 *   so the page never jumps to the history.
 * - The decision bar (QMG, The Fog of War, Generalissimus: QMG: tracker/qmg/blocks.py, the others: templates/<game>/_decision_bar.html): html.js-bar pins it to the bottom of the
 *   screen; the answer to a tap made in it (or on the map) appears in it; the page's bottom padding, its
 *   scroll-padding-bottom and the map's height follow the bar's height (CSS variables set through the
 *   CSSOM: --bar-h, --map-top (the top of QMG's map viewport or Generalissimus's board), --pinned-h, and on a
 *   landscape tablet --bar-left/--bar-width, the panel's).
 * - Whatever is scrolled into view (a focused field, a button a finger or a test is about to tap)
 *   comes out below the pinned bar, not under it: the page's scroll-padding-top is the bar's height.
 * - An old error goes away as soon as the player changes the form or taps another space.
 * - QMG play form: the card type follows a card typed by name (datalist options carry data-type)
 *   and a tapped space (a sea makes «Build army» «Build navy» and back).
 * - The live table: the game's stream (server-sent events, htmx's sse extension on #live) says
 *   "version N"; the page refreshes only when N is newer than what it shows, and never swaps in an
 *   answer older than (or as old as) what it shows. A tap made while a refresh is on its way is sent
 *   (the refresh gives way), and a version announced while a tap was on its way is fetched after its
 *   answer. While the stream is not heard from (no JS stream support, a proxy that buffers it, a
 *   dropped connection), the 2-second poll runs as before; while it is alive, the poll stays quiet.
 * - No tap is lost: nothing on the page moves between a finger's press and its release (an old answer is removed,
 *   a refresh swapped in, only after the tap's click); a tap made while the last one is still on its way says so;
 *   an open folded form and what the player typed stay through a refresh.
 * - The connection is never silent: a tap with no answer within a few seconds, or the stream and the poll both
 *   failing, is said in the decision bar (with «Повторить», which sends the same form again with its original
 *   version: the server applies a move at most once); when the link is back the page says so and catches up.
 *   The texts come from Django's JavaScript catalogue (gettext(), the djangojs domain of locale/).
 * - The new-game form shows only the fields that apply (player names up to the number of players,
 *   the country seats when the rulebook seating is unticked, air forces with Air Marshal).
 */
(function () {
  "use strict";

  // the page's language (Django's JavaScript catalogue, /jsi18n/); without it, the English text
  var gettext = typeof window.gettext === "function" ? window.gettext : function (text) { return text; };

  var savedY = null;
  var tappedTop = null;  // where on the screen the tapped form was: its answer goes there
  var tappedInBar = false;  // the tap was a decision of the bar: its answer goes into the bar
  function restore() {
    if (savedY !== null && Math.abs(window.scrollY - savedY) > 1) { window.scrollTo(0, savedY); }
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.target && e.target.closest ? e.target.closest("form") : null;
    if (!form || !form.closest("#game")) { return; }  // the poll's requests are not taps
    var button = form.querySelector("button[type=submit]") || form;
    tappedTop = button.getBoundingClientRect().top;
    tappedInBar = !!form.closest(".decision-bar");
  });
  document.addEventListener("htmx:beforeSwap", function () { savedY = window.scrollY; });

  // the outermost block of the new page that starts on screen at the height where the tapped button was
  function blockAt(top, minTop) {
    var y = Math.max(minTop + 1, Math.min(window.innerHeight - 1, top + 4));
    var hit = document.elementFromPoint(Math.round(window.innerWidth / 2), y);
    if (!hit || !hit.closest || !hit.closest("#game") || hit.closest(".pinned, [data-board], .flash")) { return null; }
    var best = null;
    for (var el = hit; el && el.id !== "game"; el = el.parentNode) {
      if (el.matches(".layout, .col-side, .col-map")) { break; }
      if (el.getBoundingClientRect().top >= minTop) { best = el; } else if (best) { break; }
    }
    return best;
  }

  function placeAnswer() {
    var flash = document.querySelector("#game .pinned .flash");
    var pinned = document.querySelector("#game .pinned");
    if (!flash || tappedTop === null || !pinned) { return; }
    var inBar = tappedInBar ? document.querySelector("#game .decision-bar .bar-answer") : null;
    if (inBar) {  // the bar holds the decision and its answer: nothing moves, nothing scrolls
      inBar.appendChild(flash);
      flash.classList.add("flash-here");
      restore();
      fitBar();
      return;
    }
    var home = flash.nextSibling;
    flash.parentNode.removeChild(flash);  // the page as it was before the tap, scroll restored
    restore();
    var block = blockAt(tappedTop, pinned.getBoundingClientRect().bottom);
    if (!block || !block.parentNode) {  // nothing there (e.g. the turn passed): it stays pinned
      pinned.insertBefore(flash, home);
      return;
    }
    block.parentNode.insertBefore(flash, block);  // the answer takes the place of what was tapped
    flash.classList.add("flash-here");
    var box = flash.getBoundingClientRect();
    var overflow = box.top + Math.min(box.height, 120) - window.innerHeight;
    if (overflow > 0) { window.scrollBy(0, overflow); savedY = window.scrollY; }
  }

  document.addEventListener("htmx:afterSwap", function (e) {
    restore();
    var elt = e.detail && e.detail.requestConfig ? e.detail.requestConfig.elt : null;
    if (!elt || !elt.closest || !(elt.closest("form") || elt.closest(".conn-retry"))) { return; }  // a refresh: not a tap's answer
    placeAnswer();
    tappedTop = null;
    tappedInBar = false;
  });
  document.addEventListener("htmx:afterSettle", function () { restore(); savedY = null; padPinned(); fitBar(); });

  // The pinned bar (sticky, opaque) hides what is under it: a button scrolled "into view" right
  // under it cannot be tapped, and the browser scrolls again on the tap (the page jumps). Set
  // through the CSSOM, which the strict CSP allows (no style attribute in the markup).
  function padPinned() {
    var pinned = document.querySelector("#game .pinned");
    var root = document.documentElement.style;
    if (pinned) {
      var h = Math.ceil(pinned.getBoundingClientRect().height);
      root.setProperty("scroll-padding-top", h + 8 + "px");
      root.setProperty("--pinned-h", h + "px");
    } else { root.removeProperty("scroll-padding-top"); }
  }
  window.addEventListener("resize", padPinned);

  // The decision bar: fixed at the bottom (CSS, html.js-bar); the page and the map make room for it.
  var barSizes = "";
  function fitBar() {
    var html = document.documentElement, root = html.style;
    var bar = document.querySelector("#game .decision-bar");
    if (!bar) {
      if (html.classList.contains("js-bar")) {
        html.classList.remove("js-bar");
        ["--bar-h", "--map-top", "--bar-left", "--bar-width", "scroll-padding-bottom"].forEach(function (n) { root.removeProperty(n); });
      }
      return;
    }
    html.classList.add("js-bar");
    var side = document.querySelector("#game .col-side");
    if (side) {
      var r = side.getBoundingClientRect();
      root.setProperty("--bar-left", Math.round(r.left) + "px");
      root.setProperty("--bar-width", Math.round(r.width) + "px");
    }
    // Under its cap (max-height, static/css/app.css) the bar's long lists (.bar-scroll, a card step's choices; and
    // the answer) give up what the bar would overflow, the last first, never below one row (a card step's choices:
    // their first row of buttons, whole); the rest of the bar (its buttons, «Закончить ход» under the list) keeps its
    // height. While a card step offers choices, the answer to the last tap gives up first: the choices are the
    // decision.
    var lists = Array.prototype.slice.call(bar.querySelectorAll(".bar-answer, .bar-scroll, .card-steps div.choices")), i;
    for (i = 0; i < lists.length; i++) { lists[i].style.maxHeight = ""; }
    var answer = bar.querySelector(".bar-answer");
    if (answer && bar.querySelector(".card-steps div.choices")) { lists.splice(lists.indexOf(answer), 1); lists.push(answer); }
    var over = bar.scrollHeight - bar.clientHeight;
    for (i = lists.length - 1; i >= 0 && over > 0; i--) {
      var box = lists[i].getBoundingClientRect(), full = Math.floor(box.height), row = 40;
      var first = lists[i].matches(".card-steps div.choices") ? lists[i].querySelector(".btn") : null;
      if (first) { row = Math.ceil(first.getBoundingClientRect().bottom - box.top + 3); }
      var keep = Math.max(Math.min(full, row), full - over);
      if (keep < full) {
        lists[i].style.maxHeight = keep + "px";
        over -= full - keep;
      }
    }
    var h = Math.ceil(bar.getBoundingClientRect().height);
    root.setProperty("--bar-h", h + "px");
    root.setProperty("scroll-padding-bottom", h + 8 + "px");
    var map = document.querySelector("#game .board-viewport, #game .g-board-wrap");
    var top = map ? Math.round(map.getBoundingClientRect().top + window.scrollY) : 0;
    if (map) { root.setProperty("--map-top", top + "px"); }
    var sizes = [h, top, window.innerWidth, window.innerHeight].join(" ");
    if (sizes !== barSizes) {  // the map's box changed: static/js/board.js follows a resize
      barSizes = sizes;
      window.dispatchEvent(new Event("resize"));
    }
  }
  window.addEventListener("resize", fitBar);
  document.addEventListener("toggle", function (e) {  // a <details> opened or closed in the bar
    if (e.target && e.target.closest && e.target.closest(".decision-bar")) { fitBar(); }
  }, true);

  document.addEventListener("click", function (e) {
    var close = e.target && e.target.closest ? e.target.closest(".flash-close") : null;
    if (close && close.parentNode) { close.parentNode.parentNode.removeChild(close.parentNode); padPinned(); fitBar(); return; }
    // Generalissimus on a phone shows the bar's answer as one line (static/css/generalissimus.css): a tap shows all of it
    var short = e.target && e.target.closest ? e.target.closest(".g-game .decision-bar .flash-here") : null;
    if (short) { short.classList.toggle("is-open"); fitBar(); }
  });

  function clearErrors() {  // the answer to the last tap goes once the player starts the next one
    var old = document.querySelectorAll("#game .flash");
    for (var i = 0; i < old.length; i++) { old[i].parentNode.removeChild(old[i]); }
    if (old.length) { fitBar(); }
  }

  function cardTypeSelect(form) {
    return form ? form.querySelector("select[name=card_type]") : null;
  }

  var BUILD = { land: "build_army", sea: "build_navy" };
  function followSpace(form, kind) {
    var select = cardTypeSelect(form);
    var typed = form && form.querySelector("input[name=card]");
    if (!select || (typed && typed.value.trim())) { return; }
    if ((select.value === "build_army" || select.value === "build_navy") && BUILD[kind]) {
      select.value = BUILD[kind];
    }
  }

  document.addEventListener("board:select", function (e) {
    clearErrors();
    var svg = e.target;
    var g = svg && svg.querySelector && svg.querySelector("g.space.selected");
    var kind = g ? g.getAttribute("data-kind") : "";
    var forms = document.querySelectorAll("[data-board-target] form");
    for (var i = 0; i < forms.length; i++) { followSpace(forms[i], kind); }
  });

  document.addEventListener("change", function (e) {
    var form = e.target && e.target.form;
    if (form && form.closest && form.closest("#game")) { whenStill(clearErrors); }
  });

  document.addEventListener("input", function (e) {
    var input = e.target;
    if (!input || input.name !== "card" || !input.list) { return; }
    var value = input.value.trim().toLowerCase();
    var options = input.list.options;
    for (var i = 0; i < options.length; i++) {
      if (options[i].value.toLowerCase() === value && options[i].getAttribute("data-type")) {
        var select = cardTypeSelect(input.form);
        var type = options[i].getAttribute("data-type");
        if (select && select.querySelector('option[value="' + type + '"]')) { select.value = type; }
        return;
      }
    }
  });

  // ------------------------------------------------------------------ a finger on the screen ----
  // A click goes to the element under both the press and the release of a finger. Whatever moves the page in
  // between (an old answer removed when a focused field loses its focus at the press, a refresh swapped in
  // under the finger) sends the click elsewhere and the tap does nothing. So from a press until its click
  // (or half a second after the release, when it was a drag) such changes wait, and are made after the click.
  var press = { on: false, timer: null, later: [] };
  function release() {
    clearTimeout(press.timer);
    press.on = false;
    var jobs = press.later;
    press.later = [];
    for (var i = 0; i < jobs.length; i++) { jobs[i](); }
  }
  function whenStill(job) {
    if (!press.on) { job(); return; }
    if (press.later.indexOf(job) < 0) { press.later.push(job); }
  }
  document.addEventListener("pointerdown", function () { clearTimeout(press.timer); press.on = true; }, true);
  function lifted() { clearTimeout(press.timer); press.timer = setTimeout(release, 500); }
  document.addEventListener("pointerup", lifted, true);
  document.addEventListener("pointercancel", lifted, true);
  // a touch's click comes after its release: the click (its form's submit included) is handled first
  document.addEventListener("click", function () { clearTimeout(press.timer); press.timer = setTimeout(release, 0); }, true);

  // ------------------------------------------------------------------ live table ----
  var HEALTHY_MS = 40000;  // the server pings every 15 s
  // latest: the newest version the stream announced; asked: the (latest, shown) pair last fetched again
  var live = { source: null, heard: 0, latest: 0, asked: "" };
  var waiting = null;  // the refresh or poll of #game on its way (its element), not a tap
  var carry = { wanted: false, flash: null, inBar: false };  // the tap's answer, kept through a re-ask
  function streamAlive() {
    return !!(live.source && live.source.readyState === 1 && Date.now() - live.heard < HEALTHY_MS);
  }
  function heard() { live.heard = Date.now(); }

  // The stream (htmx's sse extension on #live). Its EventSource is made here (htmx.createEventSource, the
  // extension's hook for it) to watch it: an "error" while the browser reconnects by itself (the server ends
  // every stream after a few minutes; a restart) is expected and is not handed to the extension, which would log
  // it as an error; only a stream the browser gave up (an error status) is, and the extension reconnects it.
  function watchStream(source) {
    live.source = source;
    var extensionHandler = null;
    Object.defineProperty(source, "onerror", {
      configurable: true,
      get: function () { return extensionHandler; },
      set: function (handler) { extensionHandler = handler; }
    });
    source.addEventListener("open", function () { heard(); linkUp("stream"); });
    source.addEventListener("ping", heard);
    source.addEventListener("version", function (ev) {
      heard();
      var v = parseInt(ev.data, 10);
      if (v > live.latest) { live.latest = v; }
    });
    source.addEventListener("error", function (ev) {
      live.heard = 0;
      linkDown("stream");
      if (source.readyState === 2 && extensionHandler) { extensionHandler.call(source, ev); }
    });
    return source;
  }
  if (window.htmx && typeof htmx.createEventSource === "function") {
    htmx.createEventSource = function (url) { return watchStream(new EventSource(url, { withCredentials: true })); };
  }
  document.addEventListener("htmx:sseError", function () { live.heard = 0; });
  document.addEventListener("htmx:sseClose", function (e) {
    if (!e.detail || e.detail.source === live.source) { live.source = null; }
  });

  function shownVersion() {
    var game = document.getElementById("game");
    return game ? parseInt(game.getAttribute("data-version"), 10) || 0 : 0;
  }
  function background(elt) {  // a request the page makes by itself: #game's refresh, the poll
    return !!(elt && elt.matches && (elt.id === "game" || elt.matches(".poll")));
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt || !elt.matches) { return; }
    if (elt.matches("#game .poll") && streamAlive()) { e.preventDefault(); return; }  // the stream tells us
    var cause = e.detail.requestConfig && e.detail.requestConfig.triggeringEvent;
    if (elt.id === "game" && cause && cause.type === "sse:version") {
      var announced = parseInt(cause.detail && cause.detail.data, 10);
      if (!(announced > shownVersion())) { e.preventDefault(); return; }  // this page shows it already (e.g. our own move)
    }
    if (background(elt)) { waiting = elt; }
  });

  // A tap is never lost to a refresh. Every request of the page waits for the one on its way before it
  // (#game's hx-sync "this:queue last", which the poll inherits), and htmx drops without a word a waiting
  // request whose element a swap has taken away, or that a newer one pushed out of the queue:
  // - a tap (a form, a link) made while a refresh or a poll is on its way would wait for it, then go with the
  //   page the refresh replaces (or be pushed out by the refresh a poll's "game-changed" asks for): that
  //   request gives way to the tap instead (it is aborted, and so is one queued behind it; the tap's answer is
  //   the newest page);
  // - a tap made while the last tap is still on its way would be dropped with the page its answer replaces: the
  //   bar says so instead (after a few seconds with no answer the last tap counts as lost: the new one goes);
  // - a refresh the stream asked for while a tap was on its way goes the same way when the tap's answer comes
  //   in: when the stream has announced a newer version than the page then shows, the page asks for it again
  //   (once per version shown: never a loop), keeping the tap's answer on screen. So does a tap that got no
  //   page back (a server fault, the network).
  var aborting = false;
  document.addEventListener("htmx:confirm", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt || !elt.closest || background(elt)) { return; }
    var game = elt.closest("#game");
    if (!game) { return; }
    if (conn.tap && conn.tap.xhr && !conn.tap.late) {
      e.preventDefault();  // the last tap is on its way (and not late yet): its answer comes first
      note(gettext("The last tap is still on its way: wait for its answer."));
      return;
    }
    carry.wanted = false;  // a new tap: its own answer comes, the last one's is not kept any more
    aborting = true;
    try {  // an abort lets a request queued behind it start at once: that one gives way too
      if (conn.tap && conn.tap.xhr) { conn.tap.replaced = true; conn.tap.xhr.abort(); }  // no answer for long: given up
      for (var i = 0; i < 3 && waiting && waiting.closest("#game") === game; i++) {
        waiting = null;
        htmx.trigger(game, "htmx:abort");
      }
    } finally { aborting = false; }
  });
  function catchUp() {
    var shown = shownVersion();
    var key = live.latest + ":" + shown;
    if (live.latest > shown && key !== live.asked) {
      live.asked = key;
      carry.wanted = true;
      htmx.trigger(document.body, "game-changed");
    }
  }
  document.addEventListener("htmx:afterSettle", catchUp);
  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail && e.detail.requestConfig ? e.detail.requestConfig.elt : null;
    if (elt && elt === waiting) { waiting = null; }
    var failed = e.detail.failed || !!e.detail.error;  // an error status, or no answer at all (network, abort)
    if (!aborting && elt && !background(elt) && failed) { catchUp(); }  // a tap with no page back
  });

  // A refresh swapped in keeps what the player was doing: the folded forms they opened and what they typed or
  // chose in a form (the new page's own values otherwise: its version fields, its choices).
  function detailsKey(d) {
    var same = document.querySelectorAll('#game details[class="' + d.className + '"]');
    return d.className + "#" + Array.prototype.indexOf.call(same, d);
  }
  function formKey(form) {
    var command = form.querySelector("input[name=command]");
    var id = (form.getAttribute("action") || "") + "|" + (command ? command.value : "") + "|" + form.className;
    var same = Array.prototype.filter.call(document.querySelectorAll("#game form"), function (f) {
      var c = f.querySelector("input[name=command]");
      return (f.getAttribute("action") || "") + "|" + (c ? c.value : "") + "|" + f.className === id;
    });
    return id + "#" + same.indexOf(form);
  }
  function changedByPlayer(el) {
    if (el.type === "hidden" || el.type === "submit" || el.type === "button" || !el.name || el.disabled) { return false; }
    if (el.type === "checkbox" || el.type === "radio") { return el.checked !== el.defaultChecked; }
    if (el.tagName === "SELECT") {
      var options = el.options, preset = 0;
      for (var i = 0; i < options.length; i++) { if (options[i].defaultSelected) { preset = i; } }
      return el.selectedIndex !== preset;
    }
    return el.value !== el.defaultValue;
  }
  function playerState() {
    var state = { open: [], fields: [] };
    var open = document.querySelectorAll("#game details[open]");
    for (var i = 0; i < open.length; i++) { state.open.push(detailsKey(open[i])); }
    var forms = document.querySelectorAll("#game form");
    for (var j = 0; j < forms.length; j++) {
      var els = forms[j].elements;
      for (var k = 0; k < els.length; k++) {
        if (changedByPlayer(els[k])) {
          state.fields.push({ form: formKey(forms[j]), name: els[k].name, type: els[k].type,
                              value: els[k].value, checked: els[k].checked });
        }
      }
    }
    return state;
  }
  function restorePlayerState(state) {
    var all = document.querySelectorAll("#game details");
    for (var i = 0; i < all.length; i++) {
      if (state.open.indexOf(detailsKey(all[i])) >= 0) { all[i].open = true; }
    }
    if (!state.fields.length) { return; }
    var forms = document.querySelectorAll("#game form"), byKey = {};
    for (var j = 0; j < forms.length; j++) { byKey[formKey(forms[j])] = forms[j]; }
    state.fields.forEach(function (f) {
      var form = byKey[f.form];
      if (!form) { return; }
      var els = form.elements;
      for (var k = 0; k < els.length; k++) {
        var el = els[k];
        if (el.name !== f.name || el.type !== f.type) { continue; }
        if (el.type === "checkbox" || el.type === "radio") {
          if (el.value === f.value) { el.checked = f.checked; }
        } else if (el.tagName !== "SELECT" || el.querySelector('option[value="' + CSS.escape(f.value) + '"]')) {
          el.value = f.value;
        }
      }
    });
  }
  var kept = null;  // what the player was doing, through the refresh being swapped in
  // before board.js (which marks the space chosen in a form on the new map): a listener of the capture phase
  document.addEventListener("htmx:afterSwap", function () {
    if (kept) { restorePlayerState(kept); kept = null; }
  }, true);

  document.addEventListener("htmx:beforeSwap", function (e) {
    var elt = e.detail && e.detail.requestConfig ? e.detail.requestConfig.elt : null;
    if (!elt || elt.id !== "game" || !e.detail.serverResponse) { return; }  // a tap's answer is always the newest
    var m = /data-version="(\d+)"/.exec(e.detail.serverResponse);
    // never back to an older state, and a refresh of the version shown brings nothing new (a poll that left
    // before this phone's own tap was answered): the answer to the tap stays on screen
    if (m && parseInt(m[1], 10) <= shownVersion()) { e.detail.shouldSwap = false; }
    if (e.detail.shouldSwap && press.on) {  // a finger is on the page: the newest page is asked for after its tap
      e.detail.shouldSwap = false;
      whenStill(refreshAfterTap);
    }
    if (e.detail.shouldSwap && carry.wanted) {  // the page asked again after a tap: its answer stays
      var flash = document.querySelector("#game .flash");
      carry = { wanted: false, flash: flash, inBar: !!(flash && flash.closest(".decision-bar")) };
    }
    if (e.detail.shouldSwap) { kept = playerState(); }
  });
  function refreshAfterTap() {
    if (!conn.tap) { htmx.trigger(document.body, "game-changed"); }  // a tap's answer is the newest page itself
  }
  document.addEventListener("htmx:afterSwap", function () {
    var flash = carry.flash;
    if (flash) {
      carry.flash = null;
      var place = (carry.inBar && document.querySelector("#game .decision-bar .bar-answer")) ||
        document.querySelector("#game .pinned");
      if (place && !document.querySelector("#game .flash")) { place.appendChild(flash); }
    }
    showLink();  // the connection's message lives through the swaps until it is settled
  });

  // a form of the game tapped in the moment after a swap, before htmx has taken the new page in: htmx sends it all
  // the same (with the tapped button's name and value), never the browser (a plain POST would leave the live page)
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (e.defaultPrevented || !window.htmx || !form.matches || !form.matches("#game form[hx-post]")) { return; }
    e.preventDefault();
    var values = {};
    if (e.submitter && e.submitter.name) { values[e.submitter.name] = e.submitter.value; }
    htmx.ajax("POST", form.getAttribute("hx-post"), { source: form, values: values,
      target: form.getAttribute("hx-target") || "#game", swap: form.getAttribute("hx-swap") || "outerHTML" });
  });

  // ------------------------------------------------------------------ the connection ----
  // conn.tap: the tap on its way (its request, its form's values, its URL); conn.unsent: a tap that got no answer
  // (its values, sent again by «Повторить»); conn.down: what failed (the stream, the poll, a tap).
  var NO_ANSWER_MS = 5000;
  var BACK_SHOWN_MS = 5000;
  var conn = { tap: null, unsent: null, down: {}, said: "", box: null, backTimer: null };

  function tapFor(e) {  // the tap (not a refresh, not the poll) a request event belongs to, or null
    var elt = e.detail && e.detail.requestConfig ? e.detail.requestConfig.elt : (e.detail && e.detail.elt);
    return elt && elt.closest && !background(elt) && elt.closest("#game") ? elt : null;
  }
  function copyValues(formData) {
    var copy = new FormData();
    if (formData && formData.forEach) { formData.forEach(function (value, key) { copy.append(key, value); }); }
    return copy;
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (e.defaultPrevented || !tapFor(e)) { return; }
    var config = e.detail.requestConfig;
    if (!config || config.verb !== "post") { return; }
    var tap = { xhr: e.detail.xhr, path: config.path, values: copyValues(config.formData), late: false };
    clearTimeout(conn.tapTimer);
    conn.tap = tap;
    conn.tapTimer = setTimeout(function () {
      if (conn.tap !== tap) { return; }
      tap.late = true;  // no answer for a few seconds: the phone says so; an answer may still come
      conn.unsent = tap;
      linkDown("tap");
    }, NO_ANSWER_MS);
  });
  function unreachable(xhr) {  // a proxy's answer for a server that is not there
    return !!xhr && (xhr.status === 502 || xhr.status === 503 || xhr.status === 504);
  }
  function isPoll(elt) { return !!(elt && elt.matches && elt.matches(".poll")); }
  function tapLost(tap) {
    if (tap.replaced) { return; }  // given up for a newer tap or a retry: that one goes
    conn.unsent = tap;
    linkDown("tap");
  }
  // an answer (status 0: none; the error or the abort is told by the next event: sendError, sendAbort)
  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail && e.detail.requestConfig ? e.detail.requestConfig.elt : null;
    var xhr = e.detail && e.detail.xhr;
    var tap = conn.tap && xhr === conn.tap.xhr ? conn.tap : null;
    if (tap) {
      conn.tap = null;
      conn.ended = tap;
      clearTimeout(conn.tapTimer);
    }
    if (!xhr || xhr.status === 0) { return; }
    if (unreachable(xhr)) {
      if (isPoll(elt)) { linkDown("poll"); } else if (tap) { tapLost(tap); }
      return;
    }
    if (tap) {  // answered (applied, refused or a conflict: the server has it, at most once)
      conn.unsent = null;
      delete conn.down.tap;
      showLink();
    }
    linkUp(isPoll(elt) ? "poll" : "page");
  });
  // no answer at all (the network, the server gone); an abort (htmx:sendAbort) is this page's own doing
  document.addEventListener("htmx:sendError", function (e) {
    var elt = e.detail && e.detail.requestConfig ? e.detail.requestConfig.elt : null;
    var xhr = e.detail && e.detail.xhr;
    if (isPoll(elt)) { linkDown("poll"); return; }
    if (conn.ended && xhr === conn.ended.xhr) { tapLost(conn.ended); }
  });

  function linkDown(what) {
    conn.down[what] = true;
    clearTimeout(conn.backTimer);
    showLink();
  }
  function linkUp(what) {
    var wasDown = isDown();
    delete conn.down[what];
    if (what !== "tap") { delete conn.down.tap; }  // the server answers again
    if (wasDown && !isDown()) {
      conn.said = "back";
      clearTimeout(conn.backTimer);
      conn.backTimer = setTimeout(function () { if (conn.said === "back" && !conn.unsent) { conn.said = ""; showLink(); } },
                                  BACK_SHOWN_MS);
      showLink();
      catchUpNow();
    }
  }
  function isDown() {  // no answer to a tap, or the stream and the poll both failing
    return !!(conn.down.tap || (conn.down.stream && conn.down.poll));
  }
  function catchUpNow() {  // the link is back: the newest version of the game
    if (!conn.tap) { htmx.trigger(document.body, "game-changed"); }
  }

  function connBox() {
    if (!conn.box) {
      var box = document.createElement("div");
      box.className = "conn-state";
      box.setAttribute("role", "alert");
      box.appendChild(document.createElement("p"));
      var retry = document.createElement("button");
      retry.type = "button";
      retry.className = "btn btn-primary conn-retry";
      box.appendChild(retry);
      conn.box = box;
    }
    return conn.box;
  }
  function showLink() {  // the connection's message in the decision bar (else under the status bar), or none
    var down = isDown(), unsent = conn.unsent, text = "", level = "error";
    if (down) {
      conn.said = "down";
      text = unsent ? gettext("No connection to the server — the move was not sent.")
        : gettext("No connection to the server: moves cannot be sent until it is back.");
    } else if (unsent) {
      text = gettext("The connection is back, but the move was not sent: tap Retry to send it.");
      level = "warning";
    } else if (conn.said === "back") {
      text = gettext("The connection is back: the page shows the newest state of the game.");
      level = "success";
    }
    if (!text) {
      if (conn.box && conn.box.parentNode) { conn.box.parentNode.removeChild(conn.box); fitBar(); }
      return;
    }
    var box = connBox();
    box.className = "conn-state conn-" + level;
    box.firstChild.textContent = text;
    box.lastChild.textContent = gettext("Retry");
    box.lastChild.hidden = !unsent;
    if (down) {  // the old answer is not the news any more
      var old = document.querySelectorAll("#game .flash");
      for (var i = 0; i < old.length; i++) { old[i].parentNode.removeChild(old[i]); }
    }
    var place = document.querySelector("#game .decision-bar .bar-answer") || document.querySelector("#game .pinned");
    if (place && box.parentNode !== place) { place.appendChild(box); }
    fitBar();
  }

  function note(text) {  // a short answer of the page itself, where the answer to a tap goes
    clearErrors();
    var flash = document.createElement("div");
    flash.className = "flash flash-warning flash-here";
    flash.setAttribute("role", "status");
    var p = document.createElement("p");
    p.textContent = text;
    flash.appendChild(p);
    var place = document.querySelector("#game .decision-bar .bar-answer") || document.querySelector("#game .pinned");
    if (place) { place.appendChild(flash); fitBar(); }
  }
  window.qmgNote = note;  // static/js/board.js: why a tap on the map did nothing

  // «Повторить»: the same form again, its values as they were sent (its version too: a move the server did get
  // is refused as a conflict, never applied twice); its answer goes into the bar like a tap's
  document.addEventListener("click", function (e) {
    var retry = e.target && e.target.closest ? e.target.closest(".conn-retry") : null;
    var tap = conn.unsent;
    if (!retry || !tap) { return; }
    if (conn.tap && conn.tap.xhr) { conn.tap.replaced = true; conn.tap.xhr.abort(); }
    conn.unsent = null;
    delete conn.down.tap;
    conn.said = "";
    retry.hidden = true;
    retry.previousSibling.textContent = gettext("Sending the move again…");
    tappedTop = retry.getBoundingClientRect().top;
    tappedInBar = !!retry.closest(".decision-bar");
    htmx.ajax("POST", tap.path, { source: retry, values: tap.values, target: "#game", swap: "outerHTML show:none" });
  });

  // ------------------------------------------------------------------ new-game form ----
  function show(name, visible) {
    var box = document.getElementById("div_id_" + name);
    if (box) { box.hidden = !visible; }
  }

  function newGameForm(form) {
    var players = form.querySelector("select[name=players]");
    var seating = form.querySelector("input[name=default_seating]");
    var air = form.querySelector("input[name=air_marshal]");
    var n = players ? parseInt(players.value, 10) || 6 : 6;
    for (var i = 1; i <= 6; i++) { show("player_" + i, i <= n); }
    var seats = form.querySelectorAll("[id^=div_id_seat_]");
    for (var j = 0; j < seats.length; j++) { seats[j].hidden = !!(seating && seating.checked); }
    var airs = form.querySelectorAll("[id^=div_id_air_]");
    for (var k = 0; k < airs.length; k++) {
      if (airs[k].id !== "div_id_air_marshal") { airs[k].hidden = !(air && air.checked); }
    }
  }

  function initForms() {
    var forms = document.querySelectorAll("form.new-game");
    for (var i = 0; i < forms.length; i++) { newGameForm(forms[i]); }
    padPinned();
    fitBar();
  }
  document.addEventListener("change", function (e) {
    var form = e.target && e.target.form;
    if (form && form.classList.contains("new-game")) { newGameForm(form); }
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", initForms);
  } else {
    initForms();
  }
})();
