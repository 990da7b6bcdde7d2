// @ts-check
// Troccas Online — draws any of the 78 cards of the 1JJ pack (RULES.md §2) as an inline SVG that
// takes its shapes from the sprite static/cards/cards.svg. ES module, no build step, no globals;
// besides its one import (the suit list of ./suits.js) the only request it causes is the
// browser fetching the (same-origin) sprite once.
//
//   renderCard(id, {spriteUrl, names, label, interactive, disabled, reason}) -> HTMLElement
//   renderBack({spriteUrl, label, interactive, disabled, reason})           -> HTMLElement
//
// Sizing is the page's: the <svg> has width="100%" (aspect 2:3), so set the width of `.card`.

import { SUITS } from './suits.js';

/** @import { Suit } from './suits.js' */

/**
 * What renderCard and renderBack take; every field is optional.
 * @typedef {object} CardOptions
 * @property {string} [spriteUrl] same-origin URL of the sprite (default '/static/cards/cards.svg')
 * @property {Record<string, string>} [names] localised card names by id
 * @property {string} [label] the accessible name, instead of the card's name
 * @property {boolean} [interactive] a <button> (named by a visually hidden span, class
 *   visually-hidden of the page's CSS) instead of a <div role="img"> (named by aria-label)
 * @property {boolean} [disabled] disabled + aria-disabled + class card--disabled
 * @property {string} [reason] why it is disabled: data-reason, title and aria-description
 */

/** @typedef {Record<string, string | number>} SvgAttrs */

const SVG_NS = 'http://www.w3.org/2000/svg';
const DEFAULT_SPRITE = '/static/cards/cards.svg';
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Ubuntu, Cantarell, '
  + '"Helvetica Neue", Arial, sans-serif';
const RANKS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'N', 'Q', 'K'];
const FACE = '#fffdf7';
// AA (>= 4.5:1) on FACE: cups red, coins ochre, swords blue, batons green, trumps indigo, ink.
/** @type {Record<Suit | 'T', string>} */
const COLOUR = { C: '#a3261c', R: '#8a5300', S: '#1c4f8a', B: '#1d5c3a', T: '#2e2a6b' };
// Captions printed on the 1JJ trumps (French, as on the pack), T1…T21.
const CAPTIONS = ['Le Bateleur', 'Junon', 'L’Impératrice', 'L’Empereur', 'Jupiter',
  'L’Amoureux', 'Le Chariot', 'La Justice', 'L’Ermite', 'La Roue de Fortune', 'La Force',
  'Le Pendu', 'La Mort', 'Tempérance', 'Le Diable', 'La Maison Dieu', 'L’Étoile', 'La Lune',
  'Le Soleil', 'Le Jugement', 'Le Monde'];
// English fallback names, used only when opts.names has no entry for the card.
/** @type {Record<string, string>} */
const EN_SUIT = { C: 'cups', R: 'coins', S: 'swords', B: 'batons' };
/** @type {Record<string, string>} */
const EN_COURT = { K: 'king', Q: 'queen', N: 'cavalier', J: 'jack' };
// Every symbol of the sprite this module uses (tests/site/test_cards.py reads these literals).
/** @type {Record<string, string>} */
const SUIT_SIGN = { C: '#suit-C', R: '#suit-R', S: '#suit-S', B: '#suit-B' };
/** @type {Record<string, string>} */
const COURT_SIGN = { K: '#court-K', Q: '#court-Q', N: '#court-N', J: '#court-J' };

/** The 78 card ids in canonical order: C1…C10 CJ CN CQ CK, R…, S…, B…, T1…T21, NARR. */
export const CARD_IDS = Object.freeze([
  ...SUITS.flatMap((s) => RANKS.map((r) => s + r)),
  ...Array.from({ length: 21 }, (_, i) => `T${i + 1}`),
  'NARR',
]);
const KNOWN = new Set(CARD_IDS);

/**
 * @param {string} id
 * @returns {string}
 */
function known(id) {
  if (!KNOWN.has(id)) throw new RangeError(`cards.js: unknown card id ${JSON.stringify(id)}`);
  return id;
}

/**
 * 'C' | 'R' | 'S' | 'B' | 'T', or null for NARR. Throws RangeError on an unknown id.
 * @param {string} id
 * @returns {Suit | 'T' | null}
 */
export function suitOf(id) {
  return known(id) === 'NARR' ? null : /** @type {Suit | 'T'} */ (id[0]);
}

/**
 * The id after the suit letter: '1'…'10', 'J', 'N', 'Q', 'K'; '1'…'21' for trumps; null for
 * NARR. Throws RangeError on an unknown id.
 * @param {string} id
 * @returns {string | null}
 */
export function rankOf(id) {
  return known(id) === 'NARR' ? null : id.slice(1);
}

/** @type {Array<[number, string]>} */
const ROMAN = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'],
  [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];

/**
 * romanNumeral(21) === 'XXI'; integers 1…3999, else RangeError.
 * @param {number} n
 * @returns {string}
 */
