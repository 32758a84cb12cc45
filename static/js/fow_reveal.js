// The Fog of War: a reveal is one tap per known card value (the map file's card values per side).
// Each chip appends its code to the stack's input; without JavaScript the input is typed.
(function () {
  "use strict";
  document.addEventListener("click", function (ev) {
    var chip = ev.target.closest ? ev.target.closest("button.reveal-chip") : null;
    if (!chip) { return; }
    ev.preventDefault();
    var form = chip.closest("form");
    var input = form && form.querySelector("input[name=" + chip.getAttribute("data-target") + "]");
    if (!input) { return; }
    input.value = (input.value ? input.value + " " : "") + chip.getAttribute("data-code");
  });
})();
