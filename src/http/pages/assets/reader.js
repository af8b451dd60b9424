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

// The study tools load their code (and their data) only when one is used.
const study = document.querySelector(".study");
if (study) {
  let mod;
  study.addEventListener("click", async (e) => {
    const button = e.target instanceof Element ? e.target.closest("button") : null;
    if (!button) return;
    mod ??= import(study.dataset.module);
    (await mod).handle(button);
  });
  document.addEventListener("click", async (e) => {
    const close = e.target instanceof Element ? e.target.closest(".commentary .c-close") : null;
    if (close && mod) (await mod).handle(close);
  });
}
