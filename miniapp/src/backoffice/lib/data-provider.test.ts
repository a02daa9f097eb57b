import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { createDataProvider, exportUrl, listQuery, pageLocally, parseContentRange, reportCsvUrl } from './data-provider';
import type { ErrorBody } from './http';
import { errorResponse, jsonResponse, stubFetch } from './test-fetch';

interface Refusal {
  status: number;
  message: string;
  body: ErrorBody;
}

async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status as number, message: error.message, body: error.body as ErrorBody };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('list URLs', () => {
  it('writes sort, range and filter as URL-encoded JSON like ra-data-simple-rest', () => {
    const query = listQuery({
      sort: { field: 'created_at', order: 'DESC' },
      pagination: { page: 3, perPage: 25 },
      filter: { q: 'ann@example.com', state: 'pending' },
    });
    const params = new URLSearchParams(query.slice(1));
    expect(query.startsWith('?')).toBe(true);
    expect(params.get('sort')).toBe('["created_at","DESC"]');
    expect(params.get('range')).toBe('[50,74]');
    expect(params.get('filter')).toBe('{"q":"ann@example.com","state":"pending"}');
    expect(query).toContain('sort=%5B%22created_at%22%2C%22DESC%22%5D');
  });

  it('leaves out what is not given, and an empty filter', () => {
    expect(listQuery({})).toBe('');
    expect(listQuery({ filter: {} })).toBe('');
    expect(listQuery({ pagination: { page: 1, perPage: 10 } })).toBe('?range=%5B0%2C9%5D');
  });

  it('builds CSV export links with the list filter and sort, without a range', () => {
    const url = exportUrl('deposits', { field: 'id', order: 'ASC' }, { status: 'success' });
    expect(url.startsWith('/backoffice/api/deposits/export.csv?')).toBe(true);
    const params = new URL(url, 'http://localhost').searchParams;
    expect(params.get('filter')).toBe('{"status":"success"}');
    expect(params.get('sort')).toBe('["id","ASC"]');
    expect(params.has('range')).toBe(false);
    expect(exportUrl('audit')).toBe('/backoffice/api/audit/export.csv');
  });
});

describe('Content-Range', () => {
  it('reads the total', () => {
    expect(parseContentRange('players 0-24/319')).toBe(319);
    expect(parseContentRange('audit 0-0/0')).toBe(0);
    expect(parseContentRange('withdrawals */0')).toBe(0);
  });

  it('refuses a missing or unreadable header', () => {
    expect(() => parseContentRange(null)).toThrow(/Content-Range/);
    expect(() => parseContentRange('players 0-24')).toThrow(/Content-Range/);
    expect(() => parseContentRange('players 0-24/many')).toThrow(/Content-Range/);
  });
});

