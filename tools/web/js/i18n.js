// The page's words: one catalogue per language (tools/web/i18n/<lang>.js, keyed by name), the
// chosen language, and the helpers that fill the page from it. No word a person reads is spelled
// out anywhere else.

import en from '../i18n/en.js';
import de from '../i18n/de.js';
import cs from '../i18n/cs.js';
import hu from '../i18n/hu.js';

/** Every catalogue, by language code (the values of the picker `#lang`). */
export const CATALOGUES = { en, de, cs, hu };
export const LANGS = Object.keys(CATALOGUES);

const STORE = 'zatre-lang';
let lang = 'en';
/**
 * Whether the game on the page is one of rolled numbers (dice, kids: no bag, the position's
 * `bag=-`): numbers are rolled and written, not tiles drawn and placed. A catalogue gives such a
 * game its own words for a key as `<key>.rolled`, which `t` then takes.
 */
let rolled = false;

/** The language to start in: the one chosen before, else the browser's first one we have. */
export function initialLang() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORE);
  } catch {
    // storage may be off
  }
  if (stored && LANGS.includes(stored)) return stored;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

export function setLang(code) {
  lang = LANGS.includes(code) ? code : 'en';
  document.documentElement.lang = lang;
  try {
    localStorage.setItem(STORE, lang);
  } catch {
    // storage may be off
  }
}

export function currentLang() {
  return lang;
}

/** Sets whether the game's numbers are rolled (see `rolled`); says whether that changed. */
export function setRolled(on) {
  const changed = rolled !== on;
  rolled = on;
  return changed;
}

/** Whether the catalogues have a string of this name. */
export function has(key) {
  return key in CATALOGUES[lang] || key in en;
}

/**
 * The string `key` in the current language with `{name}` filled from `params`. A string that
 * depends on a count is an object of plural forms (`one`, `few`, `many`, `other`), chosen by
 * `params.n` with the language's plural rules.
 */
export function t(key, params = {}) {
  if (rolled && has(`${key}.rolled`)) key = `${key}.rolled`;
  let s = key in CATALOGUES[lang] ? CATALOGUES[lang][key] : en[key];
  if (s === undefined) return key;
  if (typeof s === 'object') {
    const form = new Intl.PluralRules(lang).select(Number(params.n));
    s = s[form] ?? s.other;
  }
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** `t(key)` when the catalogues have it, else `fallback` (a word of the engine, e.g. an option value). */
export function tOr(key, fallback, params = {}) {
  return has(key) ? t(key, params) : fallback;
}

/** A number written the language's way (decimal comma in de, cs, hu). */
export function num(x, digits = 0) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** Fills the elements that name their strings: `data-i18n` (text), `-label`, `-title`, `-placeholder`. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
}
