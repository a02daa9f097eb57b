// The console's page tests: the whole console rendered at an address, and a field typed into by
// its label (the page's fetches are stubbed by each test, `test-fetch.ts`).
import { fireEvent, render, within } from '@testing-library/react';
import { BackofficeApp } from '../app';

/** Renders the console at `path` (`/backoffice/...`). */
export function renderAt(path: string) {
  window.history.pushState({}, '', path);
  return render(<BackofficeApp />);
}

/** Types `value` into the field labelled `label` inside `at`. */
export function type(label: RegExp | string, value: string, at: HTMLElement = document.body) {
  fireEvent.change(within(at).getByLabelText(label), { target: { value } });
}

/** A signed-in operator of `role` holding `permissions`, as the console's session (`/backoffice/api/session`) answers it. */
export function operatorWith(role: string, permissions: string[]) {
  return {
    id: 7,
    email: `${role}@example.com`,
    name: role,
    role,
    permissions,
    locale: 'en',
    disabled: false,
    enrolled: true,
    created_at: 0,
    last_sign_in_at: null,
  };
}