describe('the data provider', () => {
  it('lists with the query and the total of Content-Range, in the console language', async () => {
    const calls = stubFetch(jsonResponse([{ id: 7, login: 'ann' }], 200, { 'Content-Range': 'players 0-0/41' }));
    const provider = createDataProvider(() => 'fr');
    const result = await provider.getList('players', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'DESC' },
      filter: { q: 'ann' },
    });
    expect(result).toEqual({ data: [{ id: 7, login: 'ann' }], total: 41 });
    const [call] = calls;
    expect(call?.url.pathname).toBe('/backoffice/api/players');
    expect(call?.url.searchParams.get('filter')).toBe('{"q":"ann"}');
    expect(call?.url.searchParams.get('range')).toBe('[0,24]');
    expect(call?.headers.get('Accept-Language')).toBe('fr');
  });

  it('fails a list without Content-Range rather than guessing the total', async () => {
    stubFetch(jsonResponse([{ id: 1 }]));
    const error = await refusal(
      createDataProvider().getList('deposits', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} }),
    );
    expect(error.message).toMatch(/Content-Range/);
  });

  it('asks a player’s rows with the player in the filter', async () => {
    const calls = stubFetch(jsonResponse([], 200, { 'Content-Range': 'ledger */0' }));
    await createDataProvider().getManyReference('ledger', {
      target: 'user_id',
      id: 12,
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'id', order: 'DESC' },
      filter: { kind: 'deposit' },
    });
    expect(calls[0]?.url.searchParams.get('filter')).toBe('{"kind":"deposit","user_id":12}');
    expect(calls[0]?.url.searchParams.get('range')).toBe('[25,49]');
  });

  it('creates with a JSON POST and answers the created object', async () => {
    const created = { id: 3, state: 'pending_approval', amount: 250_000, currency: 'EUR' };
    const calls = stubFetch(jsonResponse(created, 201));
    const result = await createDataProvider().create('corrections', {
      data: { user_id: 9, direction: 'credit', amount: 250_000, currency: 'EUR', reason_code: 'goodwill', reason: 'r' },
    });
    expect(result.data).toEqual(created);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/corrections');
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(calls[0]?.body).toMatchObject({ user_id: 9, amount: 250_000 });
  });

  it('posts actions to /{resource}/{id}/{action} and bulk approval to its own route', async () => {
    const calls = stubFetch(
      jsonResponse({ id: 5, state: 'approved' }),
      jsonResponse({ results: [{ id: 5, ok: true, state: 'approved' }, { id: 6, ok: false, state: 'pending', error: 'over limit' }] }),
    );
    const provider = createDataProvider();
    expect((await provider.action('withdrawals', 5, 'approve', { reason: 'checked' })).data).toEqual({ id: 5, state: 'approved' });
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/withdrawals/5/approve');
    expect(calls[0]?.body).toEqual({ reason: 'checked' });
    const results = await provider.bulkApprove([5, 6], 'batch');
    expect(results.map((result) => result.ok)).toEqual([true, false]);
    expect(calls[1]?.url.pathname).toBe('/backoffice/api/withdrawals/bulk-approve');
    expect(calls[1]?.body).toEqual({ ids: [5, 6], reason: 'batch' });
  });

  it('turns the error envelope into an HttpError with the message and field errors', async () => {
    stubFetch(
      errorResponse(400, 'InvalidParameterException', 'Le montant est invalide', {
        amount: ['INSUFFICIENT_FUNDS'],
        reason: ['REQUIRED', 'MAX_LENGTH'],
        currency: ['SOMETHING_NEW'],
      }),
    );
    const error = await refusal(createDataProvider().create('corrections', { data: {} }));
    expect(error.status).toBe(400);
    expect(error.message).toBe('Le montant est invalide');
    expect(error.body.type).toBe('InvalidParameterException');
    expect(error.body.errors).toEqual({
      amount: 'bo.codes.INSUFFICIENT_FUNDS',
      reason: 'bo.codes.REQUIRED',
      currency: 'SOMETHING_NEW',
    });
    expect(error.body.error_data.reason).toEqual(['REQUIRED', 'MAX_LENGTH']);
  });

  it('keeps the status and field of a four-eyes refusal and a state conflict', async () => {
    stubFetch(
      errorResponse(403, 'AccessDeniedException', 'Another operator must approve', { approver: ['FOUR_EYES'] }),
      errorResponse(409, 'InvalidRequestException', 'Not in this state', { state: ['paid'] }),
    );
    const provider = createDataProvider();
    const fourEyes = await refusal(provider.action('corrections', 1, 'approve', { reason: 'mine' }));
    expect(fourEyes.status).toBe(403);
    expect(fourEyes.body.errors).toEqual({ approver: 'bo.codes.FOUR_EYES' });
    const conflict = await refusal(provider.action('withdrawals', 1, 'paid', { reason: 'again' }));
    expect(conflict.status).toBe(409);
    expect(conflict.body.error_data).toEqual({ state: ['paid'] });
  });

  it('says a save over someone else’s in the message, as no form field shows it', async () => {
    stubFetch(
      errorResponse(409, 'AccessDeniedException', 'Access denied', { version: ['STALE'] }),
      errorResponse(403, 'AccessDeniedException', 'Access denied', { approver: ['FOUR_EYES'] }),
    );
    const provider = createDataProvider();
    const stale = await refusal(provider.action('corrections', 1, 'approve', { reason: 'late' }));
    expect(stale.status).toBe(409);
    expect(stale.message).toBe('bo.codes.STALE');
    const other = await refusal(provider.action('corrections', 1, 'approve', { reason: 'mine' }));
    expect(other.message).toBe('Access denied');
  });

  it('answers an HttpError for a body that is not the envelope', async () => {
    stubFetch(new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const error = await refusal(createDataProvider().getOne('players', { id: 1 }));
    expect(error.status).toBe(502);
    expect(error.message).toBe('Bad Gateway');
    expect(error.body.errors).toEqual({});
  });

  it('reads the feature admin lists from the envelope and pages them here', async () => {
    const items = [3, 1, 2].map((id) => ({ id, title_en: `T${String(id)}`, status: id === 2 ? 'paused' : 'active' }));
    const calls = stubFetch(jsonResponse({ status: 'ok', data: { items } }), jsonResponse({ status: 'ok', data: { items: [] } }));
    const provider = createDataProvider();
    const page = await provider.getList('tournaments', {
      pagination: { page: 1, perPage: 1 },
      sort: { field: 'id', order: 'ASC' },
      filter: { status: 'active' },
    });
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/admin/tournaments');
    expect(page).toEqual({ data: [{ id: 1, title_en: 'T1', status: 'active' }], total: 2 });
    await provider.getList('cashbacks', { pagination: { page: 1, perPage: 25 }, sort: { field: 'id', order: 'DESC' }, filter: { status: 'active' } });
    expect(calls[1]?.url.pathname).toBe('/backoffice/api/admin/cashbacks');
    expect(calls[1]?.url.searchParams.get('status')).toBe('active');
  });

  it('pages locally by number and text order', () => {
    const rows = [{ id: 10, name: 'b' }, { id: 9, name: 'a' }, { id: 100, name: 'c' }];
    expect(pageLocally(rows, { pagination: { page: 1, perPage: 2 }, sort: { field: 'id', order: 'DESC' }, filter: {} }).data.map((row) => row.id)).toEqual([100, 10]);
    expect(pageLocally(rows, { pagination: { page: 1, perPage: 5 }, sort: { field: 'name', order: 'ASC' }, filter: { q: 'C' } }).data).toEqual([{ id: 100, name: 'c' }]);
  });

  it('builds report and system calls', async () => {
    const calls = stubFetch(
      jsonResponse({ currency: 'EUR', days: [], by_game: [], by_provider: [] }),
      jsonResponse({ maintenance: { on: false, reason: null }, jobs: [], outbox: { pending: 0, oldest_at: null } }),
    );
    const provider = createDataProvider();
    const params = { from: '2026-11-01', to: '2026-11-26', currency: 'EUR' };
    await provider.reportSummary(params);
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/reports/summary');
    expect(Object.fromEntries(calls[0]?.url.searchParams ?? [])).toEqual(params);
    expect(reportCsvUrl(params)).toBe('/backoffice/api/reports/summary.csv?from=2026-11-01&to=2026-11-26&currency=EUR');
    expect((await provider.system()).maintenance.on).toBe(false);
    expect(calls[1]?.url.pathname).toBe('/backoffice/api/system');
  });

  it('creates and replaces a campaign through /admin/campaigns and reads its id from the envelope', async () => {
    const calls = stubFetch(
      jsonResponse({ status: 'ok', data: { id: 12 } }),
      jsonResponse({ status: 'ok', data: { id: 12 } }),
      jsonResponse({ status: 'error', error: { type: 'InvalidParameterException', message: 'Invalid', error_data: { sysname: ['TAKEN'] } } }, 422),
    );
    const provider = createDataProvider();
    const body = { sysname: 'spring', trigger: 'manual', reward: 'fixed', amounts: [{ currency: 'EUR', max_bonus: 1000 }] };
    const created = await provider.create('campaigns', { data: body });
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/admin/campaigns');
    expect(calls[0]?.body).toEqual(body);
    expect(created.data).toEqual({ ...body, id: 12 });
    const updated = await provider.update('campaigns', { id: 12, data: body, previousData: { id: 12, sysname: 'old', promo_codes: [] } });
    expect(calls[1]?.method).toBe('PUT');
    expect(calls[1]?.url.pathname).toBe('/backoffice/api/admin/campaigns/12');
    expect(calls[1]?.body).toEqual(body);
    expect(updated.data).toMatchObject({ id: 12, sysname: 'spring', promo_codes: [] });
    const refused = await refusal(provider.create('campaigns', { data: body }));
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ sysname: 'bo.codes.TAKEN' });
  });

  it('posts the feature admin actions to /admin/{path} and answers the envelope’s data', async () => {
    const calls = stubFetch(
      jsonResponse({ status: 'ok', data: { code: 'SPRING', status: 'paused' } }),
      jsonResponse({ status: 'ok', data: { written: true } }),
    );
    const provider = createDataProvider();
    expect(await provider.admin('promo-codes/spring/pause', { reason: 'Leaked' })).toEqual({ code: 'SPRING', status: 'paused' });
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/admin/promo-codes/spring/pause');
    expect(calls[0]?.body).toEqual({ reason: 'Leaked' });
    expect(await provider.admin('loyalty/points', { user_id: 7, points: 50, reason: 'Sorry', key: 'k1' })).toEqual({ written: true });
    expect(calls[1]?.url.pathname).toBe('/backoffice/api/admin/loyalty/points');
  });

  it('reads and replaces the loyalty programme over GET and PUT /admin/loyalty/...', async () => {
    const calls = stubFetch(
      jsonResponse({ status: 'ok', data: { settings: { active: true, levels_drop: false } } }),
      jsonResponse({ status: 'ok', data: {} }),
      errorResponse(400, 'BadRequestException', 'Invalid', { milli_per_unit: ['MAX_VALUE'] }),
    );
    const provider = createDataProvider(() => 'fr');
    expect(await provider.adminGet('loyalty')).toEqual({ settings: { active: true, levels_drop: false } });
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/admin/loyalty');
    expect(calls[0]?.headers.get('Accept-Language')).toBe('fr');
    expect(await provider.adminPut('loyalty/settings', { active: false, levels_drop: false })).toEqual({});
    expect(calls[1]?.method).toBe('PUT');
    expect(calls[1]?.body).toEqual({ active: false, levels_drop: false });
    await expect(provider.adminPut('loyalty/rates', { items: [] })).rejects.toMatchObject({
      status: 400,
      body: { error_data: { milli_per_unit: ['MAX_VALUE'] } },
    });
  });

  it('reads the support feedback from /admin/support/feedback', async () => {
    const calls = stubFetch(
      jsonResponse({ status: 'ok', data: { items: [{ id: 2, message: 'Help' }, { id: 1, message: 'Hi' }] } }),
    );
    const page = await createDataProvider().getList('feedback', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'DESC' },
      filter: {},
    });
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/admin/support/feedback');
    expect(calls[0]?.url.searchParams.get('count')).toBe('200');
    expect(page.total).toBe(2);
    expect(page.data.map((row: { id: number }) => row.id)).toEqual([2, 1]);
  });
});
