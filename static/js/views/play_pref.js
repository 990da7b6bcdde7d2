// @ts-check
// The drawer's "Play a single legal card by itself" (issue #24 item 15): a checkbox that the
// server rendered with the player's saved choice; a change is saved on the account at once
// (POST with the page's CSRF token, games/views/preferences.py) and told to the table. A
// change the server refused is undone, and the player is told.

/**
 * @param {{ single_card: boolean | null, single_card_url: string | null, csrf: string | null }} cfg
 * @param {(on: boolean) => void} onChange told the choice in force
 * @param {(text: string) => void} onError shown when a change could not be saved
 * @param {string} notSaved the sentence for that
 */
export function singleCardSwitch(cfg, onChange, onError, notSaved) {
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById("play-single-card"));
  const url = cfg.single_card_url;
  if (!box || !url) return;
  box.checked = !!cfg.single_card;
  box.addEventListener("change", async () => {
    const on = box.checked;
    const hadFocus = document.activeElement === box;
    onChange(on);
    // One change on its way at a time, so the answers cannot cross (a disabled box loses
    // the focus: it comes back below).
    box.disabled = true;
    try {
      const response = await fetch(url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": cfg.csrf || "" },
        body: JSON.stringify({ play_single_card: on }),
      });
      if (!response.ok) throw new Error(String(response.status));
      const saved = /** @type {{ play_single_card: boolean }} */ (await response.json());
      box.checked = saved.play_single_card;
    } catch {
      box.checked = !on;
      onError(notSaved);
    } finally {
      box.disabled = false;
      onChange(box.checked);
      if (hadFocus) box.focus();
    }
  });
}
