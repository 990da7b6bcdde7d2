// @ts-check
// The table's dialogs: the last trick (opened from the score bar or with L) and the owner's
// house-rule editor (the server-rendered form in #rules-dialog, filled from the view).

import { fmt, h } from "../dom.js";

/**
 * @import { Table } from "../render.js"
 * @import { RoomOptions, Trick } from "../protocol.js"
 */

/**
 * The last completed trick, over the felt.
 * @param {Table} t
 * @param {Trick} last
 */
export function lastTrickPanel(t, last) {
  const S = t.S;
  const winner = /** @type {number} */ (last.winner); // a completed trick has its winner
  return h("div.last-trick", { role: "dialog", "aria-label": S.last_trick },
    h("div.last-head", null, h("strong", null, `${S.last_trick} · ${fmt(S.trick_n, { n: last.number })}`),
      h("button.link-button", { type: "button", onclick: () => t.toggleLast(false) }, S.close)),
    h("div.last-cards", null, last.cards.map(([seat, id]) => h(`figure${seat === last.winner ? ".winner" : ""}${last.buob && last.buob.returned_card && id === `${last.buob.suit}J` ? ".buob-jack" : ""}`, null,
      t.card(id), h("figcaption", null, t.name(seat))))),
    last.buob ? h("p.last-buob", null, h("span", null, t.buobText(last.buob)), " ",
      h("span.buob-exchange", null, t.exchangeText(last.buob))) : null,
    h("p", null, fmt(S.won_by, { name: t.name(winner) })));
}

/**
 * Wire the house-rule editor: `save` gets the edited options when the dialog closes with
 * "save" (and `current()` has options to compare with).
 * @param {HTMLDialogElement} dialog
 * @param {HTMLFormElement} form
 * @param {() => RoomOptions | null} current the room's options now, null before any view
 * @param {(options: Partial<RoomOptions>) => void} save
 * @returns {(options: RoomOptions) => void} opens the editor filled with `options`
 */
export function rulesEditor(dialog, form, current, save) {
  // The form's inputs by option name (a <select> has the same `type` and `value`).
  /** @param {string} key */
  const inputsOf = (key) => /** @type {NodeListOf<HTMLInputElement>} */ (
    form.querySelectorAll(`[name="${key}"]`));

  dialog.addEventListener("close", () => {
    const options = current();
    if (dialog.returnValue !== "save" || !options) return;
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [key, value] of Object.entries(options)) {
      const inputs = [...inputsOf(key)];
      if (!inputs.length) continue;
      if (Array.isArray(value)) out[key] = inputs.filter((i) => i.checked).map((i) => i.value);
      else if (typeof value === "boolean") out[key] = inputs[0].checked;
      else if (inputs[0].type === "radio") {
        const hit = inputs.find((i) => i.checked);
        out[key] = hit ? hit.value : value;
      } else if (typeof value === "number") out[key] = Number(inputs[0].value);
      else out[key] = inputs[0].value;
    }
    // The server checks every value (INVALID_OPTIONS); the form offers only valid ones.
    save(/** @type {Partial<RoomOptions>} */ (out));
  });

  return (options) => {
    for (const [key, value] of Object.entries(options)) {
      for (const input of inputsOf(key)) {
        if (input.type === "checkbox" && Array.isArray(value)) {
          input.checked = /** @type {readonly string[]} */ (value).includes(input.value);
        } else if (input.type === "checkbox") input.checked = !!value;
        else if (input.type === "radio") input.checked = input.value === String(value);
        else input.value = String(value);
      }
    }
    dialog.returnValue = "";
    dialog.showModal();
  };
}
