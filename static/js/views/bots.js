// @ts-check
// Bots at the table (issue #15): a bot's name in the page's language and its badge. The server
// sends a bot's own name and its level (`player.bot`); the words come from the page's strings,
// so every place that shows a player's name says "Gion (bot, easy)" in the reader's language.

import { fmt, h } from "../dom.js";

/**
 * @import { Table } from "../render.js"
 * @import { SeatInfo, View } from "../protocol.js"
 * @import { Strings } from "./scene.js"
 */

/**
 * Name the view's bots in the page's language, once, as the view arrives.
 * @param {View} view
 * @param {Strings} S
 */
export function nameBots(view, S) {
  for (const s of view.seats || []) {
    const level = s.player.bot;
    if (level) {
      s.player.name = fmt(S.bot_name, { name: s.player.name, level: S[`level_${level}`] || level });
    }
  }
}

/**
 * A bot's badge beside its name (its name says "bot" in words); null for a person. A bot
 * standing in for an away player is named by that player's away notice ("bot for Mario").
 * @param {Table} t
 * @param {SeatInfo | null} info
 */
export function botChip(t, info) {
  if (!info || !info.player.bot) return null;
  // A word, not a pictograph: a page without an emoji font would show an empty box.
  return h("span.chip.chip-bot", { title: t.S.bot_badge, dataset: { bot: info.player.bot } },
    t.S.bot_badge);
}
