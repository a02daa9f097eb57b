// Events for the tag manager (SPEC §9: a fixed list of names such as login, sign_up, make_deposit).

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

export function trackEvent(event: string, data: Record<string, unknown> = {}): void {
  window.dataLayer ??= [];
  window.dataLayer.push({ event, ...data });
}
