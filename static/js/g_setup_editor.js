/* Generalissimus new battle: units placed by taps on the setup board (progressive enhancement).
   It only writes the typed unit list (textarea "units", one unit a line), so the form and its
   checks stay the server's; without JavaScript the typed list is the way in. CSP-safe: no inline
   code, no eval. */
(function () {
  "use strict";
  var SIDE_WORDS = {south: "south", s: "south", "юг": "south", north: "north", n: "north", "север": "north"};
  var KINDS = {infantry: "infantry", inf: "infantry", "пехота": "infantry", cavalry: "cavalry", cav: "cavalry",
    "конница": "cavalry", artillery: "artillery", art: "artillery", battery: "artillery", "артиллерия": "artillery", "батарея": "artillery"};
  var FORMATIONS = {column: 1, line: 1, square: 1, disordered: 1};
  var MAX_UNITS = 60;

  function init(editor) {
    var form = editor.closest("form"), text = form.querySelector("textarea[name=units]");
    var grid = form.querySelector(".g-terrain-grid"), palette = editor.querySelector(".g-palette");
    var count = editor.querySelector(".g-unit-count");
    if (!text || !grid) return;
    var units = {}, extra = [], mode = "terrain";
    var pick = {side: "south", kind: "infantry", formation: "column"};

    function shortOf(kind) {
      var b = editor.querySelector('[data-pick=kind] [data-value="' + kind + '"]');
      return b ? b.getAttribute("data-short") : kind.slice(0, 3);
    }
    function labelOf(row, value) {
      var b = editor.querySelector('[data-pick=' + row + '] [data-value="' + value + '"]');
      return b ? b.textContent : value;
    }
    function parse() {  // the typed list as it stands (a form sent back with an error keeps its units)
      units = {}; extra = [];
      text.value.split("\n").forEach(function (line) {
        var t = line.trim().toLowerCase().split(/\s+/);
        if (!line.trim()) return;
        var side = SIDE_WORDS[t[0]], kind = KINDS[t[1]], sector = t[2];
        if (!side || !kind || !/^[a-f][1-6]$/.test(sector || "") || units[sector]) { extra.push(line); return; }
        var formation = "column";
        t.slice(3).forEach(function (w) { if (FORMATIONS[w]) formation = w; });
        units[sector] = {side: side, kind: kind, formation: formation, line: line.trim()};
      });
    }
    function write() {
      var lines = extra.slice();
      Object.keys(units).sort().forEach(function (s) { lines.push(units[s].line); });
      text.value = lines.join("\n");
    }
    function paint() {
      var n = {south: 0, north: 0};
      grid.querySelectorAll(".g-terrain-cell").forEach(function (cell) {
        var s = cell.getAttribute("data-cell"), mark = cell.querySelector(".g-unit-mark"), u = units[s];
        if (!mark) return;
        mark.className = "g-unit-mark" + (u ? " side-" + u.side : "");
        mark.textContent = u ? shortOf(u.kind) + (u.formation !== "column" ? " · " + labelOf("formation", u.formation).slice(0, 3) : "") : "";
        cell.setAttribute("aria-label", s + (u ? ": " + editor.getAttribute("data-side-" + u.side) + ", " +
          labelOf("kind", u.kind) + ", " + labelOf("formation", u.formation) : ""));
        if (u) n[u.side] += 1;
      });
      if (count) count.textContent = count.getAttribute("data-template").replace("{south}", n.south).replace("{north}", n.north);
    }
    function place(sector) {
      if (units[sector]) { delete units[sector]; }
      else {
        if (Object.keys(units).length + extra.length >= MAX_UNITS) return;
        var line = pick.side + " " + pick.kind + " " + sector + (pick.formation !== "column" ? " " + pick.formation : "");
        units[sector] = {side: pick.side, kind: pick.kind, formation: pick.formation, line: line};
      }
      write(); paint();
    }
    function setOn(row, button) {
      row.querySelectorAll("button").forEach(function (b) {
        var on = b === button; b.classList.toggle("is-on", on); b.setAttribute("aria-pressed", on ? "true" : "false");
      });
    }

    editor.hidden = false;
    parse(); paint();
    editor.querySelectorAll(".g-mode").forEach(function (b) {
      b.addEventListener("click", function () {
        mode = b.getAttribute("data-mode");
        setOn(b.parentNode, b);
        palette.hidden = mode !== "units";
        grid.classList.toggle("g-units-mode", mode === "units");
      });
    });
    editor.querySelectorAll(".g-pal-row").forEach(function (row) {
      row.addEventListener("click", function (e) {
        var b = e.target.closest("button");
        if (!b) return;
        pick[row.getAttribute("data-pick")] = b.getAttribute("data-value");
        setOn(row, b);
      });
    });
    var clear = editor.querySelector(".g-clear-units");
    if (clear) clear.addEventListener("click", function () { units = {}; extra = []; write(); paint(); });
    // capture phase on the grid: in unit mode a tap places a unit instead of cycling the terrain
    grid.addEventListener("click", function (e) {
      if (mode !== "units") return;
      var cell = e.target.closest(".g-terrain-cell");
      if (!cell) return;
      e.preventDefault();
      e.stopPropagation();
      place(cell.getAttribute("data-cell"));
    }, true);
    text.addEventListener("change", function () { parse(); paint(); });
  }

  function start() { document.querySelectorAll(".g-unit-editor").forEach(init); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
