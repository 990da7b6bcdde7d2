// @ts-check
// What issue #24 adds to the score bar: how many people watch (item 15, a count, never who),
// the way back to a closed score sheet (item 7), and the talk panel's button with its count of
// new messages (item 1, talk_badge.js; one persistent button, moved into each new bar).

import { fmt, h } from "../dom.js";

/** @import { Table } from "../render.js" */

/**
 * What the extras depend on, for the bar's rebuild key.
 * @param {Table} t
 */
export function extrasKey(t) {
  return [t.watching, t.sheetClosed, !!t.talkButton];
}

/**
 * The watching count, the "Score sheet" button (while a sheet is closed) and the talk button.
 * @param {Table} t
 * @returns {HTMLElement[]}
 */
export function barExtras(t) {
  const v = t.current;
  const S = t.S;
  const out = [];
  if (t.sheetClosed && (v.phase === "ROUND_OVER" || v.phase === "MATCH_OVER") && v.review) {
    out.push(h("button.button.button-secondary.button-small-solid", { type: "button",
      "data-action": "open-sheet", onclick: () => t.openSheet() }, S.open_sheet));
  }
  if (t.talkButton) out.push(t.talkButton);
  return out;
}

/**
 * "2 watching", or nothing while nobody watches.
 * @param {Table} t
 * @returns {HTMLElement | null}
 */
export function watchingChip(t) {
  const n = t.watching;
  if (!n) return null;
  return h("span.watching", { "data-watching": n },
    fmt(n === 1 ? t.S.watching_one : t.S.watching, { n }));
}
