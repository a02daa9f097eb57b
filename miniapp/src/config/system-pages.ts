import { paths } from './paths';

// SPEC §2 "System pages": each has an icon, a header, a description and maybe a button.
// Texts: systemPages.{type}.header|description|button; payment pages: {type}.title|info|button.

export type SystemPageType = 'maintenance' | 'notFound' | 'forbidden' | 'userBlocked' | 'unsubscribe' | 'slotError';

export type PaymentPageType = 'paycancel' | 'payfail' | 'paymobile' | 'paynewwindow' | 'paypending' | 'paysuccess';

/** Where a system page's button leads; `null`: no button. `backUrl` prefers a stored back address. */
export interface SystemPageDefinition {
  icon: 'wrench' | 'compass' | 'lock' | 'ban' | 'mail' | 'slot' | 'check' | 'cross' | 'clock' | 'phone' | 'window';
  button: string | null;
  layout: 'default' | 'empty';
  /** Use a stored backUrl (SPEC §2 backUrl) before `button`. */
  prefersBackUrl?: boolean;
}

export const SYSTEM_PAGES: Readonly<Record<SystemPageType, SystemPageDefinition>> = {
  maintenance: { icon: 'wrench', button: null, layout: 'empty' },
  notFound: { icon: 'compass', button: null, layout: 'default' },
  forbidden: { icon: 'lock', button: null, layout: 'empty' },
  userBlocked: { icon: 'ban', button: paths.support, layout: 'default' },
  unsubscribe: { icon: 'mail', button: null, layout: 'default' },
  slotError: { icon: 'slot', button: paths.gamehall, layout: 'default' },
};

export const PAYMENT_PAGES: Readonly<Record<PaymentPageType, SystemPageDefinition>> = {
  paysuccess: { icon: 'check', button: paths.gamehall, layout: 'default', prefersBackUrl: true },
  payfail: { icon: 'cross', button: paths.cashierDeposit, layout: 'default' },
  paycancel: { icon: 'cross', button: paths.cashierDeposit, layout: 'default' },
  paynewwindow: { icon: 'window', button: paths.cashierDeposit, layout: 'default' },
  paypending: { icon: 'clock', button: null, layout: 'default' },
  // SPEC names no button target for the mobile outcome.
  paymobile: { icon: 'phone', button: null, layout: 'default' },
};
