// @ts-check
// The room page around the table: the site's navigation folded into a menu, the drawer with the
// invite link and the house rules, and the one-screen layout while a match runs (table.css,
// "One screen"). The table itself is drawn by render.js; this module only moves and opens
// what the server rendered, so every word on it comes from the template.

/**
 * @param {string} id
 * @returns {HTMLElement | null}
 */
const byId = (id) => document.getElementById(id);

/**
 * Wire the menu and the drawer; the returned function tells the page whether a match runs.
 * @returns {{ setInMatch: (inMatch: boolean) => void, fitToasts: () => void }}
 */
export function roomChrome() {
  const header = /** @type {HTMLElement | null} */ (document.querySelector(".site-header"));
  const menuButton = /** @type {HTMLButtonElement | null} */ (document.querySelector(".nav-toggle"));
  const drawer = /** @type {HTMLDialogElement | null} */ (byId("room-drawer"));
  const drawerButton = byId("drawer-toggle");
  const invite = /** @type {HTMLElement | null} */ (document.querySelector(".invite"));
  const inviteHome = invite ? invite.parentElement : null;
  const inviteInDrawer = byId("drawer-invite");
  const toasts = byId("toasts");

  /** @param {boolean} open */
  const setMenu = (open) => {
    if (!header || !menuButton) return;
    header.classList.toggle("menu-open", open);
    menuButton.setAttribute("aria-expanded", String(open));
  };
  if (menuButton && header) {
    menuButton.addEventListener("click", () => setMenu(!header.classList.contains("menu-open")));
    // A tap anywhere else, or Escape, folds the menu again (it lies over the table).
    document.addEventListener("click", (e) => {
      if (header.classList.contains("menu-open") && !header.contains(/** @type {Node} */ (e.target))) {
        setMenu(false);
      }
    });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && header.classList.contains("menu-open")) {
        setMenu(false);
        menuButton.focus();
      }
    });
  }

  if (drawer && drawerButton) {
    drawerButton.addEventListener("click", () => {
      drawer.showModal();
      drawerButton.setAttribute("aria-expanded", "true");
    });
    const closeButton = byId("drawer-close");
    if (closeButton) closeButton.addEventListener("click", () => drawer.close());
    // A tap on the backdrop (the dialog box itself, outside its padding box's content) closes.
    drawer.addEventListener("click", (e) => {
      if (e.target !== drawer) return;
      const r = drawer.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top
        && e.clientY <= r.bottom;
      if (!inside) drawer.close();
    });
    drawer.addEventListener("close", () => drawerButton.setAttribute("aria-expanded", "false"));
  }

  /**
   * Keep the toasts in the band above the felt's middle, so that they never cover the trick:
   * the newest on top, and the older ones that do not fit whole are dropped (every toast was
   * also said to screen readers when it came).
   */
  const fitToasts = () => {
    if (!toasts) return;
    const center = /** @type {HTMLElement | null} */ (
      document.querySelector("#table-app .table:not([hidden]) .center"));
    if (!center || !document.documentElement.classList.contains("in-match")) {
      toasts.style.maxHeight = "";
      return;
    }
    const room = Math.max(0, center.getBoundingClientRect().top - toasts.offsetTop - 4);
    toasts.style.maxHeight = `${room}px`;
    while (toasts.children.length > 1 && toasts.scrollHeight > room) {
      /** @type {Element} */ (toasts.lastElementChild).remove();
    }
  };
  window.addEventListener("resize", fitToasts);

  /** @param {boolean} inMatch */
  const setInMatch = (inMatch) => {
    const root = document.documentElement;
    if (root.classList.contains("in-match") === inMatch && invite
      && invite.parentElement === (inMatch ? inviteInDrawer : inviteHome)) return;
    root.classList.toggle("in-match", inMatch);
    // While a match runs the invite link waits in the drawer; in the lobby it is in sight.
    const home = inMatch ? inviteInDrawer : inviteHome;
    if (invite && home && invite.parentElement !== home) home.append(invite);
    setMenu(false);
    fitToasts();
  };

  return { setInMatch, fitToasts };
}
