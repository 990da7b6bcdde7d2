// @ts-check
// Choosing a card early (issue #24 item 15), all on the client: while another player is on
// turn, a tap on a card of one's own hand marks it as chosen early (a tap again cancels, a tap
// on another card moves the choice). When a view says it is the player's turn, a chosen card
// the view offers is sent once, as the ordinary play_card a tap sends; one the view no longer
// offers (a suit to follow, a BUOB that forces the jack) is dropped with a line that says so.
// And the player's option "play a single legal card by itself": a turn with exactly one legal
// card and nothing chosen plays it after a short moment in which the card shows lifted.
//
// The server learns nothing new: no command, no frame. Its action-id and version checks
// already refuse a duplicate; this module sends a choice at most once and never retries one
// that was refused.

import { fmt } from "../dom.js";
import { isSuit } from "../suits.js";

/**
 * @import { Table } from "../render.js"
 * @import { CardId, View } from "../protocol.js"
 */

/** How long the only legal card shows lifted before it is played by itself. */
export const SINGLE_CARD_MS = 600;

/**
 * One turn of one player, told apart from every other: the deal, the trick and the cards on
 * it. A view that repeats the same turn (a presence update, a resync) has the same key.
 * @param {View} v
 */
function turnKey(v) {
  return `${v.deal_number}|${v.tricks_played}|${v.trick ? v.trick.cards.length : 0}|${v.turn}`;
}

/**
 * Play `id` now, as a tap on one's turn does: the current version, a fresh action id, the
 * BUOB attached to one's own king when the player asked for it. The hand is busy until the
 * server answers, so a second tap sends nothing.
 * @param {Table} t
 * @param {CardId} id
 * @param {boolean} [quiet] a refusal because the table moved on (another tab played first)
 *   is not shown: the view that follows tells the truth
 */
export function playCard(t, id, quiet = false) {
  t.busyUntil = Date.now() + 3000;
  /** @type {{ card: CardId, call_buob?: boolean }} */
  const fields = { card: id };
  if (t.attachBuob && id.endsWith("K") && isSuit(id[0])) fields.call_buob = true;
  t.ctx.command("play_card", fields, () => { t.busyUntil = 0; }, quiet);
}

/**
 * A tap on a card of the hand while another player is on turn: choose it early, move the
 * choice to it, or (the chosen card again) cancel the choice.
 * @param {Table} t
 * @param {CardId} id
 */
export function toggleEarly(t, id) {
  const S = t.S;
  const name = t.cardName(id);
  if (t.early === id) {
    t.early = null;
    t.ctx.announce(fmt(S.early_cancelled, { card: name }));
  } else {
    t.early = id;
    // The first time on this page the line is shown too, so a player who tapped by chance
    // learns what the lifted card means; after that it is only said to screen readers.
    if (t.earlyHinted) t.ctx.announce(fmt(S.early_chosen, { card: name }));
    else t.ctx.toast(fmt(S.early_chosen, { card: name }), "info");
    t.earlyHinted = true;
  }
  t.renderHand();
}

/**
 * Before each view is drawn: drop a choice the deal no longer holds, play a chosen card when
 * the turn comes, or the only legal one when the player asked for that. (Drawn after, the
 * hand shows what is left of the choice.)
 * @param {Table} t
 * @param {View | null} prev
 * @param {View} view
 */
export function premoveOnView(t, prev, view) {
  const playing = view.phase === "PLAY" && view.seat !== null && view.seat !== undefined;
  const newDeal = !!prev && prev.deal_number !== view.deal_number;
  if (t.early && (!playing || newDeal)) {
    // The deal ended (its score sheet, a new deal, the Scart): a choice does not outlive it.
    t.early = null;
  }
  if (!playing) { cancelSingle(t); return; }
  if (t.early && !(view.hand || []).includes(t.early)) {
    // No longer in the hand (a BUOB exchange took it, the turn timer played for the player).
    t.early = null;
    t.ctx.toast(t.S.early_dropped, "info");
  }
  if (!view.actions.play) { cancelSingle(t); return; }
  if (t.early) {
    const id = t.early;
    // Cleared before anything is sent: whatever the answer, this choice is never sent again.
    t.early = null;
    if (view.legal_cards.includes(id)) {
      t.focusId = id;
      playCard(t, id, true);
      return;
    }
    t.ctx.toast(t.S.early_dropped, "info");
  }
  maybeSingle(t, view);
}

/**
 * The player's option: a turn with exactly one legal card plays it by itself, once, after a
 * moment in which the card shows lifted (so the player sees what happened). Never when more
 * than one card is legal, and never outside the play phase.
 * @param {Table} t
 * @param {View} view
 */
function maybeSingle(t, view) {
  if (!t.singleCard || view.legal_cards.length !== 1 || Date.now() < t.busyUntil) return;
  const key = turnKey(view);
  if (t.singleTurn === key) return; // this turn's card was played, or is about to be
  t.singleTurn = key;
  const id = view.legal_cards[0];
  t.autoCard = id; // drawn lifted by the render that follows
  t.ctx.announce(fmt(t.S.single_card_auto, { card: t.cardName(id) }));
  clearTimeout(t.singleTimer);
  t.singleTimer = setTimeout(() => {
    const v = t.view;
    t.autoCard = null;
    // Still the same turn, the same single card, and the player did not tap it meanwhile.
    if (v && v.actions.play && v.phase === "PLAY" && turnKey(v) === key && t.singleCard
      && v.legal_cards.length === 1 && v.legal_cards[0] === id && Date.now() >= t.busyUntil) {
      t.focusId = id;
      playCard(t, id, true);
    }
    if (t.view) t.renderHand();
  }, SINGLE_CARD_MS);
}

/** @param {Table} t */
function cancelSingle(t) {
  if (t.autoCard === null) return;
  clearTimeout(t.singleTimer);
  t.autoCard = null;
}
