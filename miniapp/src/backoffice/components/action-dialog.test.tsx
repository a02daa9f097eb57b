import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, HttpError, testDataProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { createI18nProvider } from '../i18n/provider';
import { ActionDialogButton } from './action-dialog';

/** The dialog's own confirm button (the one that opened it has the same name). */
function confirmButton(): HTMLElement {
  const button = screen.getAllByRole('button', { name: 'Approve' }).at(-1);
  if (!button) throw new Error('no Approve button');
  return button;
}

function renderButton(onSubmit: (values: Record<string, unknown>) => Promise<unknown>) {
  return render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider('en')}>
      <ActionDialogButton label="bo.corrections.approve" success="bo.corrections.approved" onSubmit={onSubmit} testId="approve" />
    </AdminContext>,
  );
}

describe('the action dialog', () => {
  it('needs a reason, sends it, and closes', async () => {
    const onSubmit = vi.fn(() => Promise.resolve({ id: 1 }));
    renderButton(onSubmit);
    fireEvent.click(screen.getByTestId('approve'));
    const dialog = await screen.findByRole('dialog', { name: 'Approve' });
    fireEvent.click(confirmButton());
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: 'Checked' } });
    fireEvent.click(confirmButton());
    // The dialog's exit transition: testing-library's wait (5 s under load, src/test/setup.ts).
    await waitFor(() => {
      expect(dialog).not.toBeInTheDocument();
    });
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ reason: 'Checked' }));
  });

  it('sends one request however often the button is pressed while it is on its way', async () => {
    let finish: (value: unknown) => void = () => undefined;
    const onSubmit = vi.fn(() => new Promise((resolve) => (finish = resolve)));
    renderButton(onSubmit);
    fireEvent.click(screen.getByTestId('approve'));
    const dialog = await screen.findByRole('dialog', { name: 'Approve' });
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: 'Checked' } });
    fireEvent.click(confirmButton());
    await waitFor(() => {
      expect(confirmButton()).toBeDisabled();
    });
    fireEvent.click(confirmButton());
    fireEvent.click(confirmButton());
    finish({ id: 1 });
    await waitFor(() => {
      expect(dialog).not.toBeInTheDocument();
    });
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('shows a refusal on its field, and one without a field in the dialog', async () => {
    const onSubmit = vi.fn(() =>
      Promise.reject(
        new HttpError('Refused', 403, {
          type: 'AccessDeniedException',
          error_data: { approver: ['FOUR_EYES'], reason: ['MAX_LENGTH'] },
          errors: { approver: 'bo.codes.FOUR_EYES', reason: 'bo.codes.MAX_LENGTH' },
        }),
      ),
    );
    renderButton(onSubmit);
    fireEvent.click(screen.getByTestId('approve'));
    const dialog = await screen.findByRole('dialog', { name: 'Approve' });
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: 'My own request' } });
    fireEvent.click(confirmButton());
    expect(await screen.findByText('Another operator must approve this')).toBeInTheDocument();
    expect(await screen.findByText('Too long')).toBeInTheDocument();
    expect(dialog).toBeInTheDocument();
  });
});
