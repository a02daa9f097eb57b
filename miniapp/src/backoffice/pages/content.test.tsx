// The content editor in the whole console (react-admin, its router, the real providers) over a
// stubbed `/backoffice/api/content/...`: the menu entry follows `content.manage`, types → entries
// → a form generated from the type's fields, the body each change sends (only what changed, the
// reason, the locale), local refusals (reason, JSON) before anything is sent, the server's
// refusals on the fields, translations and publication.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt, type } from '../lib/test-render';
import { errorResponse, jsonResponse } from '../lib/test-fetch';
import { formData, fromInput, toInput, type ContentEntry, type ContentField, type ContentType } from '../lib/content';

function operator(role: string, permissions: string[]) {
  return { id: 2, email: `${role}@example.com`, name: role, role, permissions, locale: 'en', disabled: false, enrolled: true, created_at: 0, last_sign_in_at: null };
}

const pages: ContentType = {
  api_id: 'pages',
  singular: 'page',
  kind: 'collection',
  localized: true,
  fields: [
    { name: 'slug', kind: 'string', required: true, unique: true },
    { name: 'title', kind: 'string', required: true, unique: false },
    { name: 'content', kind: 'richtext', required: false, unique: false },
    { name: 'cover', kind: 'media', required: false, unique: false },
    { name: 'seo', kind: 'component', required: false, unique: false },
  ],
};

const common: ContentType = { api_id: 'common', singular: 'common', kind: 'single', localized: true, fields: [] };

const cover = { id: 12, url: '/uploads/page-cover.svg', width: 1200, height: 400, alternativeText: 'Croupier' };

function about(locale: string, exists = true): ContentEntry {
  return {
    id: 1,
    api_id: 'pages',
    locale,
    exists,
    published: exists,
    data: { slug: 'about', title: 'About Croupier', content: '<p>Hi</p>', cover, seo: { metaTitle: null } },
    locales: exists && locale === 'fr' ? ['en', 'fr'] : ['en'],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-02T00:00:00.000Z',
    preview_url: locale === 'fr' ? '/fr/about' : '/about',
  };
}

interface Sent {
  method: string;
  path: string;
  query: string;
  body: unknown;
}

/** Serves the session, the types, the page list and page 1; `refuse` answers the next write. */
function serve(permissions: string[] = ['content.manage'], refuse?: Response): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      sent.push({ method, path: url.pathname, query: url.search, body });
      const path = url.pathname;
      if (path === '/backoffice/api/session') return Promise.resolve(jsonResponse({ operator: operator('content', permissions) }));
      if (method !== 'GET' && refuse) return Promise.resolve(refuse);
      if (path === '/backoffice/api/content/types') return Promise.resolve(jsonResponse([common, pages]));
      if (path === '/backoffice/api/content/pages' && method === 'GET') {
        const locale = (JSON.parse(url.searchParams.get('filter') ?? '{}') as { locale?: string }).locale ?? 'en';
        const row = { id: 1, locale, label: 'About Croupier', translated: locale === 'en', published: true, updated_at: '2026-01-02T00:00:00.000Z', locales: ['en'], preview_url: '/about' };
        return Promise.resolve(jsonResponse([row], 200, { 'Content-Range': 'content 0-0/1' }));
      }
      if (path === '/backoffice/api/content/pages/1') {
        const locale = url.searchParams.get('locale') ?? (body as { locale?: string } | undefined)?.locale ?? 'en';
        return Promise.resolve(jsonResponse(about(locale, locale === 'en' || method === 'PUT')));
      }
      if (path.startsWith('/backoffice/api/content/pages/1/')) return Promise.resolve(jsonResponse({ ...about('en'), published: false }));
      if (path === '/backoffice/api/content/pages' && method === 'POST') return Promise.resolve(jsonResponse({ ...about('en'), id: 6 }, 201));
      return Promise.resolve(jsonResponse([], 200, { 'Content-Range': 'x */0' }));
    }),
  );
  return sent;
}



const writes = (sent: Sent[]) => sent.filter((call) => call.method !== 'GET');

beforeEach(() => {
  localStorage.clear();
});

