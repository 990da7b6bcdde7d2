// @ts-check
// The receiver's hand: one or two rows of cards, each a button when it can be chosen (with the
// server's sentence for why not when it cannot), arrow-key focus, and choosing a card — for
// the Scart (select two) or to play it.

import { fmt, h, narrowScreen } from "../dom.js";
import { playCard, toggleEarly } from "./premove.js";

/**
 * @import { Table } from "../render.js"
 * @import { CardId, Refusal } from "../protocol.js"
 */

/** How each card of the hand looked when drawn (its `ck` in renderHand).
 *  @type {WeakMap<Element, string>} */
const looks = new WeakMap();

/**
 * The sentence of the view's refusal (games/engine/views.py `refusal`) in the page's language:
 * its code's sentence (games/text/refusals.py) with the cards it names and the suit led, and
 * the Narr's exemption when the Narr is among the legal cards. The rule itself is the
 * server's: the page only puts its words together.
 * @param {Table} t
 * @param {Refusal} r
 * @returns {string}
 */
export function refusalText(t, r) {
  const S = t.S;
  const names = r.cards.map((c) => t.cardName(c));
  const last = names.pop();
  const cards = last === undefined ? "" : names.length ? fmt(S.cards_and, { cards: names.join(", "), last }) : last;
  const text = fmt(S[`refusal_${r.code}`] || S.refusal_WRONG_PHASE, { cards, suit: r.suit ? S[`suit_${r.suit}`] : "" });
  return r.cards.length && t.current.legal_cards.includes("NARR") ? `${text} ${S.refusal_narr}` : text;
}

/**
 * Why a card of the hand cannot be chosen now (null: it can be). The view's refusal covers
 * every card of the hand its choosable cards leave out: the Scart's allowed cards for the
 * dealer in SCART, the legal cards otherwise.
 * @param {Table} t
 * @param {CardId} id
 * @param {string | null} [text] the refusal's sentence, when the caller has it already
 * @returns {string | null}
 */
export function reason(t, id, text) {
  const v = t.current;
  if (!v.refusal) return null;
  const choosable = v.phase === "SCART" && v.actions.scart ? v.actions.scart_allowed : v.legal_cards;
  if (choosable.includes(id)) return null;
  return text || refusalText(t, v.refusal);
}

/** @param {Table} t */
export function renderHand(t) {
  const v = t.current;
  const hand = v.hand || [];
  const interactive = (v.phase === "PLAY" || (v.phase === "SCART" && v.actions.scart)) && v.seat !== null;
  const waiting = v.phase === "PLAY" && !v.actions.play;
  const rows = narrowScreen() && hand.length > 10 ? 2 : 1;
  const per = Math.ceil(hand.length / rows) || 1;
  const scart = v.phase === "SCART" && interactive;
  // Each card with what it looks like now; a card whose look did not change keeps its DOM
  // node, so a keyboard player's focus stays put and nothing is redrawn for nothing.
  const said = interactive && v.refusal ? refusalText(t, v.refusal) : null;
  // While another player is on turn every card may be chosen early (premove.js): a toggle.
  const early = waiting && interactive;
  const want = hand.map((id) => {
    const why = said ? reason(t, id, said) : null;
    const sel = scart ? t.selected.has(id) : early ? t.early === id : t.autoCard === id;
    return { id, why, sel, ck: `${id}|${interactive}|${why || ""}|${waiting}|${sel}|${scart}` };
  });
  const hadFocus = t.hand.contains(document.activeElement);
  /** @param {typeof want[number]} d */
  const build = (d) => {
    const el = t.card(d.id, { interactive, disabled: !!d.why && !waiting, reason: d.why || undefined });
    looks.set(el, d.ck);
    if (interactive) el.tabIndex = -1;
    if (early) {
      // A toggle: pressed while chosen early; lifted and marked, never by colour alone.
      el.setAttribute("aria-pressed", String(d.sel));
      if (d.sel) el.classList.add("early");
    } else if (d.sel && !scart) {
      // The only legal card, lifted for a moment before it is played by itself.
      el.classList.add("auto-play");
    } else if (d.sel) {
      el.classList.add("selected");
      el.setAttribute("aria-pressed", "true");
    } else if (scart) {
      el.setAttribute("aria-pressed", "false");
    }
    return el;
  };
  if (t.hand.children.length !== rows) {
    t.hand.replaceChildren(...Array.from({ length: rows }, () => h("div.hand-row")));
  }
  [.../** @type {HTMLCollectionOf<HTMLElement>} */ (t.hand.children)].forEach((rowEl, r) => {
    const part = want.slice(r * per, (r + 1) * per);
    const n = part.length;
    rowEl.style.gridTemplateColumns = n > 1
      ? `repeat(${n - 1}, minmax(0, var(--card-w))) var(--card-w)` : "var(--card-w)";
    const byId = new Map(part.map((d) => [d.id, d]));
    for (const el of /** @type {HTMLElement[]} */ ([...rowEl.children])) {
      const d = byId.get(el.dataset.card || "");
      if (!d || d.ck !== looks.get(el)) el.remove();
    }
    let i = 0;
    for (const d of part) {
      const cur = /** @type {HTMLElement | undefined} */ (rowEl.children[i]);
      if (!cur || cur.dataset.card !== d.id) rowEl.insertBefore(build(d), cur || null);
      i += 1;
    }
    while (rowEl.children.length > n) /** @type {Element} */ (rowEl.lastElementChild).remove();
  });
  t.hand.classList.toggle("waiting", waiting);
  t.hand.classList.toggle("two-rows", rows === 2);
  restoreFocus(t, hadFocus && !t.hand.contains(document.activeElement));
}

