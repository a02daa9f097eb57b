// The console's data provider: react-admin's simple-REST conventions over `/backoffice/api`
// (docs: /work/prompts/office-contract.md, README "Back office") — `sort`, `range` and `filter`
// as URL-encoded JSON, the total from `Content-Range` — plus the custom actions the back office
// has (state transitions, bulk approve, reports, system) and the CSV export links.
//
// The feature admin lists (campaigns, tournaments, jackpots, cashbacks) are the older `/admin`
// answers mounted under `/backoffice/api/admin/...`: the project envelope with `items` and no
// paging, so they are sorted and paged here.
import type { DataProvider, GetListParams, Identifier, RaRecord, SortPayload } from 'react-admin';
import { HttpError } from 'react-admin';
import { request, type RequestOptions } from './http';

/** Feature admin resources and the `/admin` path each is mounted at. */
export const ADMIN_RESOURCES: Record<string, string> = {
  campaigns: '/admin/campaigns',
  tournaments: '/admin/tournaments',
  jackpots: '/admin/jackpots',
  cashbacks: '/admin/cashbacks',
  feedback: '/admin/support/feedback',
  sportsbook: '/admin/sportsbook/markets',
  provider_bets: '/admin/sportsbook/provider-bets',
};

/**
 * The query of the external providers' bets (`/admin/sportsbook/provider-bets`), which the
 * server filters (provider, user_id, status) and pages (offset, count), newest first.
 */
export function providerBetsQuery(params: Partial<GetListParams>): string {
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 50 };
  const query = new URLSearchParams({ offset: String((page - 1) * perPage), count: String(perPage) });
  const filter = (params.filter ?? {}) as Record<string, unknown>;
  for (const key of ['provider', 'user_id', 'status']) {
    const value = text(filter[key]).trim();
    if (value) query.set(key, value);
  }
  return `?${query.toString()}`;
}

/** Resources the server exports as CSV (`/{resource}/export.csv`). */
export const CSV_RESOURCES = ['players', 'ledger', 'deposits', 'withdrawals', 'rounds', 'audit', 'corrections'] as const;

/** `sort`, `range` and `filter` as ra-data-simple-rest writes them (each optional). */
export function listQuery(params: Partial<GetListParams>): string {
  const query = new URLSearchParams();
  const sort = params.sort;
  if (sort?.field) query.set('sort', JSON.stringify([sort.field, sort.order]));
  if (params.pagination) {
    const { page, perPage } = params.pagination;
    query.set('range', JSON.stringify([(page - 1) * perPage, page * perPage - 1]));
  }
  const filter = params.filter as Record<string, unknown> | undefined;
  if (filter && Object.keys(filter).length > 0) query.set('filter', JSON.stringify(filter));
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The total of `Content-Range: {resource} {start}-{end}/{total}` (`*` or a missing header is an error). */
export function parseContentRange(header: string | null): number {
  const match = header ? /^\s*\S+\s+(?:\d+-\d+|\*)\/(\d+)\s*$/.exec(header) : null;
  if (!match?.[1]) {
    throw new HttpError(
      'The Content-Range header is missing or unreadable: the server must send "Content-Range: {resource} {start}-{end}/{total}".',
      500,
    );
  }
  return Number(match[1]);
}

/** The CSV export address of a list with the list's sort and filter (a plain function, like `reportCsvUrl`). */
export function exportUrl(resource: string, sort?: SortPayload, filter?: Record<string, unknown>): string {
  const query = listQuery({ ...(sort ? { sort } : {}), ...(filter ? { filter } : {}) });
  return `/backoffice/api/${resource}/export.csv${query}`;
}

/** A scalar's text (JSON for objects, so nothing reads as `[object Object]`). */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return text(a).localeCompare(text(b));
}

/** Sorts, filters (equality on each key) and pages an unpaged list as the server would. */
export function pageLocally<T extends RaRecord>(items: T[], params: GetListParams): { data: T[]; total: number } {
  const filtered = items.filter((item) =>
    Object.entries(params.filter as Record<string, unknown>).every(([key, wanted]) => {
      if (wanted === undefined || wanted === '') return true;
      if (key === 'q') return JSON.stringify(item).toLowerCase().includes(text(wanted).toLowerCase());
      return text((item as Record<string, unknown>)[key]) === text(wanted);
    }),
  );
  const { field, order } = params.sort ?? { field: 'id', order: 'ASC' };
  const sorted = [...filtered].sort((a, b) => {
    const result = compare((a as Record<string, unknown>)[field], (b as Record<string, unknown>)[field]);
    return order === 'DESC' ? -result : result;
  });
  const { page, perPage } = params.pagination ?? { page: 1, perPage: sorted.length };
  return { data: sorted.slice((page - 1) * perPage, page * perPage), total: sorted.length };
}

