// The reader's study tools, loaded only when one is asked for: the original words behind the text (a
// gloss on tap, hover or focus, with a link to the lexicon entry), the translation's notes, and a
// commentary beside the chapter. Everything comes from the service's own key-less API.

const bar = document.querySelector(".study");
const main = document.getElementById("text");
const status = document.querySelector(".study-status");
const { ref, bible, book, chapter, lang } = bar.dataset;
const es = lang === "es";
const T = es
  ? { loading: "Cargando…", failed: "No se pudo cargar", notes: "Notas", none: "Este capítulo no tiene notas.", entry: "Entrada del léxico", close: "Cerrar", covers: "Cubre" }
  : { loading: "Loading…", failed: "Could not load", notes: "Notes", none: "This chapter has no notes.", entry: "Lexicon entry", close: "Close", covers: "Covers" };

const say = (text) => {
  status.textContent = text;
};

async function api(path) {
  const res = await fetch(path, { headers: { accept: "application/json" } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
  return body;
}

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
};

// --- Mapping the verse text onto the page --------------------------------------------------------------
// A verse may be set over several spans (poetic lines); its words and notes are offsets into the plain
// verse text, which the spans hold in order (the verse number and the no-break space after it aside).

function textNodes(node, out = []) {
  for (const c of node.childNodes) {
    if (c.nodeType === Node.TEXT_NODE) out.push(c);
    else if (c.nodeType === Node.ELEMENT_NODE && !c.matches(".vn, .note-ref, .gloss")) textNodes(c, out);
  }
  return out;
}

/** For each text node of verse n: the verse-text offset of each of its characters (-1 for none). */
function mapVerse(n, text) {
  const nodes = [...main.querySelectorAll(`#v${n}, [data-v="${n}"]`)].flatMap((s) => textNodes(s));
  let p = 0;
  return nodes.map((node) => {
    const s = node.data;
    const map = new Int32Array(s.length);
    for (let i = 0; i < s.length; i++) {
      let q = p;
      while (q < text.length && text[q] !== s[i] && /\s/.test(text[q])) q++;
      if (q < text.length && text[q] === s[i]) {
        map[i] = q;
        p = q + 1;
      } else map[i] = -1;
    }
    return { node, map };
  });
}

// --- Original words -------------------------------------------------------------------------------------

let wordsLoaded;
const lexicon = new Map();
let gloss;
let glossFor;
// Set while Escape hands focus back to the word, so that focusing it does not reopen its gloss.
let quiet = false;

function wrapWords(verse) {
  if (!verse.words) return;
  const owner = new Int32Array(verse.text.length).fill(-1);
  let at = 0;
  verse.words.forEach((w, i) => {
    if (w.strong.length > 0) owner.fill(i, at, at + w.text.length);
    at += w.text.length;
  });
  for (const { node, map } of mapVerse(verse.verse, verse.text)) {
    const frag = document.createDocumentFragment();
    let run = "";
    let runOwner = -2;
    const flush = () => {
      if (run === "") return;
      if (runOwner >= 0) {
        const w = verse.words[runOwner];
        frag.append(el("span", { class: "w", "data-s": w.strong.join(" "), tabindex: "-1" }, run));
      } else frag.append(run);
      run = "";
    };
    for (let i = 0; i < node.data.length; i++) {
      const o = map[i] >= 0 ? owner[map[i]] : -1;
      if (o !== runOwner) {
        flush();
        runOwner = o;
      }
      run += node.data[i];
    }
    flush();
    node.replaceWith(frag);
  }
}

const shortText = (s, max = 160) => (s.length > max ? `${s.slice(0, max).replace(/\s+\S*$/, "")}…` : s);

async function entry(id) {
  if (!lexicon.has(id)) lexicon.set(id, api(`/v1/lexicon/${encodeURIComponent(id)}`));
  return lexicon.get(id);
}

function hideGloss() {
  if (gloss) gloss.hidden = true;
  glossFor = undefined;
}

async function showGloss(word) {
  if (glossFor === word && !gloss.hidden) return;
  glossFor = word;
  const ids = word.dataset.s.split(" ");
  gloss ??= el("div", { class: "gloss", role: "dialog", "aria-label": "Original word", id: "gloss" });
  gloss.replaceChildren(el("p", { class: "gloss-loading" }, T.loading));
  gloss.hidden = false;
  word.after(gloss);
  place(word);
  let entries;
  try {
    entries = await Promise.all(ids.map(entry));
  } catch (err) {
    gloss.replaceChildren(el("p", {}, `${T.failed}: ${err.message}`));
    return;
  }
  if (glossFor !== word) return;
  const parts = entries.map((e) =>
    el(
      "div",
      { class: "gloss-entry" },
      el(
        "p",
        { class: "gloss-head" },
        el("span", { class: "lemma", lang: e.language === "greek" ? "grc" : "hbo" }, e.lemma),
        " ",
        el("span", { class: "translit" }, e.transliteration),
        " ",
        el("span", { class: "sid" }, e.id),
      ),
      el("p", { class: "gloss-def" }, shortText(e.definition || e.kjv_usage || "")),
      el("a", { href: `/lexicon/${encodeURIComponent(e.id)}`, class: "gloss-link" }, `${T.entry} ${e.id}`),
    ),
  );
  gloss.replaceChildren(el("p", { class: "gloss-word" }, `“${word.textContent}”`), ...parts);
  place(word);
}

function place(word) {
  const r = word.getBoundingClientRect();
  const m = main.getBoundingClientRect();
  const width = Math.min(320, m.width);
  let left = r.left - m.left;
  left = Math.max(0, Math.min(left, m.width - width));
  gloss.style.width = `${width}px`;
  gloss.style.left = `${left}px`;
  gloss.style.top = `${r.bottom - m.top + 6}px`;
}

function rovingFocus() {
  const words = [...main.querySelectorAll(".w")];
  if (words[0]) words[0].tabIndex = 0;
  main.addEventListener("keydown", (e) => {
    const w = e.target.closest?.(".w");
    if (!w || !document.body.classList.contains("words-on")) return;
    if (e.key === "Escape") return hideGloss();
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (!step) return;
    e.preventDefault();
    const i = words.indexOf(w);
    const next = words[Math.max(0, Math.min(words.length - 1, i + step))];
    w.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  main.addEventListener("focusin", (e) => {
    const w = e.target.closest?.(".w");
    if (w && !quiet && document.body.classList.contains("words-on")) {
      for (const other of words) if (other !== w) other.tabIndex = -1;
      w.tabIndex = 0;
      showGloss(w);
    }
  });
  main.addEventListener("click", (e) => {
    const w = e.target.closest?.(".w");
    if (w && document.body.classList.contains("words-on")) showGloss(w);
  });
  main.addEventListener("mouseover", (e) => {
    const w = e.target.closest?.(".w");
    if (w && document.body.classList.contains("words-on")) showGloss(w);
  });
  document.addEventListener("click", (e) => {
    if (!e.target.closest?.(".w, .gloss")) hideGloss();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && gloss && !gloss.hidden) {
      const back = glossFor;
      const inside = gloss.contains(document.activeElement);
      hideGloss();
      if (inside && back) {
        quiet = true;
        back.focus();
        quiet = false;
      }
    }
  });
}

async function words(on) {
  if (on && !wordsLoaded) {
    wordsLoaded = api(`/v1/passage?ref=${encodeURIComponent(ref)}&bible_id=${bible}&words=true&notes=false`).then((p) => {
      for (const v of p.verses) wrapWords(v);
      rovingFocus();
      return p.words_source;
    });
  }
  const source = on ? await wordsLoaded : undefined;
  document.body.classList.toggle("words-on", on);
  if (!on) hideGloss();
  return source;
}

// --- Notes ----------------------------------------------------------------------------------------------

let notesLoaded;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

function renderNote(n, k, note, label) {
  const body = el("span", { class: "note-text" }, note.text);
  const links = (note.references ?? []).map((r) => el("a", { href: r.url }, r.reference));
  const li = el("li", { id: `note-${n}-${k}`, class: `note ${note.type}` }, el("a", { href: `#noteref-${n}-${k}`, class: "note-back" }, label), " ", body);
  if (links.length > 0 && note.type === "cross-reference") {
    body.replaceChildren();
    links.forEach((a, i) => body.append(...(i ? ["; ", a] : [a])));
  } else if (links.length > 0) {
    li.append(" (", ...links.flatMap((a, i) => (i ? [", ", a] : [a])), ")");
  }
  return li;
}

function markNote(verse, k, note, letter) {
  const marker = el("a", { class: "note-ref", href: `#note-${verse.verse}-${k}`, id: `noteref-${verse.verse}-${k}`, "aria-label": `${T.notes} ${letter}` }, letter);
  const mapped = mapVerse(verse.verse, verse.text);
  for (const { node, map } of mapped) {
    const i = map.findIndex((o) => o >= note.at);
    if (i === -1) continue;
    const after = node.splitText(i);
    after.before(marker);
    return;
  }
  const last = mapped.at(-1);
  if (last) last.node.after(marker);
}

async function notes(on) {
  if (on && !notesLoaded) {
    notesLoaded = api(`/v1/passage?ref=${encodeURIComponent(ref)}&bible_id=${bible}&notes=true`).then((p) => {
      const list = el("ol", { class: "note-list" });
      let count = 0;
      for (const v of p.verses) {
        (v.notes ?? []).forEach((note, k) => {
          const letter = LETTERS[count % LETTERS.length];
          count++;
          markNote(v, k, note, letter);
          list.append(renderNote(v.verse, k, note, `${chapter}:${v.verse} ${letter}`));
        });
      }
      const section = el("section", { class: "notes", "aria-label": T.notes }, el("h2", {}, T.notes), count ? list : el("p", {}, T.none));
      main.append(section);
    });
  }
  if (on) await notesLoaded;
  document.body.classList.toggle("notes-on", on);
}

// --- Commentary -----------------------------------------------------------------------------------------

const commentaries = new Map();

async function commentary(id) {
  const aside = document.querySelector(".commentary");
  if (!id) {
    aside.hidden = true;
    document.body.classList.remove("commentary-on");
    return;
  }
  if (!commentaries.has(id)) commentaries.set(id, api(`/v1/commentary/${encodeURIComponent(id)}/${book}/${chapter}`));
  const c = await commentaries.get(id);
  const hl = main.querySelector("[data-highlight]");
  const hlVerse = hl ? Number(hl.id.slice(1)) : undefined;
  const covers = (verses) => {
    if (!hlVerse || !verses) return false;
    const [a, b = a] = String(verses).split("-").map(Number);
    return hlVerse >= a && hlVerse <= b;
  };
  const sections = c.sections.map((s) =>
    el(
      "section",
      { class: `c-section${covers(s.verses) ? " covers" : ""}` },
      el("h3", {}, s.title ? `${s.reference} · ${s.title}` : s.reference),
      el("p", {}, s.text),
    ),
  );
  const info = c.commentary;
  aside.replaceChildren(
    el("div", { class: "c-head" },
      el("h2", { id: "commentary-title" }, info.name),
      el("button", { type: "button", class: "c-close", "data-commentary": "" }, T.close),
    ),
    el("p", { class: "c-meta" }, `${info.author}, ${info.date}. ${info.tradition}.`),
    ...sections,
  );
  aside.hidden = false;
  document.body.classList.add("commentary-on");
  const target = aside.querySelector(".covers");
  // Beside the text (wide screens) the panel scrolls on its own to the section on the highlighted verse;
  // under the text (phones) the page scrolls to the panel.
  if (window.matchMedia("(min-width: 1100px)").matches) {
    // The panel's title bar stays at its top (sticky): the section's heading goes just below it, not under it.
    const head = aside.querySelector(".c-head");
    aside.scrollTo({ top: target ? target.offsetTop - head.offsetHeight - 8 : 0 });
    hl?.scrollIntoView({ block: "center" });
  } else aside.scrollIntoView({ block: "start" });
  aside.focus({ preventScroll: true });
}

// --- The bar --------------------------------------------------------------------------------------------

export async function handle(button) {
  const tool = button.dataset.tool;
  const pressed = button.getAttribute("aria-pressed") === "true";
  say(T.loading);
  try {
    if (tool === "words") {
      // Where the tags come from stays in view while the words are shown (the WEB's are matched to the KJV's).
      const source = await words(!pressed);
      button.setAttribute("aria-pressed", String(!pressed));
      say(source ?? "");
      return;
    }
    if (tool === "notes") await notes(!pressed);
    else {
      const id = button.dataset.commentary;
      await commentary(id);
      for (const b of document.querySelectorAll("[data-commentary]")) b.setAttribute("aria-pressed", String(!!id && b.dataset.commentary === id));
      const menu = button.closest("details");
      if (menu) menu.open = false;
      say("");
      return;
    }
    button.setAttribute("aria-pressed", String(!pressed));
    say("");
  } catch (err) {
    say(`${T.failed}: ${err.message}`);
  }
}
