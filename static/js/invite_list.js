// @ts-check
// The room drawer's "Invite a friend" list, kept live (issue #24 item 9): when the site socket
// (site_socket.js) says the account's friends changed — a friend request accepted, a friend
// removed or blocked — the list is read again from the server and rebuilt, so a friend who
// just accepted can be invited without reloading the page. Names go in as text, never markup.

const section = document.querySelector("[data-invitable-url]");

/** @typedef {{id: number, name: string, online: boolean}} Invitable */

/** @param {Invitable[]} friends */
function show(friends) {
  if (!(section instanceof HTMLElement)) return;
  const form = section.querySelector("form.invite-friend");
  const none = section.querySelector(".invite-none");
  const select = section.querySelector("select");
  if (!(form instanceof HTMLElement) || !(none instanceof HTMLElement)
      || !(select instanceof HTMLSelectElement)) return;
  const chosen = select.value;
  const online = section.dataset.onlineWord || "";
  select.replaceChildren(...friends.map((friend) => {
    const option = document.createElement("option");
    option.value = String(friend.id);
    option.textContent = friend.online ? `${friend.name} (${online})` : friend.name;
    return option;
  }));
  // The friend who was chosen stays chosen if they are still there.
  if (friends.some((friend) => String(friend.id) === chosen)) select.value = chosen;
  form.hidden = friends.length === 0;
  none.hidden = friends.length > 0;
}

let asking = false;
let again = false;

async function refresh() {
  if (!(section instanceof HTMLElement) || !section.dataset.invitableUrl) return;
  // One request at a time; a change heard meanwhile asks once more afterwards.
  if (asking) { again = true; return; }
  asking = true;
  try {
    const response = await fetch(section.dataset.invitableUrl, {
      credentials: "same-origin", headers: { Accept: "application/json" },
    });
    if (!response.ok) return;
    const body = await response.json();
    if (body && Array.isArray(body.friends)) show(body.friends);
  } catch {
    // Offline for a moment: the next change, or the next page, shows the list.
  } finally {
    asking = false;
    if (again) { again = false; void refresh(); }
  }
}

if (section) document.addEventListener("troccas:friends", () => { void refresh(); });
