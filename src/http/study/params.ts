/** Query and path values of the study endpoints, each bad one a 400 in the error envelope. */
import { invalidParameter, invalidRequest } from "../../errors.js";

type Raw = Record<string, unknown>;

export function single(raw: Raw, name: string): string | undefined {
  const v = raw[name];
  if (Array.isArray(v)) throw invalidParameter(`'${name}' was given more than once.`, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalidParameter(`'${name}' must be a string.`, name);
  const trimmed = v.trim();
  return trimmed === "" ? undefined : trimmed;
}

export function required(raw: Raw, name: string, example: string): string {
  const v = single(raw, name);
  if (v === undefined) throw invalidRequest(`'${name}' is required, e.g. ${example}.`, name);
  return v;
}

export function flag(raw: Raw, name: string, fallback: boolean): boolean {
  const v = single(raw, name)?.toLowerCase();
  if (v === undefined) return fallback;
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw invalidParameter(`'${name}' must be true or false.`, name);
}

export function integer(raw: Raw, name: string, fallback: number, min: number, max: number): number {
  const v = single(raw, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw invalidParameter(`'${name}' must be an integer from ${min} to ${max}.`, name);
  return Number(v);
}

/** "16" or "16-18" -> [16, 18]. */
export function verseRange(text: string, name: string): [number, number] {
  const m = /^(\d{1,3})(?:\s*-\s*(\d{1,3}))?$/.exec(text);
  const from = Number(m?.[1]);
  const to = m?.[2] === undefined ? from : Number(m[2]);
  if (m === null || from < 1 || to < from) throw invalidParameter(`'${name}' must be a verse number or range such as 16 or 16-18.`, name);
  return [from, to];
}
