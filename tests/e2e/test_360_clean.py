"""360 px clean: on a 360×640 phone, no text overflows its box sideways (a select's chosen option included) and no
visible word is broken inside itself (the CSS of overflow-wrap: anywhere, word-break or hyphens would do that: a
word drawn on two lines), on the QMG game page (the decision bar with an answer in it, the space info, every fold
open), the three new-game pages (every fold open) and the seats page; an empty field's placeholder is not cut either. URLs may break anywhere: they are not words."""
import re

import pytest
from playwright.sync_api import expect

from .test_decision_bar import two_players

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 640}

# What the page shows wrongly, as a list of strings (empty: clean).
PROBLEMS = r"""() => {
  const out = [];
  const visible = (el) => el.checkVisibility && el.checkVisibility() && el.getBoundingClientRect().width > 0;
  const skipped = (el) => el.closest(".visually-hidden, svg, script, style, textarea, .log, .cards-table");
  // 1. text wider than its box
  for (const el of document.querySelectorAll("main *, .topbar *")) {
    if (!visible(el) || skipped(el)) continue;
    const texts = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (!texts.length) continue;
    const box = el.getBoundingClientRect(), cs = getComputedStyle(el);
    const left = box.left + parseFloat(cs.borderLeftWidth), right = box.right - parseFloat(cs.borderRightWidth);
    for (const node of texts) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width && (r.right > right + 1 || r.left < left - 1 || r.right > window.innerWidth + 1)) {
          out.push("overflows: " + node.textContent.trim().slice(0, 50));
          break;
        }
      }
    }
  }
  // 2. a select's chosen option wider than the select (minus its arrow)
  const canvas = document.createElement("canvas").getContext("2d");
  for (const sel of document.querySelectorAll("main select")) {
    if (!visible(sel) || skipped(sel) || sel.selectedIndex < 0) continue;
    const cs = getComputedStyle(sel);
    canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = sel.options[sel.selectedIndex].text;
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 18;
    if (canvas.measureText(text).width > room + 1) out.push("cut in its select: " + text);
  }
  // 3. a word drawn on two lines
  for (const el of document.querySelectorAll("main *, .topbar *")) {
    if (!visible(el) || skipped(el)) continue;
    for (const node of el.childNodes) {
      if (node.nodeType !== 3) continue;
      const re = /[^\s\u00a0]+/g;
      let m;
      while ((m = re.exec(node.textContent))) {
        const word = m[0];
        if (word.length < 4 || /:\/\/|\//.test(word)) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + word.length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        // a word with its own hyphen may wrap after it: not broken by CSS
        if (lines.size > 1 && !/[-‐]/.test(word)) out.push("broken: " + word);
      }
    }
  }
  // 4. words that the CSS would break inside themselves where room is short (at a larger text size, a narrower
  //    phone): overflow-wrap: anywhere, word-break: break-all / break-word, hyphens: auto (URLs and code aside)
  for (const el of document.querySelectorAll("main *, .topbar *")) {
    if (!visible(el) || skipped(el) || el.closest("code, .link")) continue;
    const words = [...el.childNodes].filter((n) => n.nodeType === 3 && /[A-Za-zА-Яа-яЁё]{4,}/.test(n.textContent));
    if (!words.length) continue;
    const cs = getComputedStyle(el);
    if (cs.overflowWrap === "anywhere" || cs.wordBreak === "break-all" || cs.wordBreak === "break-word"
        || cs.hyphens === "auto")
      out.push("may break its words (" + [cs.overflowWrap, cs.wordBreak, cs.hyphens].join(" ") + "): "
               + words[0].textContent.trim().slice(0, 40));
  }
  // 5. a control cut at a side by a box it scrolls in (a row of buttons that runs off the screen)
  for (const el of document.querySelectorAll("main button, main select, main input, main summary, main a")) {
    if (!visible(el) || skipped(el) || el.type === "hidden") continue;
    const r = el.getBoundingClientRect();
    if (r.right > window.innerWidth + 1 || r.left < -1) { out.push("off the screen: " + (el.textContent || el.name).trim().slice(0, 40)); continue; }
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === "visible") continue;
      const b = a.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1) { out.push("cut at a side: " + (el.textContent || el.name).trim().slice(0, 40)); break; }
    }
  }
  // 6. a field's placeholder wider than the room the field gives its text (an empty field shows it cut: «…или
  //    название карт»): the placeholder put in as the value for a moment must not scroll the field (its room is less
  //    than its box: padding, and a datalist's arrow; no event is sent)
  for (const field of document.querySelectorAll("main input[placeholder]")) {
    if (!visible(field) || skipped(field) || field.value || !field.placeholder) continue;
    field.value = field.placeholder;
    const over = field.scrollWidth - field.clientWidth;
    field.value = "";
    if (over > 1) out.push(`placeholder cut (${over} px): ` + field.placeholder);
  }
  return [...new Set(out)];
}"""