describe('the content form’s conversions', () => {
  const field = (kind: ContentField['kind'], extra: Partial<ContentField> = {}): ContentField => ({ name: 'x', kind, required: false, unique: false, ...extra });

  it('shows each kind as its input and reads it back, refusing malformed numbers, dates, ids and JSON', () => {
    expect(toInput(field('media'), cover)).toBe('/uploads/page-cover.svg');
    expect(fromInput(field('media'), '/uploads/page-cover.svg', cover)).toEqual({ value: cover });
    expect(fromInput(field('media'), '/uploads/other.svg', cover)).toEqual({ value: '/uploads/other.svg' });
    expect(toInput(field('component'), { a: 1 })).toBe('{\n  "a": 1\n}');
    expect(fromInput(field('component'), '{"a": 2}', null)).toEqual({ value: { a: 2 } });
    expect(fromInput(field('json'), '{a: 2}', null)).toEqual({ error: 'bo.content.invalid_json' });
    expect(fromInput(field('integer'), '3', null)).toEqual({ value: 3 });
    expect(fromInput(field('integer'), '3.5', null)).toEqual({ error: 'bo.content.invalid_number' });
    expect(fromInput(field('date'), '2026-02-30x', null)).toEqual({ error: 'bo.content.invalid_date' });
    expect(fromInput(field('date'), '2026-02-03', null)).toEqual({ value: '2026-02-03' });
    expect(toInput(field('relation'), [1, 2])).toBe('1, 2');
    expect(fromInput(field('relation'), '1, 3', [1, 2])).toEqual({ value: [1, 3] });
    expect(fromInput(field('relation'), '1, x', [1])).toEqual({ error: 'bo.content.invalid_ids' });
    expect(fromInput(field('enumeration', { options: ['popup', 'curtain'] }), 'curtain', null)).toEqual({ value: 'curtain' });
    expect(fromInput(field('enumeration', { options: ['popup'] }), 'banner', null)).toEqual({ error: 'bo.codes.INVALID' });
    expect(toInput(field('boolean'), undefined)).toBe(false);
    expect(fromInput(field('string'), '  ', 'was')).toEqual({ value: null });
  });

  it('sends only what changed on an edit, and everything stored on a new entry or translation', () => {
    const stored = about('en').data;
    const inputs = { slug: 'about', title: 'New', content: '<p>Hi</p>', cover: '/uploads/page-cover.svg', seo: '{"metaTitle": null}' };
    expect(formData(pages.fields, inputs, stored, false)).toEqual({ data: { title: 'New' }, errors: {} });
    expect(formData(pages.fields, inputs, stored, true).data).toEqual({ ...stored, title: 'New' });
    expect(formData(pages.fields, { ...inputs, seo: '{' }, stored, false).errors).toEqual({ seo: 'bo.content.invalid_json' });
  });
});

