// Brings the requested verses into view and lets the translation picker work without its button.
const first = document.querySelector("[data-highlight]");
if (first) first.scrollIntoView({ block: "center" });

const picker = document.getElementById("bible-id");
if (picker && picker.form) {
  document.documentElement.classList.add("js");
  picker.addEventListener("change", () => picker.form.submit());
}
