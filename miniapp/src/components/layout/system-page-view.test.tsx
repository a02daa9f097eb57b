import type { ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { PAYMENT_PAGES, SYSTEM_PAGES, type PaymentPageType, type SystemPageType } from '@/config/system-pages';
import { activateLocale } from '@/lib/i18n';
import { PaymentPageView, SystemPageView } from './system-page-view';

afterEach(async () => {
  await activateLocale('en');
});

function show(element: ReactNode) {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: ['/'] });
  render(<RouterProvider router={router} />);
}

describe('system pages (SPEC §2)', () => {
  it.each([
    ['maintenance', 'We’ll be right back', null],
    ['notFound', 'Page not found', null],
    ['forbidden', 'Access denied', null],
    ['userBlocked', 'Your account is blocked', '/support'],
    ['unsubscribe', 'You are unsubscribed', null],
    ['slotError', 'The game could not start', '/gamehall'],
  ] as [SystemPageType, string, string | null][])('%s: "%s", button to %s', (type, header, target) => {
    show(<SystemPageView type={type} />);
    expect(screen.getByRole('heading', { level: 1, name: header })).toBeVisible();
    const page = screen.getByTestId(`system-page-${type}`);
    expect(page.querySelector('svg use')?.getAttribute('href')).toBe(`#icon-${SYSTEM_PAGES[type].icon}`);
    expect(page.querySelector('a')?.getAttribute('href') ?? null).toBe(target);
  });

  it('uses the empty layout for maintenance and forbidden only', () => {
    const empty = Object.entries(SYSTEM_PAGES).filter(([, page]) => page.layout === 'empty').map(([type]) => type);
    expect(empty.sort()).toEqual(['forbidden', 'maintenance']);
  });

  it.each([
    ['paysuccess', 'Payment successful', '/gamehall'],
    ['payfail', 'Payment failed', '/cashier/deposit'],
    ['paycancel', 'Payment cancelled', '/cashier/deposit'],
    ['paynewwindow', 'Payment opened in a new window', '/cashier/deposit'],
    ['paypending', 'Payment pending', null],
    ['paymobile', 'Confirm on your phone', null],
  ] as [PaymentPageType, string, string | null][])('%s: "%s", button to %s', (type, title, target) => {
    show(<PaymentPageView type={type} />);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const page = screen.getByTestId(`payment-page-${type}`);
    expect(page.querySelector('svg use')?.getAttribute('href')).toBe(`#icon-${PAYMENT_PAGES[type].icon}`);
    expect(page.querySelector('a')?.getAttribute('href') ?? null).toBe(target);
  });

  it('speaks French under /fr', async () => {
    await activateLocale('fr');
    show(<SystemPageView type="userBlocked" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Votre compte est bloqué' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Contacter l’assistance' })).toBeVisible();
  });
});
