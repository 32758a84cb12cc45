/* The QMG board map: pan (drag), zoom (buttons, pinch, wheel), tap a space to select it.
 *
 * Own code, no dependencies. Every listener is delegated from `document`, so a map partial
 * swapped in by htmx works at once; views are (re)initialised on DOMContentLoaded,
 * htmx:afterSwap / htmx:load and window resize. No inline styles: the view is the SVG viewBox.
 *
 * DOM contract (see templates/qmg/_board.html and tracker/templatetags/qmg_board.py):
 *   [data-board]                     wrapper of one map
 *     .board-viewport                the pan/zoom area (touch-action: none in board.css)
 *       svg.board-svg                viewBox = whole map; data-focus="x y"; data-label-empty
 *         g.space[data-space]        data-name, data-kind, data-facts (JSON list of strings),
 *                                    data-pieces (JSON list of {country, kind, supplied, colour, text})
 *     [data-board-zoom=in|out|reset] buttons
 *     [data-board-show=SPACE_ID]     buttons in the list fallback: select and centre that space
 *   #space-info                      the info box filled on selection (anywhere on the page)
 *   [data-board-target]              the current form: its input/select named "space" (or the
 *                                    name given as the attribute's value) receives the space id.
 *   [data-step-choice][data-space]   the engine's legal choices of the open card step (buttons in
 *                                    #card-steps): their spaces are outlined on the map; a tap on an
 *                                    outlined space with one choice makes it, with several it shows them.
 *   g.space-half[data-half-of]       where the board wraps (static/js: a cylinder), the other half of a space
 *                                    at the opposite edge: a tap on it is a tap on that space
 *   [data-roles] (#game)             this phone's countries (its seat): the first view is centred on the home
 *                                    space of the one to play (else of the first), found by its g.home[data-home]
 * On selection the svg dispatches a bubbling "board:select" event with detail {space, name}.
 * The view (pan and zoom) is kept for the page in sessionStorage: a refresh or a reload keeps it.
 * A tap on a space that is not outlined while a card step's spaces are says why (window.qmgNote, app.js).
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var MAX_SCALE = 3.5;      // screen px per map unit at the closest zoom
  var READABLE = 0.7;       // first view on a narrow screen: map text (12 units) at about 8-9 px
  var STEP = 1.5;           // zoom button factor
  var TAP_SLOP = 8;         // px a pointer may move and still be a tap
  var views = new WeakMap(); // svg -> view state
  var lastView = null;       // the view of the map last shown: kept when htmx swaps the map in again
  var STORE = "qmg-board-view:" + window.location.pathname;  // the game page and the table screen apart
  try { lastView = JSON.parse(window.sessionStorage.getItem(STORE) || "null"); } catch (e) { lastView = null; }
  // the page's language (Django's JavaScript catalogue, /jsi18n/); without it, the English text
  var gettext = typeof window.gettext === "function" ? window.gettext : function (text) { return text; };

  function closest(el, sel) {
    return el && el.closest ? el.closest(sel) : null;
  }

  // ---------------------------------------------------------------- view (pan / zoom) ----
  function mapSize(svg) {
    return {
      w: parseFloat(svg.getAttribute("data-width")) || svg.viewBox.baseVal.width,
      h: parseFloat(svg.getAttribute("data-height")) || svg.viewBox.baseVal.height
    };
  }

  function viewportOf(svg) {
    return closest(svg, ".board-viewport") || svg.parentNode;
  }

  function boxSize(svg) {  // the map's own box (the zoom buttons have a strip of their own beside it)
    var vp = viewportOf(svg);
    return { w: svg.clientWidth || vp.clientWidth || 360, h: svg.clientHeight || vp.clientHeight || 300 };
  }

  function minScale(v) {
    return Math.min(v.box.w / v.map.w, v.box.h / v.map.h);
  }

  function clampView(v) {
    var lo = minScale(v);
    v.s = Math.max(lo, Math.min(MAX_SCALE, v.s));
    var vw = v.box.w / v.s, vh = v.box.h / v.s;
    v.cx = vw >= v.map.w ? v.map.w / 2 : Math.max(vw / 2, Math.min(v.map.w - vw / 2, v.cx));
    v.cy = vh >= v.map.h ? v.map.h / 2 : Math.max(vh / 2, Math.min(v.map.h - vh / 2, v.cy));
  }

  function apply(v) {
    clampView(v);
    var vw = v.box.w / v.s, vh = v.box.h / v.s;
    v.svg.setAttribute("viewBox", [v.cx - vw / 2, v.cy - vh / 2, vw, vh].map(function (n) {
      return Math.round(n * 10) / 10;
    }).join(" "));
    lastView = { w: v.map.w, h: v.map.h, s: v.s, cx: v.cx, cy: v.cy };
    var root = closest(v.svg, "[data-board]");
    if (root) {
      root.classList.toggle("board-zoomed", v.s > minScale(v) * 1.01);
    }
  }

  // this phone's home space: of its country to play now, else of its first country (none for a spectator)
  function homeSpace(svg) {
    var holder = document.querySelector("#game [data-roles]");
    var roles = holder ? (holder.getAttribute("data-roles") || "").split(/\s+/).filter(Boolean) : [];
    if (!roles.length) { return null; }
    var active = document.querySelector("#game .status-bar .active");
    var now = active && roles.filter(function (r) { return active.classList.contains("country-" + r); })[0];
    var mark = svg.querySelector('g.home[data-home="' + (now || roles[0]) + '"]');
    return mark ? closest(mark, "g.space") : null;
  }

  function focusPoint(svg) {
    var sel = svg.querySelector(".space.selected") || homeSpace(svg);
    if (sel) {
      var c = centreOf(sel);
      if (c) { return c; }
    }
    var f = (svg.getAttribute("data-focus") || "").split(" ").map(parseFloat);
    var m = mapSize(svg);
    return { x: isFinite(f[0]) ? f[0] : m.w / 2, y: isFinite(f[1]) ? f[1] : m.h / 2 };
  }

  function centreOf(g) {
    var shape = g.querySelector(".shape");
    if (!shape || !shape.getBBox) { return null; }
    try {
      var b = shape.getBBox();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    } catch (e) {
      return null;
    }
  }

  function resetView(v) {
    v.box = boxSize(v.svg);
    var whole = minScale(v);
    // A wide screen sees the whole map; a phone starts closer, on the focus point.
    v.s = whole >= READABLE * 0.75 ? whole : Math.max(whole, Math.min(READABLE, v.box.h / v.map.h * 1.6));
    var f = focusPoint(v.svg);
    v.cx = f.x;
    v.cy = f.y;
    apply(v);
  }

  function init(svg) {
    var v = views.get(svg);
    if (v) {  // already initialised: only follow a size change
      var box = boxSize(svg);
      if (box.w !== v.box.w || box.h !== v.box.h) {
        v.box = box;
        apply(v);
      }
      return v;
    }
    v = { svg: svg, map: mapSize(svg), box: boxSize(svg), s: 1, cx: 0, cy: 0, pointers: new Map(),
          dragged: false, lastDrag: 0, pinch: null };
    views.set(svg, v);
    if (lastView && lastView.w === v.map.w && lastView.h === v.map.h && isFinite(lastView.s)) {
      v.s = lastView.s;  // same board as before the swap (or the reload): keep where the player was
      v.cx = lastView.cx;
      v.cy = lastView.cy;
      apply(v);
    } else {
      resetView(v);
    }
    var sel = svg.querySelector(".space.selected");
    if (!sel) {
      var id = currentTargetValue();
      if (id) { sel = spaceById(svg, id); if (sel) { markSelected(svg, sel); } }
    }
    if (sel) { showInfo(svg, sel); }
    return v;
  }

  // ---------------------------------------------------------------- card step targets ---
  function choiceButtons(id) {
    var all = document.querySelectorAll("[data-step-choice]");
    var out = [];
    for (var i = 0; i < all.length; i++) {
      if (!id || all[i].getAttribute("data-space") === id) { out.push(all[i]); }
    }
    return out;
  }

  function markTargets() {
    var spaces = {};
    choiceButtons().forEach(function (b) {
      var id = b.getAttribute("data-space");
      if (id) { spaces[id] = true; }
    });
    var svgs = document.querySelectorAll("[data-board] svg.board-svg");
    for (var i = 0; i < svgs.length; i++) {
      var all = svgs[i].querySelectorAll("g.space, g.space-half");
      for (var j = 0; j < all.length; j++) {
        var id = all[j].getAttribute("data-space") || all[j].getAttribute("data-half-of");
        all[j].classList.toggle("target", !!spaces[id]);
      }
    }
  }

  function takeChoice(id) {
    var here = choiceButtons(id);
    choiceButtons().forEach(function (b) { b.classList.remove("choice-here"); });
    if (here.length === 1) {
      here[0].click();  // one legal choice in that space: the tap on the map is the decision
      return true;
    }
    if (here.length > 1) {  // several (e.g. whose piece): show them where the eye goes next
      here.forEach(function (b) { b.classList.add("choice-here"); });
      if (here[0].scrollIntoView) { here[0].scrollIntoView({ block: "nearest" }); }
      here[0].focus({ preventScroll: true });
      return true;
    }
    return false;
  }

  function initAll(root) {
    markTargets();
    var scope = root && root.querySelectorAll ? root : document;
    var svgs = scope.querySelectorAll("[data-board] svg.board-svg");
    for (var i = 0; i < svgs.length; i++) { init(svgs[i]); }
    if (scope !== document && scope.matches && scope.matches("svg.board-svg")) { init(scope); }
  }

  function zoomAt(v, factor, px, py) {
    // keep the map point under (px, py) (pixels from the viewport's top-left) where it is
    var vw = v.box.w / v.s, vh = v.box.h / v.s;
    var ux = v.cx - vw / 2 + px / v.s, uy = v.cy - vh / 2 + py / v.s;
    v.s = v.s * factor;
    clampView(v);
    v.cx = ux - px / v.s + v.box.w / v.s / 2;
    v.cy = uy - py / v.s + v.box.h / v.s / 2;
    apply(v);
  }

  function localPoint(v, e) {
    var r = viewportOf(v.svg).getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  function svgFromEvent(e) {
    if (closest(e.target, ".board-controls")) { return null; }  // the zoom buttons' strip is not the map
    var vp = closest(e.target, ".board-viewport");
    return vp ? vp.querySelector("svg.board-svg") : null;
  }

  document.addEventListener("pointerdown", function (e) {
    var svg = svgFromEvent(e);
    if (!svg || (e.pointerType === "mouse" && e.button !== 0)) { return; }
    var v = init(svg);
    v.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY });
    if (v.pointers.size === 1) {
      v.dragged = false;
    } else if (v.pointers.size === 2) {
      var p = Array.from(v.pointers.values());
      v.pinch = { d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y) || 1, s: v.s };
      v.dragged = true;
    }
  });

  document.addEventListener("pointermove", function (e) {
    var svgs = document.querySelectorAll("[data-board] svg.board-svg");
    for (var i = 0; i < svgs.length; i++) {
      var v = views.get(svgs[i]);
      if (!v || !v.pointers.has(e.pointerId)) { continue; }
      var p = v.pointers.get(e.pointerId);
      var dx = e.clientX - p.x, dy = e.clientY - p.y;
      p.x = e.clientX;
      p.y = e.clientY;
      if (v.pointers.size === 1) {
        if (!v.dragged && Math.hypot(e.clientX - p.x0, e.clientY - p.y0) < TAP_SLOP) { return; }
        v.dragged = true;
        v.cx -= dx / v.s;
        v.cy -= dy / v.s;
        apply(v);
      } else if (v.pointers.size === 2 && v.pinch) {
        var pts = Array.from(v.pointers.values());
        var d = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y) || 1;
        var mid = localPoint(v, { clientX: (pts[0].x + pts[1].x) / 2, clientY: (pts[0].y + pts[1].y) / 2 });
        // pan with the midpoint, then zoom around it
        v.cx -= dx / 2 / v.s;
        v.cy -= dy / 2 / v.s;
        zoomAt(v, (v.pinch.s * d / v.pinch.d) / v.s, mid.x, mid.y);
      }
      e.preventDefault();
      return;
    }
  }, { passive: false });

  function endPointer(e) {
    var svgs = document.querySelectorAll("[data-board] svg.board-svg");
    for (var i = 0; i < svgs.length; i++) {
      var v = views.get(svgs[i]);
      if (!v || !v.pointers.has(e.pointerId)) { continue; }
      v.pointers.delete(e.pointerId);
      if (v.pointers.size < 2) { v.pinch = null; }
      if (v.dragged) { v.lastDrag = Date.now(); }
      if (v.pointers.size === 0) { v.dragged = false; }
    }
  }
  document.addEventListener("pointerup", endPointer);
  document.addEventListener("pointercancel", endPointer);

  document.addEventListener("wheel", function (e) {
    var svg = svgFromEvent(e);
    if (!svg || e.ctrlKey && e.deltaY === 0) { return; }
    var v = init(svg);
    e.preventDefault();
    var unit = e.deltaMode === 1 ? 16 : (e.deltaMode === 2 ? 400 : 1);
    var pt = localPoint(v, e);
    zoomAt(v, Math.exp(-e.deltaY * unit * 0.0015), pt.x, pt.y);
  }, { passive: false });

  // ---------------------------------------------------------------- selection ----------
  function spaceById(svg, id) {
    var all = svg.querySelectorAll("g.space");
    for (var i = 0; i < all.length; i++) {
      if (all[i].getAttribute("data-space") === id) { return all[i]; }
    }
    return null;
  }

  function targetFields() {
    var out = [];
    var forms = document.querySelectorAll("[data-board-target]");
    for (var i = 0; i < forms.length; i++) {
      var name = forms[i].getAttribute("data-board-target") || "space";
      var els = forms[i].querySelectorAll("input, select");
      for (var j = 0; j < els.length; j++) {
        if (els[j].name === name) { out.push(els[j]); }
      }
    }
    return out;
  }

  function currentTargetValue() {
    var fields = targetFields();
    for (var i = 0; i < fields.length; i++) {
      if (fields[i].value) { return fields[i].value; }
    }
    return "";
  }

  function setFields(id) {
    var fields = targetFields();
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.tagName === "SELECT" && !Array.from(f.options).some(function (o) { return o.value === id; })) {
        continue;  // this form does not offer that space
      }
      if (f.value === id) { continue; }
      f.value = id;
      f.dispatchEvent(new Event("input", { bubbles: true }));
      f.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  function markSelected(svg, g) {
    var old = svg.querySelectorAll("g.space.selected, g.space-half.selected");
    for (var i = 0; i < old.length; i++) {
      old[i].classList.remove("selected");
      if (old[i].hasAttribute("aria-pressed")) { old[i].setAttribute("aria-pressed", "false"); }
      var r = old[i].querySelector(".sel-ring");
      if (r) { r.setAttribute("visibility", "hidden"); }
    }
    if (!g) { return; }
    g.classList.add("selected");
    g.setAttribute("aria-pressed", "true");
    var ring = g.querySelector(".sel-ring");
    if (ring) { ring.setAttribute("visibility", "visible"); }
    var halves = svg.querySelectorAll('g.space-half[data-half-of="' + g.getAttribute("data-space") + '"]');
    for (var j = 0; j < halves.length; j++) { halves[j].classList.add("selected"); }
  }

  function parseJSON(text) {
    try {
      var value = JSON.parse(text || "[]");
      return Array.isArray(value) ? value : [];
    } catch (e) {
      return [];
    }
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function chip(piece) {
    var svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "0 0 20 20");
    svg.setAttribute("class", "chip");
    svg.setAttribute("aria-hidden", "true");
    var shape;
    if (piece.kind === "navy") {
      shape = document.createElementNS(SVG_NS, "path");
      shape.setAttribute("d", "M1,7 H7 V3 H13 V7 H19 L15,17 H5 Z");
    } else if (piece.kind === "air") {
      shape = document.createElementNS(SVG_NS, "path");
      shape.setAttribute("d", "M10,2 L18,17 H2 Z");
    } else {
      shape = document.createElementNS(SVG_NS, "circle");
      shape.setAttribute("cx", "10");
      shape.setAttribute("cy", "10");
      shape.setAttribute("r", "8");
    }
    shape.setAttribute("fill", /^#[0-9a-fA-F]{3,8}$/.test(piece.colour || "") ? piece.colour : "#999999");
    shape.setAttribute("stroke", piece.supplied === false ? "#d7191c" : "#1a1a1a");
    shape.setAttribute("stroke-width", piece.supplied === false ? "2.5" : "1.2");
    if (piece.supplied === false) { shape.setAttribute("stroke-dasharray", "3 2"); }
    svg.appendChild(shape);
    return svg;
  }

  function showInfo(svg, g) {
    var box = document.getElementById("space-info");
    if (!box || !g) { return; }
    while (box.firstChild) { box.removeChild(box.firstChild); }
    box.appendChild(el("h3", "space-info-name", g.getAttribute("data-name") || g.getAttribute("data-space")));
    var facts = parseJSON(g.getAttribute("data-facts"));
    if (facts.length) {
      var ulf = el("ul", "space-info-facts");
      facts.forEach(function (f) { ulf.appendChild(el("li", "", String(f))); });
      box.appendChild(ulf);
    }
    var pieces = parseJSON(g.getAttribute("data-pieces"));
    if (pieces.length) {
      var ul = el("ul", "space-info-pieces");
      pieces.forEach(function (p) {
        var li = el("li", p.supplied === false ? "unsupplied" : "");
        li.appendChild(chip(p));
        li.appendChild(el("span", "", String(p.text || "")));
        ul.appendChild(li);
      });
      box.appendChild(ul);
    } else {
      box.appendChild(el("p", "space-info-empty", svg.getAttribute("data-label-empty") || ""));
    }
    box.hidden = false;
  }

  function select(svg, g, opts) {
    if (!g) { return; }
    markSelected(svg, g);
    showInfo(svg, g);
    if (!(opts && opts.noFields)) { setFields(g.getAttribute("data-space")); }
    svg.dispatchEvent(new CustomEvent("board:select", {
      bubbles: true, detail: { space: g.getAttribute("data-space"), name: g.getAttribute("data-name") }
    }));
  }

  function centreOn(svg, g) {
    var v = init(svg), c = centreOf(g);
    if (!c) { return; }
    v.s = Math.max(v.s, Math.min(MAX_SCALE, READABLE * 1.3));
    v.cx = c.x;
    v.cy = c.y;
    apply(v);
  }

  document.addEventListener("click", function (e) {
    var zoom = closest(e.target, "[data-board-zoom]");
    if (zoom) {
      var root = closest(zoom, "[data-board]");
      var svg = root && root.querySelector("svg.board-svg");
      if (!svg) { return; }
      var v = init(svg), what = zoom.getAttribute("data-board-zoom");
      if (what === "reset") {
        resetView(v);
      } else {
        zoomAt(v, what === "out" ? 1 / STEP : STEP, v.box.w / 2, v.box.h / 2);
      }
      return;
    }
    var show = closest(e.target, "[data-board-show]");
    if (show) {
      var root2 = closest(show, "[data-board]") || document;
      var svg2 = root2.querySelector("svg.board-svg");
      var g2 = svg2 && spaceById(svg2, show.getAttribute("data-board-show"));
      if (g2) {
        select(svg2, g2);
        centreOn(svg2, g2);
        var vp = viewportOf(svg2);
        if (vp.scrollIntoView) { vp.scrollIntoView({ block: "nearest" }); }
      }
      return;
    }
    var g = spaceTapped(e.target);
    var svg3 = g && closest(g, "svg.board-svg");
    if (!svg3) { return; }
    var v3 = views.get(svg3);
    if (v3 && Date.now() - v3.lastDrag < 350) { return; }  // the end of a drag is not a tap
    tapSpace(svg3, g);
  });

  // a space, or the other half of one where the board wraps
  function spaceTapped(target) {
    var half = closest(target, "g.space-half");
    if (half) {
      var svg = closest(half, "svg.board-svg");
      return svg ? spaceById(svg, half.getAttribute("data-half-of")) : null;
    }
    return closest(target, "g.space");
  }

  function tapSpace(svg, g) {
    select(svg, g);
    if (g.classList.contains("target")) {
      takeChoice(g.getAttribute("data-space"));
    } else if (svg.querySelector("g.space.target") && typeof window.qmgNote === "function") {
      // a card step's spaces are outlined and this is not one of them: the tap says why nothing happened
      window.qmgNote(gettext("%(space)s is not a choice of this step: tap a space outlined on the map, or a button of the step.")
        .replace("%(space)s", g.getAttribute("data-name") || g.getAttribute("data-space")));
    }
  }

  document.addEventListener("keydown", function (e) {
    var g = spaceTapped(e.target);
    if (!g || (e.key !== "Enter" && e.key !== " " && e.key !== "Spacebar")) { return; }
    var svg = closest(g, "svg.board-svg");
    if (!svg) { return; }
    e.preventDefault();
    tapSpace(svg, g);
  });

  // the form's own field changed (e.g. a <select name="space">): follow it on the map
  document.addEventListener("change", function (e) {
    var f = e.target;
    if (!f || !closest(f, "[data-board-target]")) { return; }
    var form = closest(f, "[data-board-target]");
    if (f.name !== (form.getAttribute("data-board-target") || "space")) { return; }
    var svgs = document.querySelectorAll("[data-board] svg.board-svg");
    for (var i = 0; i < svgs.length; i++) {
      var g = spaceById(svgs[i], f.value);
      if (g && !g.classList.contains("selected")) { select(svgs[i], g, { noFields: true }); }
    }
  });

  function onReady() { initAll(document); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onReady);
  } else {
    onReady();
  }
  document.addEventListener("htmx:afterSwap", function (e) { initAll(e.target || document); initAll(document); });
  document.addEventListener("htmx:load", function (e) { initAll(e.target || document); });
  window.addEventListener("resize", function () { initAll(document); });
  function keepView() {
    try { window.sessionStorage.setItem(STORE, JSON.stringify(lastView)); } catch (e) { /* private mode */ }
  }
  window.addEventListener("pagehide", keepView);
  document.addEventListener("visibilitychange", function () {  // a phone put away may never show the page again
    if (document.visibilityState === "hidden") { keepView(); }
  });
})();
