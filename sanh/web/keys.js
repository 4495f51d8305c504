// Keyboard shortcuts at the table, shown on the buttons they press: F fold, C check or call,
// R raise (to the amount box), B bet, A all-in, P pass, D draw, E eat, S show, Enter or Space
// the bar's confirm, digits the chips (or Phỏm's discards, or 3 Cây's face-down cards to
// squeeze, or an amount form's quick amounts).
// Keys only ever press a button the action bar shows (a legal action of the server's), never
// while typing (chat, amounts) and never with Ctrl, Alt or Meta; a held key presses once.

const TYPE_KEYS = {
  Fold: "F", Check: "C", Call: "C", AllIn: "A", Pass: "P", Draw: "D", Eat: "E",
  Show: "S", Flip: "L", TurnUp: "U", Muck: "M", LayDown: "H", DeclineSam: "N", DeclareSam: "S",
};
const FORM_KEYS = { RaiseTo: "R", Raise: "R", Bet: "B" };
const CONFIRM = [
  "button.confirm", "button.play-selected", "form.range button[type=submit]",
  "button.act[data-type='Ready']", "button.act[data-type='Start']", "button.act[data-type='Play']:not(.play-option)",
];
const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];

function mark(el, key, label = key) {
  el.dataset.key = key;
  const target = el.tagName === "INPUT" ? el.closest("form").querySelector(".range-name") || el : el;
  if (el.tagName !== "INPUT") el.setAttribute("aria-keyshortcuts", key === "Enter" ? "Enter Space" : key);
  if (!target.querySelector(":scope > kbd.key")) target.insertAdjacentHTML("beforeend", ` <kbd class="key" aria-hidden="true">${label}</kbd>`);
}

// Give the action bar's buttons their keys (after every redraw of the table).
export function decorateKeys(page) {
  const bar = page.querySelector("#actions");
  if (!bar) return;
  const used = new Set();
  const give = (el, key, label) => {
    if (!el || used.has(key) || el.disabled) return;
    used.add(key);
    mark(el, key, label);
  };
  bar.querySelectorAll("button.act:not(.card-btn):not(.play-option):not(.chip)").forEach((b) => {
    const key = TYPE_KEYS[b.dataset.type];
    if (key) give(b, key);
  });
  bar.querySelectorAll("form.range").forEach((form) => {
    const key = FORM_KEYS[form.dataset.type];
    if (key) give(form.querySelector("input[type=number]"), key);
  });
  const forms = bar.querySelectorAll("form.range").length;
  for (const selector of CONFIRM) {
    if (selector.startsWith("form.range") && forms !== 1) continue;
    const el = bar.querySelector(`${selector}:not(:disabled)`);
    if (el) { give(el, "Enter", "⏎"); break; }
  }
  let numbered = [...bar.querySelectorAll("button.chip:not(:disabled)")];
  if (!numbered.length) numbered = [...bar.querySelectorAll("button.card-btn.discard:not(:disabled), button.card-btn.squeeze:not(:disabled)")];
  if (!numbered.length) numbered = [...bar.querySelectorAll("form.range button.quick")];
  numbered.slice(0, DIGITS.length).forEach((el, i) => give(el, DIGITS[i]));
}

function typing(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']"));
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (typing(event.target) || document.querySelector("dialog[open]")) return;
  const bar = document.querySelector("#actions");
  if (!bar) return;
  let key = event.key.length === 1 ? event.key.toUpperCase() : event.key;
  if (key === " ") key = "Enter";
  if (key === "Enter" && event.target instanceof Element && event.target.closest("button, a, summary")) return; // the focused control's own
  const el = bar.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (!el) return;
  event.preventDefault();
  if (event.repeat) return;
  if (el.tagName === "INPUT") { el.focus(); el.select(); return; }
  if (!el.disabled) el.click();
}

let installed = false;
export function installKeys() {
  if (installed) return;
  installed = true;
  document.addEventListener("keydown", onKey);
}
