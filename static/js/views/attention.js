// @ts-check
// Getting a seated player's attention when the table needs them, also from another tab: "Your
// turn" in the tab's title and a badge on the favicon while it is their turn to act (play,
// deal the next pass, discard the Scart), and the optional quiet sounds (./sounds.js) for the
// turn and for a trick won by their team. Spectators have no turn: their tab never changes.

import { Sounds } from "./sounds.js";

/**
 * @import { View } from "../protocol.js"
 * @import { Strings, TableConfig } from "./scene.js"
 */

/**
 * Whether `view`'s receiver has something to do now that only they can do.
 * @param {View | null} view
 */
export function myTurn(view) {
  if (!view || view.seat === null || view.seat === undefined) return false;
  const a = view.actions;
  return a.play || a.deal || a.scart;
}

export class Attention {
  /**
   * @param {TableConfig} cfg
   * @param {Strings} S
   * @param {(text: string) => void} toast
   */
  constructor(cfg, S, toast) {
    this.S = S;
    this.sounds = new Sounds(cfg, toast, S.sounds_not_saved);
    this.baseTitle = document.title;
    this.turnTitle = `${S.title_your_turn} · ${this.baseTitle}`;
    /** @type {HTMLLinkElement | null} */
    this.icon = document.querySelector("link[rel~=icon]");
    this.baseIcon = this.icon ? this.icon.href : "";
    this.turnIcon = cfg.favicon_turn;
    this.turn = false;
  }

  /**
   * Follow the table from `prev` to `view`: title and favicon, and a sound on each new turn
   * and each trick the receiver's team wins.
   * @param {View | null} prev
   * @param {View} view
   */
  update(prev, view) {
    const turn = myTurn(view);
    const turnStarts = turn && !this.turn && !!prev;
    if (turn !== this.turn) {
      this.turn = turn;
      document.title = turn ? this.turnTitle : this.baseTitle;
      if (this.icon) {
        this.icon.href = turn ? this.turnIcon : this.baseIcon;
        this.icon.type = "image/svg+xml";
      }
    }
    const seated = view.seat !== null && view.seat !== undefined;
    const won = seated && prev && prev.deal_number === view.deal_number
      && view.tricks_played > prev.tricks_played && view.last_trick
      && view.last_trick.winner !== null && view.last_trick.winner !== undefined
      && view.last_trick.winner % 2 === /** @type {number} */ (view.seat) % 2;
    // One sound at a time: the winner of a trick also leads the next, and hears the trick's.
    if (won) this.sounds.play("trick");
    else if (turn && turnStarts) this.sounds.play("turn");
  }
}
