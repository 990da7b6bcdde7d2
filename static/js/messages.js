// @ts-check
// A page's confirmations ("Men has been invited to this table.", "Your profile has been saved.")
// go away by themselves after a few seconds (issue #24 item 9); a refusal or a warning stays
// until the next page. The timer waits while the pointer or the focus is on the message, so it
// never vanishes while someone reads it.

const SHOW_MS = 6000;

for (const item of document.querySelectorAll(".messages .message-success, .messages .message-info")) {
  if (!(item instanceof HTMLElement)) continue;
  /** @type {number | undefined} */
  let timer;
  const arm = () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      const list = item.parentElement;
      item.remove();
      // The empty list and its live region go too: no empty band above the page.
      if (list && list.children.length === 0) (list.closest("[role=status]") || list).remove();
    }, SHOW_MS);
  };
  item.addEventListener("pointerenter", () => clearTimeout(timer));
  item.addEventListener("pointerleave", arm);
  item.addEventListener("focusin", () => clearTimeout(timer));
  item.addEventListener("focusout", arm);
  arm();
}
