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
 * - The new-game form shows only the fields that apply (player names up to the number of players,
 *   the country seats when the rulebook seating is unticked, air forces with Air Marshal).
 */
(function () {
  "use strict";

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
    if (!elt || !elt.closest || !elt.closest("form")) { return; }  // a refresh by the poll: not the tap's answer
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
    // Under its cap (max-height, static/css/app.css) the bar's long lists (.bar-scroll; and the answer) give up
    // what the bar would overflow, the last first, never below one row; the rest of the bar (its buttons) keeps
    // its height.
    var lists = bar.querySelectorAll(".bar-answer, .bar-scroll"), i;
    for (i = 0; i < lists.length; i++) { lists[i].style.maxHeight = ""; }
    var over = bar.scrollHeight - bar.clientHeight;
    for (i = lists.length - 1; i >= 0 && over > 0; i--) {
      var full = Math.floor(lists[i].getBoundingClientRect().height);
      var keep = Math.max(Math.min(full, 40), full - over);
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
    if (form && form.closest && form.closest("#game")) { clearErrors(); }
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
  document.addEventListener("htmx:sseOpen", function (e) {
    var source = e.detail && e.detail.source;
    if (!source || source === live.source) { return; }
    live.source = source;
    source.addEventListener("ping", heard);
    source.addEventListener("version", function (ev) {
      heard();
      var v = parseInt(ev.data, 10);
      if (v > live.latest) { live.latest = v; }
    });
  });
  document.addEventListener("htmx:sseError", function () { live.heard = 0; });
  document.addEventListener("htmx:sseClose", function () { live.source = null; });

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
  // - a refresh the stream asked for while a tap was on its way goes the same way when the tap's answer comes
  //   in: when the stream has announced a newer version than the page then shows, the page asks for it again
  //   (once per version shown: never a loop), keeping the tap's answer on screen. So does a tap that got no
  //   page back (a server fault, the network).
  var aborting = false;
  document.addEventListener("htmx:confirm", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt || !elt.closest || background(elt)) { return; }
    var game = elt.closest("#game");
    carry.wanted = false;  // a new tap: its own answer comes, the last one's is not kept any more
    aborting = true;
    try {  // an abort lets a request queued behind it start at once: that one gives way too
      for (var i = 0; i < 3 && game && waiting && waiting.closest("#game") === game; i++) {
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
  document.addEventListener("htmx:beforeSwap", function (e) {
    var elt = e.detail && e.detail.requestConfig ? e.detail.requestConfig.elt : null;
    if (!elt || elt.id !== "game" || !e.detail.serverResponse) { return; }  // a tap's answer is always the newest
    var m = /data-version="(\d+)"/.exec(e.detail.serverResponse);
    // never back to an older state, and a refresh of the version shown brings nothing new (a poll that left
    // before this phone's own tap was answered): the answer to the tap stays on screen
    if (m && parseInt(m[1], 10) <= shownVersion()) { e.detail.shouldSwap = false; }
    if (e.detail.shouldSwap && carry.wanted) {  // the page asked again after a tap: its answer stays
      var flash = document.querySelector("#game .flash");
      carry = { wanted: false, flash: flash, inBar: !!(flash && flash.closest(".decision-bar")) };
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    var flash = carry.flash;
    if (!flash) { return; }
    carry.flash = null;
    var place = (carry.inBar && document.querySelector("#game .decision-bar .bar-answer")) ||
      document.querySelector("#game .pinned");
    if (place && !document.querySelector("#game .flash")) { place.appendChild(flash); }
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
