import type { StockBatch, StockLevel, StockMovement } from '@depot/contracts';
import { type Actor, assertStoreInput, hideCosts, storeScoped } from './policy.ts';

/**
 * Stock: levels, movements, batches, low stock, adjustments and write-offs. Stock is a store's:
 * each list shows the actor's stores only, and a write names a store the actor covers. What the
 * stock is worth (average cost, values) is `costs.view`'s. Transfers are policies/transfers.ts.
 */
export const levelScope = storeScoped('stock_levels.store_id');
export const movementScope = storeScoped('stock_movements.store_id');

/** An adjustment or a write-off happens in a store the actor covers. */
export function authorizeStockWrite(actor: Actor, storeId: number): void {
  assertStoreInput(actor, 'store_id', storeId);
}

export const presentLevel = (actor: Actor, level: StockLevel) =>
  hideCosts(actor, level, ['average_cost_cents', 'value_cents']);
export const presentMovement = (actor: Actor, movement: StockMovement) => hideCosts(actor, movement, ['value_cents']);
export const presentBatch = (actor: Actor, batch: StockBatch) => hideCosts(actor, batch, ['value_cents']);
