import { esc, layout, type PageAssets } from "./html.js";

const EXAMPLE_BODY = `{"messages":[{"role":"user",
        "content":"What does the Bible say about forgiveness?"}],
       "theology":"reformed","max_words":150}`;

const LOOPBACK = /^(?:localhost|.*\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Whether the default provider is on this machine (OPENAI_BASE_URL on a loopback host), as the fake
 * provider is in development and tests. Only then does the landing page say that any key works: a
 * deployment's visitors need a real provider key.
 */
export function isLocalProvider(baseURL: string | undefined): boolean {
  if (baseURL === undefined) return false;
  try {
    return LOOPBACK.test(new URL(baseURL).hostname);
  } catch {
    return false;
  }
}

export interface LandingOptions {
  /** The default provider's base URL (OPENAI_BASE_URL). */
  providerBaseUrl?: string | undefined;
}

/**
 * `GET /`: what the service is and where to go next. Plain HTML and the site stylesheet only; the one
 * module script puts this page's own origin into the example request (it reads localhost:8080 without it).
 */
export function renderLanding(assets: PageAssets, options: LandingOptions = {}): string {
  const origin = `<span data-origin="">http://localhost:8080</span>`;
  const keyHint = isLocalProvider(options.providerBaseUrl)
    ? ` (this service uses a provider on this machine, such as the fake provider: any <code>sk-…</code> key works)`
    : "";
  const body = `<header class="bar"><span class="brand">Biblical Chat</span>
<nav class="bar-links" aria-label="Pages"><a href="/read/JHN/3?verse=16">Reader</a><a href="/lab">Prompt lab</a></nav></header>
<main class="landing">
<h1>Biblical Chat</h1>
<p class="lead">Answers to Bible questions through an OpenAI-compatible chat-completions API. Answers draw on
public-domain Bible texts, quote them and link every reference to the reader below. Pick a theological
tradition, a reader profile and a translation per request; bring your own provider key.</p>

<h2>Read</h2>
<ul class="cards">
<li><a href="/read/JHN/3?verse=16">The reader</a> · <a href="/read/PSA/23">Psalm 23</a> · <a href="/read/MAT/5">Matthew 5</a>
<span>every chapter of the World English Bible, the King James Version and the Reina-Valera 1909; the pages that
answers link to</span></li>
<li><a href="/lab">The prompt lab</a> <span>ask one question and compare two configurations side by side</span></li>
</ul>

<h2>The API</h2>
<ul class="cards">
<li><a href="/openapi.json">OpenAPI document</a> <span>every endpoint, field and error (OpenAPI 3.1)</span></li>
<li><code>POST /v1/chat/completions</code> and <code>POST /v1/responses</code> <span>the same answer in OpenAI's
Chat Completions or Responses format (stateless: send the whole conversation); your provider key as the bearer</span></li>
<li><a href="/v1/translations">Translations</a>, <a href="/v1/theologies">theologies</a>,
<a href="/v1/profiles">profiles</a>, <a href="/v1/models">models</a> <span>the listings, no key needed</span></li>
<li><a href="/v1/scripture/search?q=love%20your%20enemies&amp;limit=3">Scripture search</a> <span>semantic search
over chapters, no key needed</span></li>
<li><a href="/readyz">Readiness</a> <span>200 while chat answers; search's state inside</span></li>
</ul>

<h2>Ask a question</h2>
<p>Send your provider's key as the bearer${keyHint}; the service keeps no key.</p>
<pre class="example" tabindex="0" aria-label="Example request"><code>curl -s ${origin}/v1/chat/completions \\
  -H "Authorization: Bearer sk-..." -H "Content-Type: application/json" \\
  -d '${esc(EXAMPLE_BODY)}'</code></pre>
<p>Any OpenAI SDK works: set its base URL to <code>${origin}/v1</code>; clients that start from the Responses API
(<code>client.responses.create</code>, the Vercel AI SDK, the OpenAI Agents SDK) work too. The service's own fields
(<code>theology</code>, <code>profile</code>, <code>bible_id</code>, <code>max_words</code>) sit next to OpenAI's.</p>
</main>
<footer class="foot">Open source; the Bible texts are in the public domain.</footer>`;
  return layout(assets, { title: "Biblical Chat: Bible answers over an OpenAI-compatible API", body, scripts: ["landing.js"], bodyClass: "home" });
}
