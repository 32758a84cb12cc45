/* Generalissimus: progressive enhancement only (every form works without it).
   Setup grid: tapping a sector cycles its terrain and recolours the cell. */
(function () {
  "use strict";
  function paint(cell, select) {
    cell.className = cell.className.replace(/\bterrain-\w+/g, "").trim() + " terrain-" + select.value;
  }
  document.addEventListener("click", function (e) {
    var cell = e.target.closest ? e.target.closest(".g-terrain-cell") : null;
    if (!cell || e.target.tagName === "SELECT" || e.target.tagName === "OPTION") return;
    var select = cell.querySelector("select");
    if (!select) return;
    e.preventDefault();
    select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
    paint(cell, select);
  });
  document.addEventListener("change", function (e) {
    if (e.target.classList && e.target.classList.contains("terrain-select")) {
      var cell = e.target.closest(".g-terrain-cell");
      if (cell) paint(cell, e.target);
    }
  });
})();
