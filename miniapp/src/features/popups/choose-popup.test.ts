import { describe, expect, it } from 'vitest';
import { toContentPopups } from '@/features/content';
import { choosePopup } from './choose-popup';

// The demo content's popups, as flattened from the API.
const POPUPS = toContentPopups([
  { id: 1, sysname: 'welcome-bonus', title: 'Welcome', kind: 'popup', size: 'big', audience: 'guest', image: '/uploads/p.svg' },
  { id: 2, sysname: 'fallback', title: 'Not available', kind: 'confirm', size: 'custom', audience: 'all', buttonUrl: null },
  { id: 3, sysname: 'weekend-reload', title: 'Weekend', kind: 'curtain', size: 'full', audience: 'player' },
  { id: 4, sysname: '', title: 'broken' },
  { id: 5, sysname: 'odd', title: 'Odd', kind: 'modal', size: 'huge', audience: 'nobody' },
]);
const fallback = POPUPS.find((popup) => popup.sysname === 'fallback');
const guest = { signedIn: false, preview: false, fallbacks: fallback ? [fallback] : [] };

describe('content popups', () => {
  it('reads kinds, sizes and audiences, with safe defaults for unknown values', () => {
    expect(POPUPS.map((popup) => [popup.sysname, popup.kind, popup.size, popup.audience])).toEqual([
      ['welcome-bonus', 'popup', 'big', 'guest'],
      ['fallback', 'confirm', 'custom', 'all'],
      ['weekend-reload', 'curtain', 'full', 'player'],
      ['odd', 'popup', 'custom', 'all'],
    ]);
    expect(POPUPS[0]?.image).toBe('/uploads/p.svg');
  });

  it('shows a popup to its audience only', () => {
    expect(choosePopup('welcome-bonus', POPUPS, guest)?.sysname).toBe('welcome-bonus');
    expect(choosePopup('WELCOME-BONUS', POPUPS, { ...guest, signedIn: true })).toBeNull();
    expect(choosePopup('weekend-reload', POPUPS, guest)).toBeNull();
    expect(choosePopup('weekend-reload', POPUPS, { ...guest, signedIn: true })?.sysname).toBe('weekend-reload');
  });

  it('#popup-preview shows a campaign popup whoever looks', () => {
    expect(choosePopup('weekend-reload', POPUPS, { ...guest, preview: true })?.sysname).toBe('weekend-reload');
  });

  it('an unknown name shows the configured fallback, or nothing without one', () => {
    expect(choosePopup('no-such', POPUPS, guest)?.sysname).toBe('fallback');
    expect(choosePopup('no-such', POPUPS, { ...guest, fallbacks: [] })).toBeNull();
  });
});
