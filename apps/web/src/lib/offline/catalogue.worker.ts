import { buffersOf, seedCatalogue } from './localSeed.ts';
import { buildSnapshot } from './localSnapshot.ts';

/**
 * The till's catalogue work off the main thread, asked with the database's name: with the bytes
 * of the server's snapshot, a first sync's bulk write (localSeed.ts); else the snapshot rebuilt
 * from the products table (localSnapshot.ts). Answers the snapshot (its arrays moved, not
 * copied): a first sync's as soon as it is built (`shown`), then once written (`made`: null).
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<{ id: number; db: string; bytes?: ArrayBuffer }>) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
};

scope.onmessage = async (event) => {
  const { id, db, bytes } = event.data;
  try {
    if (bytes) {
      // the snapshot to the page as soon as it is built (a copy made here, its arrays moved), then written
      await seedCatalogue(db, bytes, (made) => {
        const copy = structuredClone(made);
        scope.postMessage({ id, shown: copy }, buffersOf(copy));
      });
      scope.postMessage({ id, made: null });
      return;
    }
    const made = await buildSnapshot(db);
    scope.postMessage({ id, made }, buffersOf(made));
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
