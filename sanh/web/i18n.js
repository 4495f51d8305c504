// User-facing strings: Vietnamese (default) and English, from /i18n.json ({key: [vi, en]}).
// Every key exists in both languages (a test checks, and checks that every game term of the
// registry is there). t() marks a missing key visibly as ⟦key⟧ so that none can hide.
let LANGS = ["vi", "en"];
let STRINGS = {};
let lang = localStorage.getItem("sanh.lang") || "vi";

export async function loadStrings() {
  const response = await fetch("/i18n.json");
  const data = await response.json();
  LANGS = data.languages;
  STRINGS = data.strings;
  if (!LANGS.includes(lang)) lang = LANGS[0];
  document.documentElement.lang = lang;
}

export function languages() {
  return LANGS;
}

export function getLang() {
  return lang;
}

export function setLang(next) {
  lang = LANGS.includes(next) ? next : LANGS[0];
  localStorage.setItem("sanh.lang", lang);
  document.documentElement.lang = lang;
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(STRINGS, key);
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

// t(key, params): the string in the current language, or the visible marker ⟦key⟧.
export function t(key, params) {
  if (has(key)) return fill(STRINGS[key][LANGS.indexOf(lang)], params);
  return `⟦${key}⟧`;
}

// tg(kind, game, name): a game term; a game-specific key (kind.game.name) wins over kind.name.
export function tg(kind, game, name) {
  const specific = `${kind}.${game}.${name}`;
  return has(specific) ? t(specific) : t(`${kind}.${name}`);
}

// tf(key, fallback): for free text the engines send (hand names, log lines): a translation
// when one exists, else the text itself.
export function tf(key, fallback) {
  return has(key) ? t(key) : fallback;
}

export function applyStatic(root = document) {
  root.querySelectorAll("[data-i18n]").forEach((el) => {
    el.textContent = t(el.dataset.i18n);
  });
  root.querySelectorAll("[data-i18n-label]").forEach((el) => {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  });
  root.querySelectorAll("[data-i18n-title]").forEach((el) => {
    el.title = t(el.dataset.i18nTitle);
  });
}
