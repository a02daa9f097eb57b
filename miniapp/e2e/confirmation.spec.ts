import { expect, test } from './fixtures';
import { registerThroughApi, shoot, uniqueEmail } from './support';

// A contact's confirmation e-mail carries a link: opened from the dev mailbox in a browser that
// is not signed in, it confirms the contact and lands on /confirmation/success; used again, it
// says so (in French under /fr).

interface Mail {
  body: string;
}

interface Profile {
  contacts?: { contact: string; is_confirmed: boolean }[];
}

for (const width of [360, 1280]) {
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test('the link from the mailbox confirms the contact once', async ({ page, browser }, info) => {
      const email = uniqueEmail('confirm');
      await registerThroughApi(page.request, email);
      // Registration sends the e-mail's confirmation code, with its link.
      const mails = await (async () => {
        const mailbox = await page.request.get(`/dev/mailbox?to=${encodeURIComponent(email)}`);
        return (await mailbox.json()) as Mail[];
      })();
      const link = /https?:\/\/\S+\/confirmation\?\S+/.exec(mails[0]?.body ?? '')?.[0];
      expect(link, mails[0]?.body).toBeDefined();
      const target = new URL(link ?? '');

      // Another device: a fresh browser context with no session.
      const other = await browser.newContext({ viewport: { width, height: 800 } });
      const phone = await other.newPage();
      await phone.goto(`${target.pathname}${target.search}`);
      await expect(phone).toHaveURL(/\/confirmation\/success$/);
      await expect(phone.getByTestId('confirmation-success')).toContainText('Your contact is confirmed.');
      await shoot(phone, info, `confirmation-success-at-${String(width)}`);
      const withContacts = await page.request.get('/api/account.getprofileinfo?locale=en&v=2.34&fields=contacts');
      const contacts = ((await withContacts.json()) as { data: Profile }).data.contacts ?? [];
      expect(contacts.find((c) => c.contact === email)?.is_confirmed).toBe(true);

      await phone.goto(`/fr${target.pathname}${target.search}`);
      await expect(phone.getByTestId('confirmation-failed')).toContainText('La confirmation n’a pas abouti');
      await expect(phone.getByRole('link', { name: 'Aller à mon profil' })).toBeVisible();
      await other.close();
    });
  });
}
