// @ts-check
// The four suits of the 1JJ pack (RULES.md §2) in canonical order: cups, coins, swords, batons.
// The one list of them: cards.js draws by it, the table and the replay viewer import it too.

/** A suit letter: cups, coins, swords, batons (trumps are "T", the Narr has none).
 *  @typedef {"C" | "R" | "S" | "B"} Suit */

/** @type {readonly Suit[]} */
export const SUITS = Object.freeze(["C", "R", "S", "B"]);

/**
 * Whether `letter` (say a card id's first character) is one of the four suits.
 * @param {string} letter
 * @returns {letter is Suit}
 */
export function isSuit(letter) {
  return /** @type {readonly string[]} */ (SUITS).includes(letter);
}
