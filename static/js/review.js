// @ts-check
// A deal's review being worked out (issue #28 item 3): the progress bar follows the review's
// state; the page reloads once it is done (or failed) to show the result.

const box = /** @type {HTMLElement | null} */ (document.querySelector(".review-progress"));
const bar = /** @type {HTMLProgressElement | null} */ (document.getElementById("review-bar"));

async function poll() {
  if (!box || !bar) return;
  try {
    const response = await fetch(box.dataset.stateUrl || "", { credentials: "same-origin" });
    const state = await response.json();
    if (state.total) bar.max = state.total;
    bar.value = state.done || 0;
    bar.textContent = `${state.done || 0} / ${state.total || 0}`;
    if (state.status === "done" || state.status === "failed") {
      window.location.reload();
      return;
    }
  } catch {
    // A lost answer: asked again at the next tick.
  }
  window.setTimeout(poll, 1000);
}

window.setTimeout(poll, 500);
