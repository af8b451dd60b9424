/**
 * Which verses of a chapter hold each index term, in typed arrays: the highlights look up a few query terms
 * per result chapter, and the table for every chapter of the Bible is kept once built. As a Map of
 * number arrays per chapter it held about 21 KB a chapter (25 MB for the Bible, grown under load); here
 * it is about 3 KB: the terms as ids into one vocabulary shared by all chapters, sorted for a binary
 * search, and the verse lists packed in one array after their offsets.
 */
export class TermVerses {
  private constructor(
    private readonly vocabulary: ReadonlyMap<string, number>,
    /** The chapter's term ids, ascending. */
    private readonly ids: Int32Array,
    /** packed[i]..packed[i + 1]: where term ids[i]'s verses sit in packed (after the ids.length + 1 offsets). */
    private readonly packed: Uint16Array | Uint32Array,
  ) {}

  /** `lists`: term -> its verses, ascending. New terms join `vocabulary` (shared by every chapter's table). */
  static from(lists: ReadonlyMap<string, readonly number[]>, vocabulary: Map<string, number>): TermVerses {
    const entries: [number, readonly number[]][] = [];
    let total = 0;
    for (const [term, verses] of lists) {
      let id = vocabulary.get(term);
      if (id === undefined) vocabulary.set(term, (id = vocabulary.size));
      entries.push([id, verses]);
      total += verses.length;
    }
    entries.sort((a, b) => a[0] - b[0]);
    const n = entries.length;
    const ids = new Int32Array(n);
    const size = n + 1 + total;
    const packed = size <= 0xffff ? new Uint16Array(size) : new Uint32Array(size);
    let at = n + 1;
    entries.forEach(([id, verses], i) => {
      ids[i] = id;
      packed[i] = at;
      for (const v of verses) packed[at++] = v;
    });
    packed[n] = at;
    return new TermVerses(vocabulary, ids, packed);
  }

  /** The verses (ascending) that hold `term`; undefined when none does. */
  get(term: string): Uint16Array | Uint32Array | undefined {
    const id = this.vocabulary.get(term);
    if (id === undefined) return undefined;
    let lo = 0;
    let hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.ids[mid]!;
      if (at === id) return this.packed.subarray(this.packed[mid]!, this.packed[mid + 1]!);
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}
