import { buildSnapshot } from './localSnapshot.ts';

/**
 * Builds the till's catalogue snapshot off the main thread (localSnapshot.ts): asked with the
 * database's name, it reads the products table, builds the index and columns, keeps them, and
 * answers them.
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<{ id: number; db: string }>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event) => {
  const { id, db } = event.data;
  try {
    const [products, stock] = await buildSnapshot(db);
    scope.postMessage({ id, products, stock });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
