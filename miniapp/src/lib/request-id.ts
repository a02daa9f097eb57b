// Idempotency keys for money-moving calls (a loyalty purchase, a bet): the server answers a
// repeated id with what the first call did, so a retry after a lost answer moves nothing twice.

/** A fresh id for one attempt. */
export function newRequestId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
