// @ts-check
// The room page's house-rules table (rendered by the server as the page was loaded), redrawn
// from `view.room.options` on every state, so a rule the owner changes reaches everyone. How a
// value reads is the server's (games/text/options.py `value_words`, on the page as
// #rule-words): this only looks it up.

import { fmt, h } from "../dom.js";

/** @import { RoomOptions } from "../protocol.js" */

/**
 * @typedef {object} RuleWords
 * @property {Record<string, string>} labels the rules' names, in the table's order
 * @property {Record<string, unknown>} standard the engine's defaults (RULES.md §14)
 * @property {string} house_rule
 * @property {Record<string, Record<string, string>>} values each option's words by its value's
 *   JSON text; "*" the pattern of any other number, "[]" the words of an empty list
 */

/**
 * One option's value in the page's language, read from the server's words as
 * games/text/options.py `describe` reads them.
 * @param {RuleWords} w
 * @param {string} key
 * @param {unknown} value
 */
export function describe(w, key, value) {
  const words = w.values[key] || {};
  if (Array.isArray(value)) {
    return value.length ? value.map((v) => words[JSON.stringify(v)] || String(v)).join(", ") : words["[]"] || "";
  }
  const said = words[JSON.stringify(value)];
  if (said !== undefined) return said;
  return words["*"] ? fmt(words["*"], { seconds: String(value), n: String(value) }) : String(value);
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
