// The API's times are Unix seconds; date inputs speak `YYYY-MM-DD` (UTC days, like the reports).

/** `2026-11-26` → the Unix second the UTC day starts (or, with `end`, its last second); null when empty. */
export function dayToSeconds(day: string, end = false): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const start = Date.parse(`${day}T00:00:00Z`) / 1000;
  if (Number.isNaN(start)) return null;
  return end ? start + 86_399 : start;
}

/** The UTC day of `date` as `YYYY-MM-DD`. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
