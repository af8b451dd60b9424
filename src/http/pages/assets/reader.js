// Brings the requested verses into view (below the header that stays on screen) and closes an open
// header menu on Escape or a tap elsewhere. The page works without this file.
const first = document.querySelector("[data-highlight]");
if (first) first.scrollIntoView({ block: "center" });

const menus = [...document.querySelectorAll("details.menu")];
const closeAll = (except) => {
  for (const m of menus) if (m !== except && m.open) m.open = false;
};
document.addEventListener("click", (e) => closeAll(e.target instanceof Element ? e.target.closest("details.menu") : null));
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  const open = menus.find((m) => m.open);
  if (!open) return;
  open.open = false;
  open.querySelector("summary")?.focus();
});
