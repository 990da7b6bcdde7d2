// @ts-check
// The table's words about itself: the connection banner, the status line under the felt
// (whose turn, what to do, and whether that player is away), and the countdowns of the reveal window and the turn timer.

import { fmt, h } from "../dom.js";
import { awayChip } from "./away.js";
import { forcedOn } from "./scene.js";

/**
 * @import { Table } from "../render.js"
 * @import { View } from "../protocol.js"
 */

/**
 * Show `text` in the connection banner; nothing hides it.
 * @param {Table} t
 * @param {string | null | undefined} text
 */
export function setBanner(t, text) {
  t.banner.hidden = !text;
  t.banner.textContent = text || "";
}

/** @param {Table} t */
export function renderStatus(t) {
  const v = t.current;
  const S = t.S;
  let text = "";
  /** @type {number | null} whose move the line names, if it names one (for the away note) */
  let waitingOn = null;
  if (v.phase === "PLAY") {
    if (!v.actions.play) waitingOn = v.turn;
    text = v.actions.play ? S.your_turn : fmt(S.turn_of, { name: t.name(/** @type {number} */ (v.turn)) });
    const call = v.buob && v.buob.call;
    if (forcedOn(call, v.seat) && v.seat !== null) text = S.buob_forced_you;
  } else if (v.phase === "DEALING") {
    if (!v.actions.deal) waitingOn = v.dealer;
    text = v.actions.deal ? S.your_deal : fmt(S.wait_deal, { name: t.name(v.dealer) });
  } else if (v.phase === "SCART") {
    if (!v.actions.scart) waitingOn = v.dealer;
    text = v.actions.scart ? S.scart_hint : fmt(S.wait_scart, { name: t.name(v.dealer) });
  } else if (v.phase === "REVEAL") {
    text = S.reveal_title;
  } else if (v.phase === "ROUND_OVER" && v.review) {
    text = t.resultText(v.review.points);
  } else if (v.phase === "MATCH_OVER") {
    // "Match over · Anna resigned.": a match given up says by whom (issue #24).
    const quitter = v.match?.resigned;
    text = quitter ? `${S.match_over} · ${fmt(S.resigned, { name: quitter.name })}` : S.match_over;
  }
  if (v.seat === null) text = `${text} ${S.spectating}`.trim();
  // "Mario to play — away 0:45": never name an away player's turn without the away note.
  const away = waitingOn === null ? null : awayChip(t, t.seatInfo(waitingOn));
  if (away) {
    text = text.replace(/[.。]\s*$/, "");
    t.status.replaceChildren(`${text} — `, away);
  } else if (v.phase === "REVEAL" && v.deadline) {
    // The reveal window's countdown sits here, under the felt, never over a reveal card.
    t.status.replaceChildren(`${text} · `,
      h("span.countdown", { "data-countdown": "reveal_countdown" }));
  } else {
    t.status.textContent = text;
  }
  t.status.classList.toggle("mine", !!(v.actions.play || v.actions.deal || v.actions.scart));
}

/**
 * Tell a screen reader whose turn it now is, once per turn: "Your turn" to the player on turn,
 * "Mario to play" to the others (after the plays of the same update, which announceEvents
 * said first).
 * @param {Table} t
 * @param {View | null} prev
 * @param {View} view
 */
export function announceTurn(t, prev, view) {
  if (view.phase !== "PLAY" || view.turn === null || view.turn === undefined) return;
  const same = prev && prev.phase === "PLAY" && prev.deal_number === view.deal_number
    && prev.turn === view.turn && prev.tricks_played === view.tricks_played
    && (prev.trick ? prev.trick.cards.length : 0) === (view.trick ? view.trick.cards.length : 0);
  if (view.actions.play) {
    if (!(prev && prev.actions.play)) t.ctx.announce(t.S.your_turn);
  } else if (!same) {
    t.ctx.announce(fmt(t.S.turn_of, { name: t.name(view.turn) }));
  }
}

/**
 * Countdowns (reveal window, turn timer) tick without re-rendering anything else: every
 * [data-countdown] element shows its sentence (a key of the page's words) with the seconds left.
 * @param {Table} t
 */
export function tick(t) {
  clearTimeout(t.tickTimer);
  const v = t.view;
  const nodes = /** @type {NodeListOf<HTMLElement>} */ (t.root.querySelectorAll("[data-countdown]"));
  if (!v || !v.deadline || nodes.length === 0) return;
  const left = Math.max(0, Math.ceil(v.deadline - Date.now() / 1000));
  for (const n of nodes) {
    n.textContent = fmt(t.S[/** @type {string} */ (n.dataset.countdown)],
      { seconds: left, time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
  }
  if (left > 0) t.tickTimer = setTimeout(() => tick(t), 250);
}
