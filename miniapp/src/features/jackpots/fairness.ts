import { useQuery } from '@tanstack/react-query';
import type { JackpotWin } from './api/get-jackpot-winners';

// A hidden trigger is provably fair: before a cycle the server publishes sha256("{trigger}:{salt}")
// (the trigger in minor units), and reveals both after the drop, so anyone can recompute it.

export type DropCheck = 'verified' | 'mismatch';

/** The text whose SHA-256 the server published. */
export function commitment(trigger: number, salt: string): string {
  return `${String(trigger)}:${salt}`;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function checkDrop(trigger: number, salt: string, hash: string): Promise<DropCheck> {
  return (await sha256Hex(commitment(trigger, salt))) === hash.trim().toLowerCase() ? 'verified' : 'mismatch';
}

/** The browser's own check of a revealed drop; nothing where there is nothing to check or no WebCrypto. */
export function useDropCheck(win: JackpotWin) {
  const { trigger, salt, trigger_hash: hash } = win;
  const checkable = trigger !== null && salt !== null && hash !== null && 'subtle' in crypto;
  return useQuery({
    queryKey: ['jackpots', 'check', trigger, salt, hash],
    queryFn: () => checkDrop(trigger ?? 0, salt ?? '', hash ?? ''),
    enabled: checkable,
    staleTime: Infinity,
  });
}
