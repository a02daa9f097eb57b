import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { DialogHost } from '@/components/dialogs/dialog-host';
import { dialogs } from '@/lib/dialogs/dialog-stack';

/** Renders only the dialog host (inside a router, as content popups link), at `/`. */
export function renderDialogs() {
  const router = createMemoryRouter([{ path: '*', element: <DialogHost /> }], { initialEntries: ['/'] });
  return render(<RouterProvider router={router} />);
}

/** The names of the open dialogs (bottom first) and of the queued ones. */
export const dialogNames = () => ({
  open: dialogs.store.get().open.map((dialog) => dialog.name),
  queued: dialogs.store.get().queued.map((dialog) => dialog.name),
});
