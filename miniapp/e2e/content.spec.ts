import { expect, test } from './fixtures';

// Issue 7: what the content service (the demo brand in webapp-server/content/) defines reaches
// the page: menus, footer, texts, auth config, pages, popups, redirects; plus the /hit beacon
// and the social sign-in popup.

test('menu, footer and texts come from the content service, in each language', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  // "Live casino" is the content's title; the built-in default label reads "Live".
  await expect(menu.getByRole('link', { name: 'Live casino' })).toBeVisible();
  const footer = page.getByRole('navigation', { name: 'Site links' });
  await expect(footer.getByRole('heading', { name: 'Help' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/faq');
  await expect(page.getByText('Croupier is a demonstration brand.', { exact: false })).toBeVisible();

  await page.goto('/fr');
  await expect(page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Casino en direct' })).toHaveAttribute(
    'href',
    '/fr/gamehall?category=live',
  );
  await expect(page.getByRole('contentinfo').getByRole('heading', { name: 'À propos' })).toBeVisible();
  await expect(page.getByText('Croupier est une marque de démonstration.', { exact: false })).toBeVisible();
});

test('generic content pages answer /{slug} in both languages; an unknown slug is not found', async ({ page }) => {
  await page.goto('/about');
  const article = page.getByTestId('content-page');
  await expect(article).toHaveAttribute('data-slug', 'about');
  await expect(article.getByRole('heading', { level: 1, name: 'About Croupier' })).toBeVisible();
  await expect(page).toHaveTitle(/About Croupier/);

  // A footer link to another content page stays in the app.
  await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeVisible();

  await page.goto('/fr/ABOUT');
  await expect(page.getByRole('heading', { level: 1, name: 'À propos de Croupier' })).toBeVisible();

  await page.goto('/no-such-page');
  await expect(page.getByTestId('system-page-notFound')).toBeVisible();
});

test('content-defined redirects apply on arrival and on navigation inside the app', async ({ page }) => {
  // On arrival the server answers the redirect itself.
  await page.goto('/casino');
  await expect(page).toHaveURL(/\/gamehall$/);

  // Inside the app: a wildcard carries the rest of the path, the locale prefix and query stay.
  await page.goto('/fr');
  // (Browser-side code as text: the journeys are compiled without the DOM library.)
  await page.evaluate("window.history.pushState({}, '', '/fr/promo/summer?ref=1'); window.dispatchEvent(new PopStateEvent('popstate'))");
  await expect(page).toHaveURL(/\/fr\/promotions\/summer\?ref=1$/);

  // An external target leaves the site.
  await page.route('https://news.croupier.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>news</p>' }));
  await page.evaluate("window.history.pushState({}, '', '/news/launch'); window.dispatchEvent(new PopStateEvent('popstate'))");
  await expect(page).toHaveURL('https://news.croupier.example/launch');
});

test('popup={sysname} opens content popups for their audience; #popup-preview previews; unknown names fall back', async ({ page }) => {
  await page.goto('/?popup=welcome-bonus');
  const welcome = page.getByRole('dialog', { name: 'Welcome to Croupier' });
  await expect(welcome).toBeVisible();
  await expect(welcome.getByTestId('content-popup')).toHaveAttribute('data-kind', 'popup');
  await welcome.getByRole('button', { name: 'Close' }).click();
  await expect(welcome).toBeHidden();

  // A players-only campaign popup is not shown to a guest…
  await page.goto('/?popup=weekend-reload');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // …except as a preview.
  await page.goto('/?popup=weekend-reload#popup-preview');
  const preview = page.getByRole('dialog', { name: 'Weekend reload' });
  await expect(preview.getByText('Campaign preview')).toBeVisible();
  await expect(preview.getByTestId('content-popup')).toHaveAttribute('data-kind', 'curtain');

  await page.goto('/fr?popup=no-such-offer');
  // The fallback is a confirm-kind popup: an alert dialog.
  const fallback = page.getByRole('alertdialog', { name: "Cette offre n'est pas disponible" });
  await expect(fallback).toBeVisible();
  await fallback.getByRole('button', { name: 'OK' }).click();
  await expect(fallback).toBeHidden();
});

test('the /hit beacon goes out 3 s after start with the referer and a rewritten td_ track id', async ({ page }) => {
  const hit = page.waitForRequest((request) => new URL(request.url()).pathname === '/hit', { timeout: 15_000 });
  const started = Date.now();
  await page.goto('/?track_id=td_campaign42&publisher_id=p1', { referer: 'https://ads.example/landing' });
  const query = new URL((await hit).url()).searchParams;
  expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
  expect(query.get('track_id')).toBe('campaign42');
  expect(query.get('referer')).toBe('https://ads.example/landing');
});

test('social sign-in opens /oauth/init in a popup and reports its answer', async ({ page }) => {
  await page.goto('/?show_popup_auth=1');
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  // The popup's own request (its page closes itself as soon as it has answered).
  const popupRequest = page.context().waitForEvent('request', (request) => new URL(request.url()).pathname === '/oauth/init');
  const popupOpened = page.waitForEvent('popup');
  await dialog.getByRole('button', { name: 'Continue with Single sign-on' }).click();
  const popup = await popupOpened;
  expect(popup.url() === 'about:blank' || popup.url().includes('/oauth/init')).toBe(true);
  const url = new URL((await popupRequest).url());
  expect(url.pathname).toBe('/oauth/init');
  expect(url.searchParams.get('service')).toBe('openid');
  expect(url.searchParams.get('type_auth')).toBe('authorization');
  expect(url.searchParams.get('redirect_url')).toBe('/?show_popup_auth=1');
  // This server has no OpenID provider configured: the callback page tells the opener so.
  await expect(page.getByText('Social sign-in failed. Please try again.')).toBeVisible();
});
