// How a ledger entry leaves the API (the user's own transactions list and the admin's view of a user).
import type { WalletEntry } from '../../sdk/server';

export const walletEntrySchema = {
  type: 'object',
  required: ['id', 'delta', 'balance_after', 'kind', 'reference', 'reason', 'created_at'],
  properties: {
    id: { type: 'integer' },
    delta: { type: 'integer' },
    balance_after: { type: 'integer' },
    kind: { type: 'string' },
    reference: { type: ['string', 'null'] },
    reason: { type: ['string', 'null'] },
    created_at: { type: 'string' },
  },
} as const;

/** The public shape: no idempotency key (it can name a payment) and no actor id. */
export function presentEntry(entry: WalletEntry) {
  return {
    id: entry.id,
    delta: entry.delta,
    balance_after: entry.balanceAfter,
    kind: entry.kind,
    reference: entry.reference,
    reason: entry.reason,
    created_at: entry.createdAt,
  };
}
