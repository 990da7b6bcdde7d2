// @ts-check
// The middle of the felt: the reveal cards, the deal and Scart notes, and the trick being
// played — cards sliding in, a completed trick held on show, then swept to its winner.

import { fmt, h, patch, reducedMotion } from "../dom.js";
import { lastTrickPanel } from "./dialogs.js";

/**
 * @import { Table } from "../render.js"
 * @import { Trick, View } from "../protocol.js"
 */

/** A completed trick stays on show this long, then is swept to its winner in SWEEP_MS. */
const HOLD_MS = 1200;
const SWEEP_MS = 450;

/**
 * A completed trick held on show after the view moved on.
 * @typedef {{ trick: Trick, sweeping: boolean }} Hold
 */

/**
 * Note which cards just arrived on the table, and hold a trick that `view` completed.
 * @param {Table} t
 * @param {View | null} prev
 * @param {View} view
 */
export function trackTrick(t, prev, view) {
  const cards = view.trick ? view.trick.cards : [];
  const now = new Set(cards.map(([, c]) => c));
  t.entering = new Set([...now].filter((c) => !t.prevTrickCards.has(c)));
  t.prevTrickCards = now;
  const completed = prev && view.phase !== "LOBBY" && prev.deal_number === view.deal_number
    && view.tricks_played > prev.tricks_played && view.last_trick;
  if (completed) {
    t.hold = { trick: /** @type {Trick} */ (view.last_trick), sweeping: false };
    clearTimeout(t.holdTimer);
    t.holdTimer = setTimeout(() => sweep(t), HOLD_MS);
  } else if (t.hold && cards.length > 0) {
    endHold(t);
  }
}

/** @param {Table} t */
function sweep(t) {
  if (!t.hold) return;
  if (reducedMotion()) { endHold(t); return; }
  t.hold.sweeping = true;
  t.renderCenter();
  t.holdTimer = setTimeout(() => endHold(t), SWEEP_MS);
}

/**
 * Gather the held trick at once: the player tapped it (or pressed Esc) and need not wait.
 * @param {Table} t
 */
export function skipHold(t) {
  if (t.hold) endHold(t);
}

/** @param {Table} t */
function endHold(t) {
  clearTimeout(t.holdTimer);
  t.hold = null;
  if (t.view) t.renderCenter();
}

/** @param {Table} t */
export function renderCenter(t) {
  const v = t.current;
  const S = t.S;
  const hold = t.hold;
  const trick = hold ? hold.trick : v.trick;
  const key = JSON.stringify([v.phase, v.reveal, trick, hold && hold.sweeping,
    v.buob && v.buob.call, t.showLast && v.last_trick, v.seat, v.dealer,
    v.phase === "DEALING" ? v.hand_counts : null]);
  patch(t.center, key, () => {
    const parts = [];
    if (v.phase === "REVEAL" && v.reveal) {
      parts.push(h("div.trick.reveal", { role: "list", "aria-label": S.reveal_title },
        Object.entries(v.reveal).map(([seat, id]) => h(`div.slot-card.at-${t.pos(+seat)}`,
          { role: "listitem" }, t.card(id, { label: `${t.name(+seat)}: ${t.cardName(id)}` })))));
      // The window's countdown is in the status line (status.js), where it covers no card.
    } else if (v.phase === "DEALING") {
      parts.push(h("div.center-note.dealing", null, h("div.deck", { "aria-hidden": "true" },
        t.back({ label: "" }), t.back({ label: "" }), t.back({ label: "" })),
      h("span", null, v.actions.deal ? S.your_deal : fmt(S.wait_deal, { name: t.name(v.dealer) }))));
    } else if (v.phase === "SCART") {
      parts.push(h("div.center-note", null, v.actions.scart ? h("strong", null, S.scart_title)
        : fmt(S.wait_scart, { name: t.name(v.dealer) })));
    } else if (v.phase === "PLAY" && trick) {
      const cards = trick.cards || [];
      // The call of this trick: the open trick's, or the held trick's with its exchange.
      const call = hold ? trick.buob : (trick.buob || (v.buob && v.buob.call));
      const exchanged = call && call.returned_card ? call : null;
      const sweeping = hold && hold.sweeping;
      // A held trick is a completed one: it has its winner.
      const winner = /** @type {number} */ (trick.winner);
      const cls = hold ? `.held${sweeping ? `.sweep-${t.pos(winner)}` : ""}` : "";
      parts.push(h(`div.trick${cls}`, { role: "list", "aria-label": fmt(S.trick_n, { n: trick.number }),
        title: hold ? S.skip_hold : null },
        cards.map(([seat, id]) => {
          const entering = !hold && t.entering.has(id) && !reducedMotion();
          const win = hold && trick.winner === seat;
          // The jack a BUOB exchange brought in: marked (and, motion allowed, flipped in).
          const swapped = hold && exchanged && id === `${exchanged.suit}J`;
          return h(`div.slot-card.at-${t.pos(seat)}${entering ? `.enter-${t.pos(seat)}` : ""}${win ? ".winner" : ""}${swapped ? ".buob-jack" : ""}`,
            { role: "listitem" }, t.card(id, { label: `${t.name(seat)}: ${t.cardName(id)}` }));
        })));
      const notes = [h("span.trick-no", null, fmt(S.trick_n, { n: trick.number }))];
      if (hold) {
        notes.push(h("strong", null, fmt(S.trick_won_by, { name: t.name(winner) })));
      } else if (trick.led) {
        notes.push(h("span", null, fmt(S.led_suit, { suit: S[`suit_${trick.led}`] })));
      }
      parts.push(h("div.center-note.small", null, notes));
    }
    if (t.showLast && v.last_trick) parts.push(lastTrickPanel(t, v.last_trick));
    t.entering = new Set();
    return parts;
  });
  // The call of this trick (the open trick's, or the held trick's with its exchange) in the
  // band above the trick, where it covers no card (issue #24 item 6). Said by the announcer
  // (toasts.js), so not a live region itself.
  const call = v.phase === "PLAY" && trick ? (hold ? trick.buob : (trick.buob || (v.buob && v.buob.call))) : null;
  patch(t.bandCall, JSON.stringify([call, !!hold]), () => {
    if (!call) return [];
    const exchange = t.exchangeText(call);
    return h(`div.buob-call${hold ? ".resolved" : ""}`, null, h("span", null, t.buobText(call)),
      exchange ? h("span.buob-exchange", null, exchange) : null);
  });
}
