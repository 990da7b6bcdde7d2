// @ts-check
// What the table says without drawing it: short toasts (errors, confirmations), the polite
// live region for screen readers, and the sentences it announces for the server's events.

import { fmt, h } from "../dom.js";

/**
 * @import { Table } from "../render.js"
 * @import { GameEvent, View } from "../protocol.js"
 */

/** The most sentences said in one announcement. */
const LIVE_BATCH = 12;

/**
 * The page's live regions and toast stack.
 * @param {{ live: HTMLElement, liveAlert: HTMLElement, toasts: HTMLElement,
 *   fit?: () => void }} regions
 *   live: polite announcements; liveAlert: role=alert; toasts: the visible stack; fit: keeps
 *   the stack clear of the trick (room_chrome.js)
 */
export function notices({ live, liveAlert, toasts, fit }) {
  /** @type {string[]} */
  let liveQueue = [];
  /** @type {number | undefined} */
  let liveTimer;

  /**
   * Say `text` to screen readers; what arrives within 120 ms is said together. A slow device
   * or a burst of states after a reconnect brings several plays at once, and each must be
   * said: only a flood beyond LIVE_BATCH sentences is cut to its newest.
   * @param {string} text
   */
  function announce(text) {
    if (!text) return;
    liveQueue.push(text);
    clearTimeout(liveTimer);
    liveTimer = setTimeout(() => {
      live.textContent = liveQueue.slice(-LIVE_BATCH).join(" ");
      liveQueue = [];
    }, 120);
  }

  /**
   * Show `text` for a few seconds (at most three at once); an error is also an alert.
   * @param {string} text
   * @param {"error" | "info"} [kind]
   */
  function toast(text, kind = "error") {
    if (!text) return;
    const el = h(`div.toast.toast-${kind}`, null, text);
    // The newest on top: when the room above the trick is short, the oldest go first.
    toasts.prepend(el);
    while (toasts.children.length > 3) /** @type {Element} */ (toasts.lastElementChild).remove();
    if (fit) fit();
    if (kind === "error") liveAlert.textContent = text;
    else announce(text);
    setTimeout(() => el.classList.add("leaving"), 5200);
    setTimeout(() => el.remove(), 5600);
  }

  return { announce, toast };
}

/**
 * Announce what the events of an update say: the turn timer's automatic moves, BUOB calls and
 * refused ones, scores, the match's end. (The plays and the tricks' winners are told from the
 * views, by announcePlays.)
 * @param {Table} t
 * @param {GameEvent[]} events
 */
export function announceEvents(t, events) {
  const S = t.S;
  for (const e of events) {
    if (e.type === "card_played" && e.auto) {
      // The turn timer's moves are told to everyone, the player it moved for included.
      t.ctx.toast(fmt(S.auto_played, { card: t.cardName(e.card), name: t.name(e.seat) }), "info");
    } else if (e.type === "pass_dealt" && e.auto) {
      t.ctx.toast(fmt(S.auto_pass, { n: e.pass, name: t.name(t.current.dealer) }), "info");
    } else if (e.type === "scart_discarded" && e.auto) {
      // Only the dealer's own event carries the cards: the sentence never names them.
      t.ctx.toast(fmt(S.auto_scart, { name: t.name(e.dealer) }), "info");
    } else if (e.type === "buob_called") {
      t.ctx.announce(t.buobText(e));
    } else if (e.type === "buob_resolved") {
      // The exchange at the trick's completion, in words: which card went back, which jack came in.
      const jack = t.cardName(e.jack);
      t.ctx.announce(e.returned_card
        ? fmt(S.buob_exchange, { card: t.cardName(e.returned_card), name: t.name(e.target), jack })
        : fmt(S.buob_jack_in, { name: t.name(e.target), jack }));
    } else if (e.type === "buob_refused" && e.caller !== t.current.seat) {
      // Public (RULES §8): everyone learns that nobody could answer; the caller has the error.
      const who = t.name(e.caller);
      t.ctx.toast(e.suit ? fmt(S.buob_refused_suit, { caller: who, suit: S[`suit_${e.suit}`] })
        : fmt(S.buob_refused, { caller: who }), "info");
    } else if (e.type === "deal_scored") {
      t.ctx.announce(t.resultText(e.points));
    } else if (e.type === "match_over") {
      t.ctx.announce(e.winner === "draw" ? S.match_draw
        : fmt(S.match_winner, { team: t.teamName(e.winner) }));
    }
  }
}

/**
 * Every card that reached the table since the previous view, and who won a trick that
 * completed, told from the two views: the player's own card too (the one confirmation a
 * keyboard player hears), and nothing lost when a state arrives without its events (a resync,
 * or a change shown after a gap, whose events the table skips). A card the turn timer played is told by its
 * own sentence (announceEvents), not twice.
 * @param {Table} t
 * @param {View | null} prev
 * @param {View} view
 * @param {GameEvent[] | null} events
 */
export function announcePlays(t, prev, view, events) {
  if (!prev || prev.deal_number !== view.deal_number || view.phase === "LOBBY") return;
  const auto = new Set((events || []).flatMap((e) => (e.type === "card_played" && e.auto ? [e.card] : [])));
  const before = prev.trick && prev.trick.number ? prev.trick : null;
  const completed = view.tricks_played > prev.tricks_played ? view.last_trick : null;
  // The trick the earlier view showed (now completed, or still open), then a new open one.
  for (const trick of [completed || view.trick, completed ? view.trick : null]) {
    if (!trick) continue;
    const seen = before && before.number === trick.number ? before.cards.length : 0;
    for (const [seat, card] of trick.cards.slice(seen)) {
      if (!auto.has(card)) t.ctx.announce(fmt(t.S.played, { name: t.name(seat), card: t.cardName(card) }));
    }
    if (trick === completed && trick.winner !== null) {
      t.ctx.announce(fmt(t.S.trick_won_by, { name: t.name(trick.winner) }));
    }
  }
}
