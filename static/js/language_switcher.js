// @ts-check
// The language switcher keeps the place on the page (issue #24 item 8): the server moves the
// address to the new language's prefix (accounts.views.set_language), but it never sees the
// part after "#" — the replay's step (#d2t7) — so the form sends it along with the page.

for (const form of document.querySelectorAll("form.language-switcher")) {
  if (!(form instanceof HTMLFormElement)) continue;
  form.addEventListener("submit", () => {
    const next = form.elements.namedItem("next");
    if (!(next instanceof HTMLInputElement) || !location.hash) return;
    next.value = `${next.value.split("#")[0]}${location.hash}`;
  });
}
