import { renderAnswer } from "./lab-render.js";
import { sseData } from "./lab-sse.js";

const $ = (sel, root = document) => root.querySelector(sel);
const form = $("#lab");
const askButton = $("#ask");
const stopButton = $("#stop");
const labError = $("#lab-error");
const keyInput = $("#key");
const keyError = $("#key-error");
let running;
// PUBLIC_BASE_URL, when the service has one: its absolute reader links are links too.
const readerBase = document.querySelector("main.lab")?.dataset.readerBase ?? "";

async function getJson(path) {
  const res = await fetch(path, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return res.json();
}

function fill(select, items, valueKey, labelKey) {
  select.replaceChildren(
    ...items.map((item) => {
      const option = document.createElement("option");
      option.value = item[valueKey];
      option.textContent = item[labelKey];
      option.selected = Boolean(item.is_default);
      return option;
    }),
  );
}

async function loadOptions() {
  try {
    const [{ theologies }, { profiles }, { translations }] = await Promise.all([
      getJson("/v1/theologies"),
      getJson("/v1/profiles"),
      getJson("/v1/translations"),
    ]);
    for (const col of document.querySelectorAll(".column")) {
      fill($('[data-field="theology"]', col), theologies, "slug", "name");
      fill($('[data-field="profile"]', col), profiles, "slug", "name");
      fill($('[data-field="bible_id"]', col), translations, "id", "name");
    }
    document.body.dataset.ready = "true";
  } catch (err) {
    labError.textContent = `Could not load the options: ${err.message}`;
  }
}

function settings(col) {
  const field = (name) => $(`[data-field="${name}"]`, col);
  return {
    theology: field("theology").value,
    profile: field("profile").value,
    bible_id: field("bible_id").value,
    max_words: Number(field("max_words").value) || 300,
    skip_preflight: field("skip_preflight").checked,
    convert_scripture_links: field("links").checked,
  };
}

/** Says, next to the key field, what is wrong with the key (empty clears it). */
function keyProblem(message) {
  keyError.textContent = message;
  if (message) keyInput.setAttribute("aria-invalid", "true");
  else keyInput.removeAttribute("aria-invalid");
}

function describeError(status, body) {
  const e = body && body.error;
  if (e && typeof e === "object") return `${status ? `${status} · ` : ""}${e.code ?? e.type ?? "error"}: ${e.message ?? ""}`;
  return `${status ? `${status} · ` : ""}unexpected response`;
}

async function runColumn(col, key, question, signal) {
  const out = $(".output", col);
  const status = $(".status", col);
  const versions = $(".versions", col);
  const config = settings(col);
  out.replaceChildren();
  versions.textContent = "";
  status.className = "status";
  status.textContent = "Waiting for the answer…";
  col.dataset.state = "running";

  const headers = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  let text = "";
  let finish = "";
  try {
    const res = await fetch("/v1/chat/completions", {
      method: "POST",
      headers,
      body: JSON.stringify({ messages: [{ role: "user", content: question }], stream: true, ...config }),
      signal,
    });
    const promptVersions = res.headers.get("x-prompt-versions");
    if (promptVersions) versions.textContent = `Prompt versions: ${promptVersions}`;
    if (!res.ok || !res.body) {
      const body = await res.json().catch(() => undefined);
      // A refused key is the key field's problem: say so there, where it can be fixed, as well as in the column.
      if (res.status === 401) keyProblem(`The service refused this key: ${body?.error?.message ?? "check it and try again"}`);
      throw Object.assign(new Error(describeError(res.status, body)), { shown: true });
    }
    for await (const data of sseData(res.body)) {
      if (data === "[DONE]") break;
      const chunk = JSON.parse(data);
      if (chunk.error) throw Object.assign(new Error(describeError(0, chunk)), { shown: true });
      const choice = chunk.choices && chunk.choices[0];
      if (!choice) continue;
      if (choice.delta && typeof choice.delta.content === "string") {
        text += choice.delta.content;
        out.replaceChildren(renderAnswer(document, text, readerBase));
        status.textContent = "Streaming…";
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    status.textContent =
      finish === "length" ? "Done (cut at the word limit)." : finish === "content_filter" ? "Done (the model provider's content filter stopped the answer)." : text ? "Done." : "Done (empty answer).";
    col.dataset.state = "done";
  } catch (err) {
    status.className = "status error";
    status.textContent = signal.aborted ? "Stopped." : err.shown ? err.message : `Request failed: ${err.message}`;
    col.dataset.state = "error";
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const key = keyInput.value.trim();
  const question = $("#question").value.trim();
  labError.textContent = "";
  keyProblem("");
  // Every chat request needs the caller's provider key: without one, say so by the field and send nothing.
  if (!key) {
    keyProblem("Paste your provider key first (for example sk-…). It is sent only to this service, with each question.");
    keyInput.focus();
    return;
  }
  if (!question) {
    labError.textContent = "Write a question first.";
    $("#question").focus();
    return;
  }
  running?.abort();
  running = new AbortController();
  askButton.disabled = true;
  stopButton.disabled = false;
  // The answers (and any error) are what the person now waits for: bring them into view.
  $(".answer").scrollIntoView({ block: "nearest", behavior: "instant" });
  try {
    await Promise.all([...document.querySelectorAll(".column")].map((col) => runColumn(col, key, question, running.signal)));
  } finally {
    askButton.disabled = false;
    stopButton.disabled = true;
  }
});

stopButton.addEventListener("click", () => running?.abort());
keyInput.addEventListener("input", () => keyProblem(""));

loadOptions();