def clean(page, name, shot):
    page.evaluate("window.scrollTo(0, 0)")
    problems = page.evaluate(PROBLEMS)
    shot(page, f"clean-{name}-360")
    assert problems == [], f"{name}: {problems}"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


def open_folds(page):
    for summary in page.locator("main details:not([open]) > summary").all():
        if summary.is_visible():
            summary.click()


@pytest.mark.parametrize("url", ["/", "/generalissimus/new/", "/fog-of-war/new/"], ids=["qmg", "generalissimus", "fog-of-war"])
def test_the_new_game_pages_are_clean_at_360(live_server, new_context, shot, url):
    page = new_context(viewport=PHONE).new_page()
    page.goto(live_server.url + url)
    open_folds(page)
    clean(page, "new-game-" + (url.strip("/").split("/")[0] or "qmg"), shot)


def test_the_game_page_and_the_seats_page_are_clean_at_360(live_server, new_context, shot):
    game = two_players("Чисто")
    host = new_context(viewport=PHONE).new_page()
    host.goto(live_server.url + f"/host/{game.host_token}/")
    host.goto(live_server.url + f"/g/{game.pk}/seats/")
    expect(host.locator(".seat").first).to_be_visible()
    clean(host, "seats", shot)

    page = new_context(viewport=PHONE).new_page()
    page.goto(live_server.url + f"/join/{game.seats.get(number=1).token}/")
    bar = page.locator("#decision-bar")
    # the longest card type chosen, a space tapped: the bar as a player sees it before «Сыграть карту»
    longest = max(bar.locator("select[name=card_type] option").all_inner_texts(), key=len)
    bar.locator("select[name=card_type]").select_option(label=longest)
    clean(page, "qmg-bar-card-type", shot)
    bar.locator("select[name=card_type]").select_option("build_army")
    page.locator('g.space[data-space="western_europe"]').first.dispatch_event("click")
    expect(page.locator("#space-info")).to_contain_text("Западная Европа")
    page.get_by_role("button", name="Сыграть карту").click()
    expect(bar.locator(".flash")).to_be_visible()
    page.locator('g.space[data-space="western_europe"]').first.dispatch_event("click")  # its info: the new army
    expect(page.locator("#space-info")).to_contain_text(re.compile("армия"))
    open_folds(page)
    clean(page, "qmg-game", shot)
    page.get_by_role("button", name="Закончить ход").click()
    expect(bar.locator(".flash .flash-steps li").first).to_be_visible()
    answer = bar.locator(".flash")
    box, bar_box = answer.bounding_box(), bar.bounding_box()
    assert box["y"] >= bar_box["y"] - 1 and box["y"] + box["height"] <= bar_box["y"] + bar_box["height"] + 1
    # the whole answer can be read in the bar: all of it shown, or its box scrolls
    assert answer.evaluate("(el) => el.scrollHeight <= el.clientHeight + 1 || getComputedStyle(el).overflowY !== 'hidden'")
    clean(page, "qmg-game-answer", shot)


def test_a_card_steps_choices_are_all_on_the_screen_at_360(live_server, new_context, shot):
    """«Принудительный призыв»: the step's choices («<space> — <piece>» buttons) in the bar, none cut at a side."""
    game = two_players("Шаги")
    page = new_context(viewport=PHONE).new_page()
    page.goto(live_server.url + f"/join/{game.seats.get(number=1).token}/")
    page.locator("#decision-bar input[name=card]").fill("Принудительный призыв")
    page.get_by_role("button", name="Сыграть карту").click()
    expect(page.locator("#decision-bar [data-step-choice]").first).to_be_visible()
    assert page.locator("#decision-bar [data-step-choice]").count() >= 3
    clean(page, "qmg-card-step", shot)
