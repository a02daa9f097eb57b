// Idempotency keys for money-moving calls (a loyalty purchase, a bet): the server answers a
// repeated id with what the first call did, so a retry after a lost answer moves nothing twice.

/** A fresh id for one attempt. */
export function newRequestId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/**
 * Request ids kept by what each request asks (everything but its id), until it succeeds.
 * Sending the same request again after an answer was lost reuses its id, so the server answers
 * with what the first one did instead of doing it twice; once it succeeded its id is dropped, so
 * the same request made again on purpose is a new one.
 */
export class PendingRequestIds {
  private readonly ids = new Map<string, string>();

  /** The id `content` was sent with before, or a new one. */
  idFor(content: unknown, newId: () => string = newRequestId): string {
    const key = JSON.stringify(content);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = newId();
      this.ids.set(key, id);
    }
    return id;
  }

  /** `content` succeeded: the next identical request is a new one. */
  done(content: unknown): void {
    this.ids.delete(JSON.stringify(content));
  }
}