describe('the content editor', () => {
  it('is in the menu only with content.manage', async () => {
    serve(['players.read']);
    const { unmount } = renderAt('/backoffice/');
    expect(await screen.findByRole('menuitem', { name: /Players/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Content/ })).not.toBeInTheDocument();
    unmount();
    serve();
    renderAt('/backoffice/content');
    expect(await screen.findByRole('menuitem', { name: /Content/ })).toBeInTheDocument();
  }, 30_000);

  it('lists the types, then a type’s entries per locale with their preview links', async () => {
    const sent = serve();
    renderAt('/backoffice/content');
    fireEvent.click(await screen.findByTestId('content-type-pages'));
    const link = await screen.findByTestId('content-edit-1');
    expect(link).toHaveTextContent('About Croupier');
    expect(screen.getByRole('link', { name: 'Preview on the site' })).toHaveAttribute('href', '/about');
    const list = sent.filter((call) => call.path === '/backoffice/api/content/pages');
    expect(new URLSearchParams(list.at(-1)?.query).get('filter')).toBe('{"locale":"en"}');
    fireEvent.click(screen.getByTestId('content-locale-fr'));
    expect(await screen.findByText('Not translated')).toBeInTheDocument();
    type(/Search/, 'about');
    fireEvent.submit(screen.getByRole('search'));
    await waitFor(() => {
      const last = sent.filter((call) => call.path === '/backoffice/api/content/pages').at(-1);
      expect(JSON.parse(new URLSearchParams(last?.query).get('filter') ?? '{}')).toEqual({ locale: 'fr', q: 'about' });
    });
  }, 30_000);

  it('edits an entry: needs a reason, refuses bad JSON locally, then sends only the changed field', async () => {
    const sent = serve();
    renderAt('/backoffice/content/pages/1?locale=en');
    const title = await screen.findByLabelText(/^title/);
    expect(title).toHaveValue('About Croupier');
    expect(screen.getByTestId('content-preview')).toHaveAttribute('href', '/about');
    type(/^title/, 'About us');
    fireEvent.click(screen.getByTestId('content-save'));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    type(/^seo/, '{ nope');
    type(/^Reason/, 'Rebrand');
    fireEvent.click(screen.getByTestId('content-save'));
    expect(await screen.findByText('Invalid JSON')).toBeInTheDocument();
    expect(writes(sent)).toHaveLength(0);
    type(/^seo/, '{"metaTitle": null}');
    fireEvent.click(screen.getByTestId('content-save'));
    await waitFor(() => {
      expect(writes(sent)).toHaveLength(1);
    });
    expect(writes(sent)[0]).toMatchObject({
      method: 'PUT',
      path: '/backoffice/api/content/pages/1',
      body: { locale: 'en', data: { title: 'About us' }, reason: 'Rebrand' },
    });
  }, 30_000);

  it('shows the server’s refusal on the field and in the content service’s words', async () => {
    serve(['content.manage'], errorResponse(400, 'InvalidParameterException', 'Wrong field value', { slug: ['INVALID'], issues: ['slug: must be lower-case letters and digits joined by single dashes'] }));
    renderAt('/backoffice/content/pages/1?locale=en');
    await screen.findByLabelText(/^slug/);
    type(/^slug/, 'Not A Slug');
    type(/^Reason/, 'Fix');
    fireEvent.click(screen.getByTestId('content-save'));
    expect(await screen.findByText('slug: must be lower-case letters and digits joined by single dashes')).toBeInTheDocument();
    expect(screen.getByLabelText(/^slug/)).toHaveAttribute('aria-invalid', 'true');
  }, 30_000);

  it('creates a missing translation from the English text, with every field', async () => {
    const sent = serve();
    renderAt('/backoffice/content/pages/1?locale=fr');
    expect(await screen.findByTestId('content-translating')).toHaveTextContent('no French version yet');
    type(/^title/, 'À propos');
    type(/^Reason/, 'French page');
    fireEvent.click(screen.getByRole('button', { name: 'Create the translation' }));
    await waitFor(() => {
      expect(writes(sent)).toHaveLength(1);
    });
    expect(writes(sent)[0]?.body).toEqual({
      locale: 'fr',
      data: { slug: 'about', title: 'À propos', content: '<p>Hi</p>', cover, seo: { metaTitle: null } },
      reason: 'French page',
    });
  }, 30_000);

  it('unpublishes with a reason', async () => {
    const sent = serve();
    renderAt('/backoffice/content/pages/1?locale=en');
    fireEvent.click(await screen.findByTestId('content-publication'));
    const dialog = await screen.findByRole('dialog');
    type(/Reason/, 'Under review', dialog);
    const confirm = within(dialog).getAllByRole('button', { name: 'Unpublish' }).at(-1);
    if (confirm) fireEvent.click(confirm);
    await waitFor(() => {
      expect(writes(sent)).toHaveLength(1);
    });
    expect(writes(sent)[0]).toMatchObject({ method: 'POST', path: '/backoffice/api/content/pages/1/unpublish', body: { locale: 'en', reason: 'Under review' } });
  }, 30_000);

  it('creates an entry with its fields, as a draft when asked', async () => {
    const sent = serve();
    renderAt('/backoffice/content/pages/create?locale=en');
    await screen.findByLabelText(/^slug/);
    type(/^slug/, 'terms');
    type(/^title/, 'Terms');
    type(/^Reason/, 'New page');
    fireEvent.click(screen.getByLabelText(/Publish at once/));
    fireEvent.click(screen.getByTestId('content-save'));
    await waitFor(() => {
      expect(writes(sent)).toHaveLength(1);
    });
    expect(writes(sent)[0]).toMatchObject({
      method: 'POST',
      path: '/backoffice/api/content/pages',
      body: { locale: 'en', data: { slug: 'terms', title: 'Terms' }, publish: false, reason: 'New page' },
    });
  }, 30_000);
});
