// @ts-check
// The table's two quiet sounds — "your turn" and "a trick won by your team" — drawn with the
// Web Audio API (no audio files, nothing to license or download). Off unless the player turned
// them on: a signed-in player's choice is saved on the account (POST, with the page's CSRF
// token), an anonymous visitor's stays in this browser (localStorage).

/** @typedef {"turn" | "trick"} SoundKind */

/** The localStorage key of an anonymous visitor's choice. */
export const STORAGE_KEY = "troccas.sounds";

// Each sound is a couple of short sine notes, well below full volume: [Hz, start s, length s].
/** @type {Record<SoundKind, Array<[number, number, number]>>} */
const NOTES = {
  turn: [[660, 0, 0.14], [880, 0.12, 0.2]],
  trick: [[523, 0, 0.12], [784, 0.09, 0.22]],
};
const VOLUME = 0.06;

/** @returns {boolean} */
function storedChoice() {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === "on";
  } catch {
    return false; // storage refused (private mode, a locked-down browser): sounds stay off
  }
}

export class Sounds {
  /**
   * @param {{ sounds: boolean | null, sounds_url: string | null, csrf: string | null }} cfg
   * @param {(text: string) => void} onError shown when a choice could not be saved
   * @param {string} notSaved the sentence for that
   */
  constructor(cfg, onError, notSaved) {
    this.cfg = cfg;
    this.onError = onError;
    this.notSaved = notSaved;
    /** Whether the sounds are on. */
    this.on = cfg.sounds_url ? !!cfg.sounds : storedChoice();
    /** @type {AudioContext | null} made on the first sound or gesture, not before */
    this.audio = null;
    /** @type {Set<() => void>} told when `on` changes */
    this.listeners = new Set();
    // Browsers start an AudioContext suspended until the page has seen a gesture: the first
    // tap or key after a reload unlocks it, so the next turn is heard.
    const unlock = () => { if (this.on) this.context(); };
    document.addEventListener("pointerdown", unlock, { passive: true });
    document.addEventListener("keydown", unlock);
  }

  /** @returns {AudioContext | null} */
  context() {
    const Ctor = window.AudioContext;
    if (!Ctor) return null;
    if (!this.audio) this.audio = new Ctor();
    if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    return this.audio;
  }

  /**
   * Turn the sounds on or off and keep the choice; a choice the server refused is undone.
   * @param {boolean} on
   */
  async set(on) {
    const before = this.on;
    this.change(on);
    if (on) this.context(); // inside the click: the gesture that lets the page make sound
    if (!this.cfg.sounds_url) {
      try {
        window.localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
      } catch {
        this.onError(this.notSaved);
      }
      return;
    }
    try {
      const response = await fetch(this.cfg.sounds_url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": this.cfg.csrf || "" },
        body: JSON.stringify({ table_sounds: on }),
      });
      if (!response.ok) throw new Error(String(response.status));
      const saved = /** @type {{ table_sounds: boolean }} */ (await response.json());
      this.change(saved.table_sounds);
    } catch {
      this.change(before);
      this.onError(this.notSaved);
    }
  }

  /** @param {boolean} on */
  change(on) {
    if (this.on === on) return;
    this.on = on;
    for (const listener of this.listeners) listener();
  }

  /**
   * Play `kind`, if the sounds are on.
   * @param {SoundKind} kind
   */
  play(kind) {
    if (!this.on) return;
    const audio = this.context();
    if (!audio) return;
    const t0 = audio.currentTime + 0.01;
    for (const [freq, start, length] of NOTES[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      // A soft attack and an exponential fade: no click at either end of the note.
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(VOLUME, t0 + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + length + 0.02);
    }
  }
}