export function romanNumeral(n) {
  if (!Number.isInteger(n) || n < 1 || n > 3999) {
    throw new RangeError(`cards.js: no Roman numeral for ${n}`);
  }
  let out = '';
  for (const [value, letters] of ROMAN) {
    while (n >= value) { out += letters; n -= value; }
  }
  return out;
}

/**
 * @param {string} id
 * @returns {string}
 */
function englishName(id) {
  const suit = suitOf(id);
  const rank = /** @type {string} */ (rankOf(id));
  if (suit === null) return 'the Fool';
  if (suit === 'T') return `${romanNumeral(+rank)} — ${CAPTIONS[+rank - 1]}`;
  return `${EN_COURT[rank] || rank} of ${EN_SUIT[suit]}`;
}

// --- SVG building -------------------------------------------------------------------------------

/**
 * @param {Element} parent
 * @param {string} tag
 * @param {SvgAttrs} attrs
 * @returns {SVGElement}
 */
function el(parent, tag, attrs) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

/**
 * @param {Element} parent
 * @param {string} href the sprite's path
 * @param {string} ref a symbol of the sprite, as a fragment (# and its id)
 * @param {number} x
 * @param {number} y
 * @param {number} w
 * @param {number} h
 * @param {SvgAttrs} [extra]
 */
function use(parent, href, ref, x, y, w, h, extra = {}) {
  return el(parent, 'use', { href: href + ref, x, y, width: w, height: h, ...extra });
}

// Rough advance widths (em) of a bold system sans, to squeeze text that would not fit.
/** @param {string} str */
function estimateEm(str) {
  let em = 0;
  for (const ch of str) {
    if ('Iiljt’\' .,'.includes(ch)) em += 0.3;
    else if ('frJ'.includes(ch)) em += 0.42;
    else if ('MWmw'.includes(ch)) em += 0.9;
    else em += ch === ch.toLowerCase() ? 0.57 : 0.7;
  }
  return em;
}

/**
 * @param {Element} parent
 * @param {string} str
 * @param {number} x
 * @param {number} y
 * @param {number} size font size
 * @param {string} fill
 * @param {number} fit the width to squeeze the text into, or 0
 * @param {number} [weight]
 */
function text(parent, str, x, y, size, fill, fit, weight = 700) {
  const node = el(parent, 'text', {
    x, y, fill, 'font-size': size, 'font-weight': weight, 'text-anchor': 'middle',
  });
  if (fit && estimateEm(str) * size > fit) {
    node.setAttribute('textLength', String(fit));
    node.setAttribute('lengthAdjust', 'spacingAndGlyphs');
  }
  node.textContent = str;
  return node;
}

const ROT = 'rotate(180 50 75)';
const L = 34;
const M = 50;
const R = 66;
/** @param {number[]} ys */
const SIDES = (ys) => ys.flatMap((y) => [[L, y], [R, y]]);
// Pip centres for the numerals 2…10 in the 100×150 face (1 is a single large sign).
/** @type {Record<string, number[][]>} */
const PIPS = {
  2: [[M, 36], [M, 114]],
  3: [[M, 36], [M, 75], [M, 114]],
  4: SIDES([36, 114]),
  5: [...SIDES([36, 114]), [M, 75]],
  6: SIDES([36, 75, 114]),
  7: [...SIDES([36, 75, 114]), [M, 55.5]],
  8: [...SIDES([36, 75, 114]), [M, 55.5], [M, 94.5]],
  9: [...SIDES([30, 60, 90, 120]), [M, 75]],
  10: [...SIDES([30, 60, 90, 120]), [M, 45], [M, 105]],
};

/**
 * @param {SVGElement} svg
 * @param {(g: SVGElement) => void} draw draws one corner; called for the top and the bottom
 */
function corners(svg, draw) {
  draw(el(svg, 'g', {}));
  draw(el(svg, 'g', { transform: ROT }));
}

/**
 * @param {SVGElement} svg
 * @param {string} href
 * @param {Suit} suit
 * @param {string} rank
 */
function drawSuitCard(svg, href, suit, rank) {
  const colour = COLOUR[suit];
  corners(svg, (g) => {
    text(g, rank, 11.5, 23, 21, colour, rank === '10' ? 19 : 0);
    use(g, href, SUIT_SIGN[suit], 3.5, 27, 16, 16);
  });
  if (EN_COURT[rank]) {
    el(svg, 'rect', { x: 24, y: 12, width: 52, height: 126, rx: 4, fill: 'none',
      stroke: colour, 'stroke-width': 1.5 });
    use(svg, href, COURT_SIGN[rank], 26, 24, 48, 48, { color: colour });
    use(svg, href, SUIT_SIGN[suit], 32, 84, 36, 36);
  } else if (rank === '1') {
    use(svg, href, SUIT_SIGN[suit], 25, 50, 50, 50);
  } else {
    const size = +rank >= 9 ? 16 : 18;
    for (const [x, y] of PIPS[rank]) {
      use(svg, href, SUIT_SIGN[suit], x - size / 2, y - size / 2, size, size);
    }
  }
}

