import { buffersOf, seedCatalogue } from './localSeed.ts';
import { buildSnapshot } from './localSnapshot.ts';

/**
 * The till's catalogue work off the main thread, asked with the database's name: with the bytes
 * of the server's snapshot, a first sync's bulk write (localSeed.ts); else the snapshot rebuilt
 * from the products table (localSnapshot.ts). Answers the snapshot kept (its arrays moved, not
 * copied), or null when there was nothing to write.
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<{ id: number; db: string; bytes?: ArrayBuffer }>) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
};

scope.onmessage = async (event) => {
  const { id, db, bytes } = event.data;
  try {
    const made = bytes ? await seedCatalogue(db, bytes) : await buildSnapshot(db);
    scope.postMessage({ id, made }, made ? buffersOf(made) : []);
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
