import type { MessageKey, TransferAction, TransferStatus } from '@depot/contracts';
import { covers, definePolicy, rule, stateRefusal, storeScoped } from './policy.ts';

/** What the rules read of a transfer: its row, its list entry and its detail all carry it. */
export interface TransferFacts {
  number: string;
  status: string;
  from_store_id: number;
  to_store_id: number;
}

/** "Transfer TR-2026-000001 is received: it cannot be sent." */
const transferState = (transfer: TransferFacts, action: MessageKey) => stateRefusal('transfer.state', transfer, action);

const is = (transfer: TransferFacts, ...statuses: TransferStatus[]) => (statuses as string[]).includes(transfer.status);

/**
 * Stock transfers. A transfer is the business of both its stores: seen by those who cover either.
 * The sending store's people write it, send it, and cancel it (a sent transfer's stock goes back to
 * them); the receiving store's people receive it. Every step needs stocks.update (creating one,
 * stocks.create).
 */
export const transferPolicy = definePolicy<TransferFacts, TransferAction>({
  visible: (actor, transfer) => covers(actor, transfer.from_store_id) || covers(actor, transfer.to_store_id),
  actions: {
    update: (actor, transfer) =>
      rule(actor)
        .permission('stocks.update')
        .store(transfer.from_store_id)
        .state(is(transfer, 'draft'), transferState(transfer, 'action.changed'))
        .done(),
    send: (actor, transfer) =>
      rule(actor)
        .permission('stocks.update')
        .store(transfer.from_store_id)
        .state(is(transfer, 'draft'), transferState(transfer, 'action.sent'))
        .done(),
    receive: (actor, transfer) =>
      rule(actor)
        .permission('stocks.update')
        .store(transfer.to_store_id)
        .state(is(transfer, 'sent'), transferState(transfer, 'action.received'))
        .done(),
    cancel: (actor, transfer) =>
      rule(actor)
        .permission('stocks.update')
        .store(transfer.from_store_id)
        .state(is(transfer, 'draft', 'sent'), transferState(transfer, 'action.cancelled'))
        .done(),
  },
});

/** The transfers a list shows: those from or to the actor's stores. */
export const transferScope = storeScoped('stock_transfers.from_store_id', 'stock_transfers.to_store_id');