/**
 * @param {SVGElement} svg
 * @param {string} href
 * @param {number} n 1–21
 */
function drawTrump(svg, href, n) {
  const colour = COLOUR.T;
  use(svg, href, '#trump', 0, 0, 100, 150);
  text(svg, String(n), 19.5, 26.5, n > 9 ? 16 : 18, FACE, n > 9 ? 19 : 0);
  text(svg, romanNumeral(n), 62, 31, 22, colour, 58, 800);
  text(svg, CAPTIONS[n - 1], 50, 134, 10.5, colour, 84, 600);
}

/**
 * @param {SVGElement} svg
 * @param {string} href
 */
function drawNarr(svg, href) {
  corners(svg, (g) => use(g, href, '#narr', 3, 4, 19, 19));
  use(svg, href, '#narr', 14, 38, 72, 72);
}

/**
 * @param {string | undefined} url
 * @returns {string}
 */
function spriteHref(url) {
  const resolved = new URL(url || DEFAULT_SPRITE, document.baseURI);
  if (resolved.origin !== window.location.origin) {
    throw new Error('cards.js: spriteUrl must be same-origin');
  }
  return resolved.pathname + resolved.search;
}

/** @returns {SVGElement} */
function newSvg() {
  const svg = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, 'svg'));
  for (const [k, v] of Object.entries({
    viewBox: '0 0 100 150', width: '100%', display: 'block', 'aria-hidden': 'true',
    focusable: 'false', 'font-family': FONT,
  })) svg.setAttribute(k, v);
  return svg;
}

/**
 * @param {CardOptions} opts
 * @param {string} label
 * @param {SVGElement} svg
 * @param {string} extraClass
 * @returns {HTMLElement} a <button> when opts.interactive, else a <div>
 */
function shell(opts, label, svg, extraClass) {
  const button = opts.interactive ? document.createElement('button') : null;
  const node = button || document.createElement('div');
  if (button) button.type = 'button';
  else node.setAttribute('role', 'img');
  node.className = extraClass ? `card ${extraClass}` : 'card';
  if (button) {
    // A button is named by its content: the drawing is aria-hidden, so the name is this
    // (visually hidden) text alone. An aria-label would not match the rank and numerals the
    // drawing shows ("Q" against "regina da cuppas"), which speech input and WCAG 2.5.3 need.
    const name = document.createElement('span');
    name.className = 'visually-hidden';
    name.textContent = label;
    node.appendChild(name);
  } else {
    node.setAttribute('aria-label', label);
  }
  node.title = opts.reason ? `${label} — ${opts.reason}` : label;
  if (opts.reason) {
    node.dataset.reason = opts.reason;
    node.setAttribute('aria-description', opts.reason);
  }
  if (opts.disabled) {
    if (button) button.disabled = true;
    node.setAttribute('aria-disabled', 'true');
    node.classList.add('card--disabled');
    // Dimmed without any page CSS too.
    el(svg, 'rect', { x: 0, y: 0, width: 100, height: 150, rx: 7, fill: FACE,
      opacity: 0.55, class: 'card-veil' });
  }
  node.appendChild(svg);
  return node;
}

/**
 * A card face. opts: spriteUrl (same-origin, default '/static/cards/cards.svg'),
 * names ({id: localised name}), label (overrides the name), interactive (a <button> instead of
 * a <div role="img">), disabled (disabled + aria-disabled + class card--disabled),
 * reason (data-reason, title and aria-description). Throws RangeError on an unknown id.
 * @param {string} id
 * @param {CardOptions} [opts]
 * @returns {HTMLElement}
 */
export function renderCard(id, opts = {}) {
  const suit = suitOf(id);
  const rank = /** @type {string} */ (rankOf(id));
  const href = spriteHref(opts.spriteUrl);
  const svg = newSvg();
  el(svg, 'rect', { x: 0.75, y: 0.75, width: 98.5, height: 148.5, rx: 7, fill: FACE,
    stroke: '#7a7164', 'stroke-width': 1.5 });
  if (suit === null) drawNarr(svg, href);
  else if (suit === 'T') drawTrump(svg, href, +rank);
  else drawSuitCard(svg, href, suit, rank);
  const label = opts.label || (opts.names && opts.names[id]) || englishName(id);
  const node = shell(opts, label, svg, '');
  node.dataset.card = id;
  return node;
}

/**
 * A face-down card (class "card card--back", no data-card). opts as for renderCard;
 * opts.label defaults to 'face-down card' — pass a localised one.
 * @param {CardOptions} [opts]
 * @returns {HTMLElement}
 */
export function renderBack(opts = {}) {
  const svg = newSvg();
  use(svg, spriteHref(opts.spriteUrl), '#back', 0, 0, 100, 150);
  return shell(opts, opts.label || 'face-down card', svg, 'card--back');
}
