/**
 * `obj[key]` for a key a client chose (a sort name, a filter, a column): only the object's own
 * entries, never what it inherits (`__proto__`, `constructor`, `toString`…), which would otherwise
 * read as a function or a prototype and reach the database as one.
 */
export function own<V>(obj: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}