interface EnvelopeList {
  status: 'ok';
  data: { items?: RaRecord[] } | RaRecord[];
}

function envelopeItems(json: unknown): RaRecord[] {
  const data = (json as EnvelopeList | null)?.data;
  if (Array.isArray(data)) return data;
  return data?.items ?? [];
}

/** The `data` object of an `/admin` envelope (`{}` when there is none). */
function envelopeData(json: unknown): Record<string, unknown> {
  const data = (json as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
}

/** One movement of a withdrawal, correction or other stateful resource. */
export interface ActionResult<T = RaRecord> {
  data: T;
}

export interface BulkResult {
  id: Identifier;
  ok: boolean;
  state?: string;
  error?: string;
}

export interface Money {
  amount: number;
  currency: string;
}

export interface ReportDay {
  date: string;
  bets: number;
  wins: number;
  ggr: number;
  deposits: number;
  withdrawals: number;
  active_players: number;
  new_players: number;
  bonus_cost: number;
}

export interface ReportSummary {
  currency: string;
  days: ReportDay[];
  by_game: { game: string; bets: number; wins: number; ggr: number }[];
  by_provider: { provider: string; bets: number; wins: number; ggr: number }[];
}

export interface ReportParams {
  from: string;
  to: string;
  currency: string;
}

export interface SystemState {
  maintenance: { on: boolean; reason: string | null };
  jobs: { name: string; last_run_at: number | null; last_ok: boolean | null; last_error: string | null }[];
  outbox: { pending: number; oldest_at: number | null };
}

export interface BackofficeDataProvider extends DataProvider {
  /** `POST /{resource}/{id}/{action}` with `body`; answers the changed object. */
  action: (resource: string, id: Identifier, action: string, body: Record<string, unknown>) => Promise<ActionResult>;
  /** `POST /{path}` for the actions without an id (bulk approve, maintenance). */
  post: (path: string, body: Record<string, unknown>) => Promise<unknown>;
  /**
   * `POST /admin/{path}` of the feature admin APIs (promo codes, grants, campaign status): their
   * envelope's `data`. The gate in front of them audits the body's `reason`, so actions whose
   * handler reads no body still send one.
   */
  admin: (path: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** `GET /admin/{path}` of the feature admin APIs (the loyalty programme, an account): their envelope's `data`. */
  adminGet: (path: string) => Promise<Record<string, unknown>>;
  /** `PUT /admin/{path}` of the feature admin APIs (loyalty settings, rates, levels): their envelope's `data`. */
  adminPut: (path: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;
  bulkApprove: (ids: Identifier[], reason: string) => Promise<BulkResult[]>;
  reportSummary: (params: ReportParams) => Promise<ReportSummary>;
  system: () => Promise<SystemState>;
}

function reportQuery({ from, to, currency }: ReportParams): string {
  return new URLSearchParams({ from, to, currency }).toString();
}

/** The days of a report as CSV. (A plain function: react-admin wraps every data provider method
 * and expects a promise from each.) */
export function reportCsvUrl(params: ReportParams): string {
  return `/backoffice/api/reports/summary.csv?${reportQuery(params)}`;
}

/** The console's data provider; `locale()` is the console's language, sent as Accept-Language. */
export function createDataProvider(locale: () => string = () => 'en'): BackofficeDataProvider {
  const call = (path: string, options: RequestOptions = {}) => request(path, { ...options, locale: locale() });

  const getList = async (resource: string, params: GetListParams) => {
    const adminPath = ADMIN_RESOURCES[resource];
    if (adminPath && resource === 'provider_bets') {
      const { json } = await call(`${adminPath}${providerBetsQuery(params)}`);
      const data = (json as { data?: { items?: RaRecord[]; total?: number } } | null)?.data;
      return { data: data?.items ?? [], total: data?.total ?? 0 };
    }
    if (adminPath) {
      const { status, ...filter } = params.filter as Record<string, unknown>;
      const { state: marketState, ...marketFilter } = params.filter as Record<string, unknown>;
      // The cashback queue answers one status at a time (pending by default); the support
      // feedback pages by offset and count (200 at most, newest first).
      // Sportsbook markets: the server filters by state (default: open and held markets) and
      // answers up to 1000, largest liability first; the other filters apply here.
      const query =
        resource === 'sportsbook'
          ? `?count=1000${text(marketState) ? `&state=${encodeURIComponent(text(marketState))}` : ''}`
          : resource === 'cashbacks'
          ? `?status=${encodeURIComponent(text(status) || 'pending')}&count=500`
          : resource === 'feedback'
            ? '?count=200'
            : '';
      const { json } = await call(`${adminPath}${query}`);
      const paged = pageLocally(envelopeItems(json), {
        ...params,
        filter:
          resource === 'cashbacks' ? filter : resource === 'sportsbook' ? marketFilter : (params.filter as Record<string, unknown>),
      });
      return paged;
    }
    const { json, headers } = await call(`/${resource}${listQuery(params)}`);
    return { data: json as RaRecord[], total: parseContentRange(headers.get('Content-Range')) };
  };

  const getOne = async (resource: string, id: Identifier) => {
    const adminPath = ADMIN_RESOURCES[resource];
    if (adminPath) {
      const { json } = await call(`${adminPath}/${encodeURIComponent(String(id))}`);
      return (json as { data: RaRecord }).data;
    }
    const { json } = await call(`/${resource}/${encodeURIComponent(String(id))}`);
    return json as RaRecord;
  };

  const provider: BackofficeDataProvider = {
    getList: (resource, params) => getList(resource, params) as never,
    getOne: async (resource, params) => ({ data: (await getOne(resource, params.id)) as never }),
    // A page refers to few records: one call each keeps the server's API to the contract.
    getMany: async (resource, params) => ({
      data: (await Promise.all(params.ids.map((id) => getOne(resource, id)))) as never,
    }),
    getManyReference: (resource, params) =>
      getList(resource, {
        pagination: params.pagination,
        sort: params.sort,
        filter: { ...(params.filter as Record<string, unknown>), [params.target]: params.id },
      }) as never,
    create: async (resource, params) => {
      const adminPath = ADMIN_RESOURCES[resource];
      if (adminPath) {
        // The `/admin` answers are `{status, data: {id}}`: the record is what was sent, with its id.
        const { json } = await call(adminPath, { method: 'POST', body: params.data });
        return { data: { ...(params.data as object), ...envelopeData(json) } as never };
      }
      const { json } = await call(`/${resource}`, { method: 'POST', body: params.data });
      return { data: json as never };
    },
    update: async (resource, params) => {
      const adminPath = ADMIN_RESOURCES[resource];
      if (adminPath) {
        const { json } = await call(`${adminPath}/${encodeURIComponent(String(params.id))}`, { method: 'PUT', body: params.data });
        // The answer is the id: the record is the one shown before (its report, its promo codes)
        // with what was sent.
        const previous = (params.previousData ?? {}) as object;
        return { data: { ...previous, ...(params.data as object), id: params.id as Identifier, ...envelopeData(json) } as never };
      }
      const { json } = await call(`/${resource}/${encodeURIComponent(String(params.id))}`, {
        method: 'PUT',
        body: params.data,
      });
      return { data: json as never };
    },
    updateMany: async (resource, params) => {
      await Promise.all(
        params.ids.map((id) => call(`/${resource}/${encodeURIComponent(String(id))}`, { method: 'PUT', body: params.data })),
      );
      return { data: params.ids };
    },
    delete: async (resource, params) => {
      const { json } = await call(`/${resource}/${encodeURIComponent(String(params.id))}`, { method: 'DELETE' });
      return { data: (json ?? params.previousData ?? { id: params.id }) as never };
    },
    deleteMany: async (resource, params) => {
      await Promise.all(params.ids.map((id) => call(`/${resource}/${encodeURIComponent(String(id))}`, { method: 'DELETE' })));
      return { data: params.ids };
    },
    action: async (resource, id, action, body) => {
      const { json } = await call(`/${resource}/${encodeURIComponent(String(id))}/${action}`, { method: 'POST', body });
      return { data: json as RaRecord };
    },
    post: async (path, body) => (await call(path, { method: 'POST', body })).json,
    admin: async (path, body) => envelopeData((await call(`/admin/${path}`, { method: 'POST', body })).json),
    adminGet: async (path) => envelopeData((await call(`/admin/${path}`)).json),
    adminPut: async (path, body) => envelopeData((await call(`/admin/${path}`, { method: 'PUT', body })).json),
    bulkApprove: async (ids, reason) => {
      const { json } = await call('/withdrawals/bulk-approve', { method: 'POST', body: { ids, reason } });
      return (json as { results: BulkResult[] }).results;
    },
    reportSummary: async (params) => (await call(`/reports/summary?${reportQuery(params)}`)).json as ReportSummary,
    system: async () => (await call('/system')).json as SystemState,
  };
  return provider;
}
