import { esc, layout, type PageAssets } from "./html.js";

function column(id: "a" | "b", label: string): string {
  return `<section class="column" data-column="${id}" aria-label="${label}">
<fieldset class="config"><legend>${label}</legend>
<label>Theology <select data-field="theology"></select></label>
<label>Profile <select data-field="profile"></select></label>
<label>Translation <select data-field="bible_id"></select></label>
<label>Max words <input data-field="max_words" type="number" min="1" max="2000" value="300" inputmode="numeric"></label>
<label class="check"><input data-field="skip_preflight" type="checkbox"> Skip preflight</label>
<label class="check"><input data-field="links" type="checkbox" checked> Scripture links</label>
</fieldset>
<article class="answer">
<p class="status" role="status"></p>
<div class="output" aria-live="polite"></div>
<p class="versions"></p>
</article>
</section>`;
}

/**
 * The prompt lab. Its inputs have no name and the form uses method="dialog": even with scripts off,
 * submitting can never put the key into a URL. The key lives only in the input's value.
 */
export function renderLab(assets: PageAssets, baseUrl?: string): string {
  // PUBLIC_BASE_URL: the answers' reader links are absolute under it, and the page renders them as links.
  const base = baseUrl ? ` data-reader-base="${esc(baseUrl)}"` : "";
  const body = `<header class="bar"><a class="brand" href="/read/GEN/1">Bible reader</a><span class="here">Prompt lab</span></header>
<main class="lab"${base}>
<h1>Prompt lab</h1>
<p class="hint">Ask one question, see two configurations answer side by side. Your provider key stays in this page's
memory only and is sent only to this service, as the Authorization header; reloading the page forgets it.</p>
<form id="lab" method="dialog" autocomplete="off">
<div class="ask">
<div class="key-field"><label>Provider key <input id="key" type="password" autocomplete="off" spellcheck="false" placeholder="sk-…" aria-describedby="key-error"></label>
<p id="key-error" class="field-error" role="alert"></p></div>
<label class="question">Question <textarea id="question" rows="3" placeholder="What does John 3:16 mean?"></textarea></label>
<div class="actions"><button id="ask" type="submit">Ask both</button> <button id="stop" type="button" disabled>Stop</button></div>
<p id="lab-error" class="status" role="alert"></p>
</div>
<div class="columns">
${column("a", "Configuration A")}
${column("b", "Configuration B")}
</div>
</form>
</main>`;
  return layout(assets, { title: "Prompt lab · Biblical Chat", body, scripts: ["lab.js"], bodyClass: "lab-page" });
}
