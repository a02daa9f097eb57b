import { apiPost } from '@/lib/api/client';

// SPEC §5: these calls must answer the value 1, or they count as failed.
function expectOne(value: unknown, method: string): 1 {
  if (value !== 1) throw new Error(`${method} answered ${JSON.stringify(value)} instead of 1`);
  return 1;
}

export async function sendContactConfirmation(contact: string): Promise<1> {
  return expectOne(await apiPost('account.sendconfirmationtocontact', { contact }, { textFields: ['contact'] }), 'account.sendconfirmationtocontact');
}

export async function confirmContact(contact: string, code: string): Promise<1> {
  return expectOne(
    await apiPost('account.confirmContact', { contact, code: code.trim() }, { textFields: ['contact', 'code'] }),
    'account.confirmContact',
  );
}