/**
 * @param {Table} t
 * @returns {HTMLElement[]}
 */
function handCards(t) {
  return [.../** @type {NodeListOf<HTMLElement>} */ (t.hand.querySelectorAll(".card[data-card]"))];
}

/**
 * @param {Table} t
 * @param {boolean} hadFocus
 */
function restoreFocus(t, hadFocus) {
  const cards = handCards(t);
  if (!cards.length) return;
  // The card that had focus, else (it was played) the nearest playable one.
  let target = cards.find((c) => c.dataset.card === t.focusId);
  if (!target) target = cards.find((c) => c.getAttribute("aria-disabled") !== "true") || cards[0];
  for (const c of cards) {
    const tab = c === target ? 0 : -1;
    if (c.tabIndex !== tab) c.tabIndex = tab;
  }
  if (hadFocus && target.tagName === "BUTTON") target.focus({ preventScroll: true });
}

/**
 * Arrow keys, Home and End move the focus through the hand.
 * @param {Table} t
 * @param {KeyboardEvent} e
 */
export function handKey(t, e) {
  const cards = handCards(t);
  const i = cards.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (i < 0) return;
  let next = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") next = cards[Math.min(cards.length - 1, i + 1)];
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = cards[Math.max(0, i - 1)];
  else if (e.key === "Home") next = cards[0];
  else if (e.key === "End") next = cards[cards.length - 1];
  if (next) {
    e.preventDefault();
    for (const c of cards) c.tabIndex = c === next ? 0 : -1;
    next.focus();
    t.focusId = next.dataset.card || null;
  }
}

/**
 * A card of the hand was clicked (or pressed).
 * @param {Table} t
 * @param {CardId} id
 */
export function cardChosen(t, id) {
  const v = t.view;
  if (!v || v.seat === null) return;
  if (v.phase === "SCART" && v.actions.scart) {
    const why = reason(t, id);
    if (why && !t.selected.has(id)) { refuse(t, id, why); return; }
    if (t.selected.has(id)) t.selected.delete(id);
    else if (t.selected.size < 2) t.selected.add(id);
    else { t.selected.delete([...t.selected][0]); t.selected.add(id); }
    t.focusId = id;
    t.renderHand();
    t.renderActions();
    return;
  }
  if (v.phase !== "PLAY") return;
  if (Date.now() < t.busyUntil) return;
  t.focusId = id;
  // Another player's turn: the card is chosen early (or the choice cancelled or moved),
  // and played when the turn comes if it is still legal then (premove.js).
  if (!v.actions.play) {
    if ((v.hand || []).includes(id)) toggleEarly(t, id);
    return;
  }
  // A card the view refuses (illegal) says why at once, in its tooltip's words: the server
  // would refuse it with the same code. A view that is behind the table only delays the
  // play; a card it offers goes to the server, which has the last word.
  const why = reason(t, id);
  if (why) { refuse(t, id, why); return; }
  playCard(t, id);
}

/**
 * A card the view refuses was chosen: the table says why at once; a lesson's page, which
 * counts and explains each attempt (static/js/lesson.js), is told instead.
 * @param {Table} t
 * @param {CardId} id
 * @param {string} why
 */
function refuse(t, id, why) {
  if (t.ctx.refused) t.ctx.refused(id, why);
  else t.ctx.toast(why);
}
