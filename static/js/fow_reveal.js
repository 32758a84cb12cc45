// The Fog of War's page. An action opened in the bar comes to its top. A reveal by taps. Each known card value (the map file's card values per side) is one chip;
// without a map file, a card is its kind then its strength as printed (two taps; a zero card is one), added to
// the stack chosen above. Each tap appends the card's code to the stack's input; without JavaScript it is typed.
(function () {
  "use strict";
  if (window.fowRevealTaps) { return; }  // the page's partial is swapped in again after every move
  window.fowRevealTaps = true;
  function add(form, name, code) {
    var input = form && form.querySelector("input[name=" + name + "]");
    if (input) { input.value = (input.value ? input.value + " " : "") + code; }
  }
  // an action opened in the bar: its form starts at the top of the bar's list (the bar holds half the screen)
  document.addEventListener("toggle", function (ev) {
    var d = ev.target;
    if (!d || !d.matches || !d.matches(".fow .decision-bar details.action") || !d.open) { return; }
    var list = d.closest(".bar-scroll");
    if (list) { list.scrollTop = d.offsetTop - list.offsetTop; }
  }, true);
  document.addEventListener("click", function (ev) {
    var el = ev.target.closest ? ev.target.closest("button.reveal-chip, button.reveal-kind, button.reveal-value") : null;
    if (!el) { return; }
    ev.preventDefault();
    var form = el.closest("form");
    if (el.classList.contains("reveal-chip")) { add(form, el.getAttribute("data-target"), el.getAttribute("data-code")); return; }
    var box = el.closest(".reveal-taps");
    var to = form.querySelector("input[name=reveal_to]:checked");
    var stack = box.getAttribute("data-input") || (to ? to.value : "reveal_attack");
    if (el.classList.contains("reveal-kind")) {
      if (el.getAttribute("data-kind") === "Z") { add(form, stack, "Z"); return; }
      box.setAttribute("data-kind", el.getAttribute("data-kind"));
      box.querySelectorAll("button.reveal-kind").forEach(function (b) { b.classList.toggle("is-on", b === el); });
      return;
    }
    add(form, stack, (box.getAttribute("data-kind") || "L") + el.getAttribute("data-value"));
  });
})();
