// @ts-check
// The room page's house-rules table (rendered by the server as the page was loaded), redrawn
// from `view.room.options` on every state, so a rule the owner changes reaches everyone.
// `describe` mirrors games/text/options.py; the words come from the page (#rule-words).

import { fmt, h } from "../dom.js";

/** @import { RoomOptions } from "../protocol.js" */

/**
 * @typedef {object} RuleWords
 * @property {Record<string, string>} labels the rules' names, in the table's order
 * @property {Record<string, unknown>} standard the engine's defaults (RULES.md §14)
 * @property {string} seconds @property {string} off @property {string} yes
 * @property {string} no @property {string} unlimited @property {string} none
 * @property {string} house_rule
 * @property {Record<string, Record<string, string>>} values the named values' words
 */

/**
 * One option's value in the page's language.
 * @param {RuleWords} w
 * @param {string} key
 * @param {unknown} value
 */
export function describe(w, key, value) {
  if (key === "reveal_seconds") return fmt(w.seconds, { seconds: Number(value) });
  if (key === "turn_seconds" || key === "stand_in_seconds") return value === 0 ? w.off : fmt(w.seconds, { seconds: Number(value) });
  if (key === "reveal_persist" || key === "bock") return value ? w.yes : w.no;
  if (key === "match_deals") return value === 0 ? w.unlimited : String(value);
  if (key === "bock_triggers") {
    const list = /** @type {string[]} */ (Array.isArray(value) ? value : []);
    return list.length ? list.map((t) => w.values.bock_triggers[t] || t).join(", ") : w.none;
  }
  const named = w.values[key];
  return named ? named[String(value)] || String(value) : String(value);
}

/**
 * Redraw the rules table's body; nothing is touched when the options did not change.
 * @param {HTMLTableElement | null} table
 * @param {RuleWords | null} w
 * @param {RoomOptions} options
 */
export function renderRules(table, w, options) {
  const body = table && table.tBodies[0];
  if (!body || !w || !options) return;
  const key = JSON.stringify(options);
  if (body.dataset.options === key) return;
  body.dataset.options = key;
  const current = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (options));
  body.replaceChildren(...Object.entries(w.labels).map(([k, label]) => {
    const differs = JSON.stringify(current[k]) !== JSON.stringify(w.standard[k]);
    return h(differs ? "tr.differs" : "tr", { dataset: { option: k } },
      h("th", { scope: "row" }, label),
      h("td", null, describe(w, k, current[k]),
        differs ? " " : null, differs ? h("span.badge", null, w.house_rule) : null),
      h("td", null, describe(w, k, w.standard[k])));
  }));
}
