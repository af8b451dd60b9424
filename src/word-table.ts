/**
 * A lookup table keyed by text a caller or a model wrote ("constructor", "__proto__", "toString" are
 * words like any other): the table has no prototype, so a key it does not hold is simply undefined,
 * never an inherited Object method. Every table looked up with such text is built with this.
 */
export function wordTable<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
