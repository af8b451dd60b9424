// The example request names this page's own address, so it can be copied as it is.
for (const el of document.querySelectorAll("[data-origin]")) el.textContent = location.origin;
