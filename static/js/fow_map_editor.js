// The Fog of War map editor: tap two provinces on the drawn map to connect (or disconnect) them.
// Without JavaScript the two selects under the map do the same.
(function () {
  "use strict";
  function init() {
    var svg = document.querySelector("svg.fow-map");
    var form = document.querySelector("form.connect");
    if (!svg || !form) { return; }
    var picked = null;
    svg.addEventListener("click", function (ev) {
      var node = ev.target.closest ? ev.target.closest("g.node") : null;
      if (!node) { return; }
      if (picked === null) {
        picked = node;
        node.classList.add("picked");
        return;
      }
      if (picked === node) {
        node.classList.remove("picked");
        picked = null;
        return;
      }
      form.querySelector("select[name=a]").value = picked.getAttribute("data-key");
      form.querySelector("select[name=b]").value = node.getAttribute("data-key");
      node.classList.add("picked");
      form.submit();
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
