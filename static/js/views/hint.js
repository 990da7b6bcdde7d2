// @ts-check
// Hints at a practice table (issue #28 item 2): the Hint button asks the server for the strong
// bot's best actions for this player's own decision; the answer (a `hint` frame, for the
// version it was judged at) lists up to three, each with the points the player's team is
// expected to end the deal with, and lifts the best card in the hand. A new view clears it.

import { fmt, h } from "../dom.js";

/**
 * @import { Table } from "../render.js"
 * @import { HintMessage, HintOption } from "../protocol.js"
 */

/**
 * The button, or null where no hint is offered: not seated, no practice table (the server
 * refuses elsewhere too), or no decision of the player's (a card to play, the Scart).
 * @param {Table} t
 */
export function hintButton(t) {
  const v = t.current;
  const practice = v.match !== null && !!v.match.practice && v.match.status === "running";
  if (v.seat === null || !practice || !(v.actions.play || v.actions.scart)) return null;
  return h("button.button.button-secondary.button-hint", { type: "button",
    "data-action": "hint", "aria-keyshortcuts": "H", disabled: t.hintAsked,
    onclick: () => askHint(t) }, t.S.hint);
}

/** @param {Table} t */
export function askHint(t) {
  if (t.hintAsked) return;
  t.hintAsked = true;
  t.hintPanel.hidden = false;
  t.hintPanel.replaceChildren(h("p.hint-wait", null, t.S.hint_wait));
  t.ctx.ask("hint", () => {
    // Refused or lost: the button comes back; the refusal's sentence was shown as a toast.
    t.hintAsked = false;
    if (!t.hintPanel.querySelector("ol")) clearHint(t);
    t.renderActions();
  });
  t.renderActions();
}

/**
 * @param {Table} t
 * @param {HintOption} o
 */
function choice(t, o) {
  if (o.type === "discard_scart") {
    return fmt(t.S.hint_scart, { cards: o.cards.map((c) => t.ctx.names[c] || c).join(" + ") });
  }
  const name = t.ctx.names[o.card] || o.card;
  return o.call_buob ? `${name} · ${t.S.buob}!` : name;
}

/**
 * Show the answer (already checked to be for the table's current version).
 * @param {Table} t
 * @param {HintMessage} msg
 */
export function showHint(t, msg) {
  t.hintAsked = false;
  const S = t.S;
  const items = msg.options.map((o, i) => h("li", { "data-choice":
      o.type === "play_card" ? o.card : o.cards.join(",") },
  h("strong", null, choice(t, o)), " ",
  h("span.hint-points", null, fmt(S.hint_points, { points: o.points.toFixed(1) })),
  i > 0 && o.behind < 0
    ? h("span.hint-behind", null, ` (${fmt(S.hint_behind, { points: (-o.behind).toFixed(1) })})`)
    : null));
  const call = msg.call
    ? h("p.hint-call", null, fmt(S.hint_call, { suit: S[`suit_${msg.call.suit}`],
      chance: String(Math.round(msg.call.chance * 100)) }))
    : null;
  t.hintPanel.hidden = false;
  const title = h("p.hint-title", null, S.hint_title);
  const list = h("ol.hint-options", null, items);
  t.hintPanel.replaceChildren(...(call ? [title, call, list] : [title, list]));
  t.hinted = msg.kind === "play" && msg.options.length
    && msg.options[0].type === "play_card" ? msg.options[0].card : null;
  markHinted(t);
  t.renderActions();
  t.ctx.announce(`${S.hint_title}: ${choice(t, msg.options[0])}`);
}

/** The best card, lifted in the hand (re-applied after the hand is redrawn). @param {Table} t */
export function markHinted(t) {
  for (const el of t.hand.querySelectorAll(".card.hinted")) el.classList.remove("hinted");
  if (!t.hinted) return;
  const el = t.hand.querySelector(`.card[data-card="${t.hinted}"]`);
  if (el) el.classList.add("hinted");
}

/** A new view: the hint was for the one before. @param {Table} t */
export function clearHint(t) {
  t.hinted = null;
  t.hintPanel.hidden = true;
  t.hintPanel.replaceChildren();
  markHinted(t);
}
