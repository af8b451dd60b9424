import { ChromaUniqueError, type ChromaClient, type Collection } from "chromadb";

/**
 * An exclusive claim on some work, made in Chroma itself so that every replica sharing a server agrees
 * on it without any other coordinator. A claim is a collection `<name>-claim-<generation>`:
 * creating a collection is atomic (the second creator gets ChromaUniqueError), so exactly one replica
 * wins each generation. The holder renews a counter in its metadata; a claim whose counter this
 * replica has not seen move for `leaseMs` (by its own clock, so clock skew between hosts does not
 * matter) is dead, and the next generation may be claimed. Nobody deletes a live claim to take it over:
 * two replicas that both saw the same dead claim race for the same next generation, and one loses.
 */
export interface ClaimOptions {
  /** Who holds it, for logs and operators (host and pid): never used for the decision. */
  owner: string;
  /** A claim whose counter does not move for this long is dead. */
  leaseMs: number;
  /** How often the holder renews; a third of the lease by default. */
  renewMs?: number;
  now?: () => number;
}

export interface HeldClaim {
  readonly generation: number;
  /** False once a newer generation exists (this holder was presumed dead) or the claim was deleted. */
  stillHeld(): Promise<boolean>;
  /** Stops renewing (the claim collections are cleared by `ClaimBoard.clear` once the work is done). */
  stop(): void;
}

export interface ClaimState {
  generation: number;
  owner: string;
  beat: number;
}

const SUFFIX = "-claim-";

/** Every collection of the database, page by page (listCollections answers 100 at most by default). */
export async function listAllCollections(client: ChromaClient): Promise<Collection[]> {
  const out: Collection[] = [];
  const limit = 100;
  for (let offset = 0; ; offset += limit) {
    const page = await client.listCollections({ limit, offset });
    out.push(...page);
    if (page.length < limit) return out;
  }
}

export function isClaimCollection(name: string): boolean {
  return /-claim-\d+$/.test(name);
}

export class ClaimBoard {
  private seen: { generation: number; beat: number; at: number } | undefined;
  private readonly now: () => number;

  constructor(
    private readonly client: ChromaClient,
    readonly name: string,
    private readonly options: ClaimOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  private claimName(generation: number) {
    return `${this.name}${SUFFIX}${generation}`;
  }

  /** The newest claim, if any. */
  async current(): Promise<ClaimState | undefined> {
    const prefix = `${this.name}${SUFFIX}`;
    let best: ClaimState | undefined;
    for (const c of await listAllCollections(this.client)) {
      if (!c.name.startsWith(prefix)) continue;
      const generation = Number(c.name.slice(prefix.length));
      if (!Number.isInteger(generation) || (best && best.generation >= generation)) continue;
      best = { generation, owner: String(c.metadata?.owner ?? "?"), beat: Number(c.metadata?.beat ?? 0) };
    }
    return best;
  }

  /**
   * Claims the work when nobody holds a live claim on it; undefined when someone does (or won the race
   * for the same generation). A replica sees a claim as dead only after watching it for a whole lease.
   */
  async tryClaim(): Promise<HeldClaim | undefined> {
    const cur = await this.current();
    const t = this.now();
    if (cur) {
      if (!this.seen || this.seen.generation !== cur.generation || this.seen.beat !== cur.beat) {
        this.seen = { generation: cur.generation, beat: cur.beat, at: t };
        return undefined;
      }
      if (t - this.seen.at < this.options.leaseMs) return undefined;
    }
    const generation = (cur?.generation ?? 0) + 1;
    let collection: Collection;
    try {
      collection = await this.client.createCollection({
        name: this.claimName(generation),
        embeddingFunction: null,
        metadata: { owner: this.options.owner, beat: 0 },
      });
    } catch (err) {
      if (err instanceof ChromaUniqueError) return undefined;
      throw err;
    }
    return this.hold(collection, generation);
  }

  private hold(collection: Collection, generation: number): HeldClaim {
    let beat = 0;
    let renewing = false;
    // modify() replaces the whole metadata: owner is written again every time.
    const timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      beat += 1;
      collection
        .modify({ metadata: { owner: this.options.owner, beat } })
        .catch(() => undefined)
        .finally(() => (renewing = false));
    }, this.options.renewMs ?? Math.max(50, Math.floor(this.options.leaseMs / 3)));
    timer.unref();
    return {
      generation,
      stillHeld: async () => (await this.current())?.generation === generation,
      stop: () => clearInterval(timer),
    };
  }

  /** Removes every claim on this work: only once the work is done, when claims mean nothing any more. */
  async clear(): Promise<void> {
    const prefix = `${this.name}${SUFFIX}`;
    for (const c of await listAllCollections(this.client)) {
      if (!c.name.startsWith(prefix)) continue;
      await this.client.deleteCollection({ name: c.name }).catch(() => undefined);
    }
  }
}
