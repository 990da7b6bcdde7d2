// @ts-check
// The action row under the felt: deal the next pass, confirm the Scart, call BUOB (one suit, or
// a menu of suits), and "BUOB with this king" while choosing the fourth card of a trick.

import { fmt, h, patch } from "../dom.js";
import { isSuit } from "../suits.js";
import { hintButton } from "./hint.js";
import { resignButton } from "./resign.js";

/**
 * @import { Table } from "../render.js"
 * @import { Suit } from "../suits.js"
 */

/** @param {Table} t */
export function renderActions(t) {
  const v = t.current;
  const S = t.S;
  const suits = (v.buob && v.buob.suits) || [];
  const kingLegal = v.actions.play && v.trick && v.trick.cards.length === 3
    && v.legal_cards.some((c) => isSuit(c[0]) && c.endsWith("K"));
  const key = JSON.stringify([v.actions, suits, t.selected.size, [...t.selected],
    t.buobMenu, kingLegal, t.attachBuob, v.phase, v.hand_counts[v.dealer], v.seat,
    v.match && v.match.status, v.match && v.match.practice, t.hintAsked]);
  patch(t.actions, key, () => {
    const out = [];
    if (v.actions.deal) {
      const pass = Math.min(3, Math.floor((v.hand_counts[v.dealer] || 0) / 6) + 1);
      out.push(h("button.button.button-action", { type: "button", "data-action": "deal",
        "aria-keyshortcuts": "D", onclick: () => t.ctx.command("deal_next_pass") },
      S.deal_pass, h("small", null, ` · ${fmt(S.deal_pass_n, { n: pass })}`)));
    }
    if (v.actions.scart) {
      out.push(h("span.scart-count", { "aria-live": "polite" }, fmt(S.scart_selected, { n: t.selected.size })));
      out.push(h("button.button.button-action", { type: "button", "data-action": "scart",
        disabled: t.selected.size !== 2,
        onclick: () => t.ctx.command("discard_scart", { cards: [...t.selected] }) },
      S.scart_confirm));
    }
    if (suits.length === 1) {
      out.push(h("button.button.button-buob", { type: "button", "data-action": "buob",
        "aria-keyshortcuts": "B", onclick: () => callBuob(t, suits[0]) },
      `${S.buob}!`, h("small", null, ` ${fmt(S.buob_on, { suit: S[`suit_${suits[0]}`] })}`)));
    } else if (suits.length > 1) {
      out.push(h("button.button.button-buob", { type: "button", "data-action": "buob",
        "aria-expanded": String(t.buobMenu), "aria-keyshortcuts": "B",
        onclick: () => toggleBuobMenu(t) }, `${S.buob}!`));
      if (t.buobMenu) {
        out.push(h("span.buob-menu", { role: "group", "aria-label": S.buob_choose },
          suits.map((s) => h("button.button.button-secondary", { type: "button",
            "data-suit": s, onclick: () => callBuob(t, s) }, fmt(S.buob_on, { suit: S[`suit_${s}`] })))));
      }
    }
    if (kingLegal && suits.length === 0) {
      out.push(h("label.inline.attach-buob", null, h("input", { type: "checkbox",
        checked: t.attachBuob,
        onchange: (e) => { t.attachBuob = /** @type {HTMLInputElement} */ (e.target).checked; } }),
      " ", S.buob_with_card));
    }
    const hint = hintButton(t);
    if (hint) out.push(hint);
    const resign = resignButton(t);
    if (resign) out.push(resign);
    return out;
  });
}

/**
 * Open or close the menu of suits. The row is redrawn, so the focus goes where a keyboard
 * player (Enter on the button, or the B shortcut) continues: the first suit of the open menu,
 * or the BUOB button again.
 * @param {Table} t
 */
function toggleBuobMenu(t) {
  t.buobMenu = !t.buobMenu;
  t.renderActions();
  const next = /** @type {HTMLElement | null} */ (t.actions.querySelector(
    t.buobMenu ? ".buob-menu [data-suit]" : "[data-action=buob]"));
  if (next) next.focus();
}

/**
 * @param {Table} t
 * @param {Suit} suit
 */
function callBuob(t, suit) {
  t.buobMenu = false;
  t.ctx.command("call_buob", { suit });
}

/**
 * Click the action button `name` (data-action) if it is there: the keyboard shortcuts.
 * @param {Table} t
 * @param {"buob" | "deal" | "hint"} name
 */
export function pressAction(t, name) {
  const b = /** @type {HTMLElement | null} */ (t.actions.querySelector(`[data-action=${name}]`));
  if (b) b.click();
}
