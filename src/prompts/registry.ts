import type { Canon } from "../scripture/books.js";
import { cannedLanguages, type CannedKind, type Language, type PromptDoc } from "./types.js";

/** One entry of the versions a response was built from, for the log line. */
export interface PromptVersion {
  /** "guardrails", "theology:<slug>" or "profile:<slug>". */
  part: string;
  version: string;
  hash: string;
}

export interface PromptRegistry {
  dir: string;
  guardrails: PromptDoc;
  preflight: PromptDoc;
  /** Listing order: the default first, then by front-matter `order`, then by name. */
  theologies: PromptDoc[];
  profiles: PromptDoc[];
  partials: PromptDoc[];
  cannedReplies: PromptDoc[];
  defaultTheology: PromptDoc;
  defaultProfile: PromptDoc;
  theology(slug: string): PromptDoc | undefined;
  profile(slug: string): PromptDoc | undefined;
  /** The reply in lang, or in English when that language has none. */
  canned(kind: CannedKind, lang: string): PromptDoc;
  /** The X-Prompt-Versions header value: `guardrails@<hash>,theology:<slug>@<hash>,profile:<slug>@<hash>`. */
  versions(theology: string, profile: string): string;
  versionEntries(theology: string, profile: string): PromptVersion[];
}

export function buildRegistry(dir: string, docs: PromptDoc[]): PromptRegistry {
  const ofKind = (kind: PromptDoc["kind"]) => docs.filter((d) => d.kind === kind);
  const one = (kind: PromptDoc["kind"]) => {
    const doc = ofKind(kind)[0];
    if (!doc) throw new Error(`prompt registry: no ${kind} document`);
    return doc;
  };
  const theologies = ofKind("theology").sort(listingOrder);
  const profiles = ofKind("profile").sort(listingOrder);
  const bySlug = (list: PromptDoc[]) => new Map(list.map((d) => [d.slug, d]));
  const theologyMap = bySlug(theologies);
  const profileMap = bySlug(profiles);
  const cannedReplies = ofKind("canned");
  const cannedMap = bySlug(cannedReplies);
  const guardrails = one("guardrails");

  const versionEntries = (theology: string, profile: string): PromptVersion[] => {
    const t = theologyMap.get(theology);
    const p = profileMap.get(profile);
    if (!t) throw new Error(`prompt registry: unknown theology "${theology}"`);
    if (!p) throw new Error(`prompt registry: unknown profile "${profile}"`);
    return [
      { part: "guardrails", version: guardrails.version, hash: guardrails.hash },
      { part: `theology:${t.slug}`, version: t.version, hash: t.hash },
      { part: `profile:${p.slug}`, version: p.version, hash: p.hash },
    ];
  };

  return {
    dir,
    guardrails,
    preflight: one("preflight"),
    theologies,
    profiles,
    partials: ofKind("partial"),
    cannedReplies,
    defaultTheology: theologies[0]!,
    defaultProfile: profiles[0]!,
    theology: (slug) => theologyMap.get(slug),
    profile: (slug) => profileMap.get(slug),
    canned(kind, lang) {
      const known = cannedLanguages(kind).includes(lang) ? lang : "en";
      const doc = cannedMap.get(`${kind}.${known}`) ?? cannedMap.get(`${kind}.en`);
      if (!doc) throw new Error(`prompt registry: no canned reply ${kind}`);
      return doc;
    },
    versionEntries,
    versions: (theology, profile) => versionEntries(theology, profile).map((e) => `${e.part}@${e.hash}`).join(","),
  };
}

function listingOrder(a: PromptDoc, b: PromptDoc): number {
  if (a.isDefault !== b.isDefault) return a.isDefault ? -1 : 1;
  const ao = a.order ?? Number.POSITIVE_INFINITY;
  const bo = b.order ?? Number.POSITIVE_INFINITY;
  if (ao !== bo) return ao < bo ? -1 : 1;
  return a.name.localeCompare(b.name, "en") || a.slug.localeCompare(b.slug, "en");
}

export interface TheologyListing {
  slug: string;
  name: string;
  description: string;
  is_default: boolean;
}

export interface ProfileListing extends TheologyListing {
  experience_level: number;
}

/** A theology's or profile's name and description in lang (English when the file has none in it). */
export function localizedLabel(doc: PromptDoc, lang: Language = "en"): { name: string; description: string } {
  return doc.localized?.[lang] ?? { name: doc.name, description: doc.description };
}

/** Exactly the fields GET /v1/theologies lists, in listing order, named in lang. */
export function listTheologies(registry: PromptRegistry, lang: Language = "en"): TheologyListing[] {
  return registry.theologies.map((d) => ({ slug: d.slug, ...localizedLabel(d, lang), is_default: d.isDefault }));
}

/** Exactly the fields GET /v1/profiles lists, in listing order, named in lang. */
export function listProfiles(registry: PromptRegistry, lang: Language = "en"): ProfileListing[] {
  return registry.profiles.map((d) => ({
    slug: d.slug,
    ...localizedLabel(d, lang),
    experience_level: d.experienceLevel ?? 0,
    is_default: d.isDefault,
  }));
}

/**
 * The canon of a theology's Bible ("protestant" for an unknown slug or a theology without `canon:`):
 * what the agent's tools read to decide whether the deuterocanon belongs in a search.
 */
export function theologyCanon(registry: Pick<PromptRegistry, "theology">, slug: string): Canon {
  return registry.theology(slug)?.canon ?? "protestant";
}
