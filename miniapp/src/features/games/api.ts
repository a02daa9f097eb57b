import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, apiPost, type RequestOptions } from '@/lib/api/client';
import { HISTORY_PAGE_SIZE } from '@/lib/paging';

/** SPEC §3 game config. */
export interface GameConfig {
  canAccessSlotWithZeroBalance?: boolean;
  canVisibleFavoriteIcon?: boolean;
  /** Guests (not signed in) may play its demo. */
  canPlayDemoAsGuest?: boolean;
  visibleFullScreen?: 'all' | 'telegram' | 'product' | 'none';
  contentViewType?: string;
}

/** SPEC §3 Game: non-empty description values override the top-level ones. */
export interface Game {
  id: number;
  sysname: string;
  name: string;
  image_url: string;
  description: { name?: string; img_288_192?: string };
  provider: string;
  type: string;
  rtp: string;
  volatility: string;
  has_demo: boolean;
  config: GameConfig | null;
  is_favourite: boolean;
}

export interface GameList {
  total: number;
  items: Game[];
}

export const GAME_TYPES = ['all', 'casino', 'slot', 'live', 'fast'] as const;
export type GameType = (typeof GAME_TYPES)[number];

export interface GameOptions {
  sysnames?: string[];
  category?: string;
  providers?: string;
  type?: GameType;
  search?: string;
  favourites?: boolean;
  limit?: number;
  offset?: number;
  sort?: 'popular' | 'new' | 'name';
}

export interface GameCategory {
  slug: string;
  name: string;
  games: number;
}

export interface GameProvider {
  sysname: string;
  name: string;
  games: number;
}

/** The name and picture a player sees: a non-empty description value wins (SPEC §3). */
export function gameView(game: Game): { name: string; image: string } {
  return {
    name: game.description.name?.trim() ? game.description.name : game.name,
    image: game.description.img_288_192?.trim() ? game.description.img_288_192 : game.image_url,
  };
}

/** Options sent as a JSON string; empty filters are left out so the server sees only real ones. */
export function gameOptionsParam(options: GameOptions): string {
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || value === '' || value === false) continue;
    if (key === 'type' && value === 'all') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    clean[key] = value;
  }
  return JSON.stringify(clean);
}

export function getGames(options: GameOptions, request?: RequestOptions): Promise<GameList> {
  return apiGet<GameList>('games.get', { options: gameOptionsParam(options) }, request);
}

export const gameKeys = {
  all: ['games'] as const,
  list: (options: GameOptions) => [...gameKeys.all, 'list', options] as const,
  categories: () => [...gameKeys.all, 'categories'] as const,
  providers: () => [...gameKeys.all, 'providers'] as const,
  likes: () => [...gameKeys.all, 'likes'] as const,
};

export function gamesQueryOptions(options: GameOptions) {
  return queryOptions({
    queryKey: gameKeys.list(options),
    queryFn: ({ signal }) => getGames(options, { signal }),
  });
}

export function categoriesQueryOptions() {
  return queryOptions({
    queryKey: gameKeys.categories(),
    queryFn: ({ signal }) => apiGet<GameCategory[]>('games.getCategories', undefined, { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useCategories() {
  return useQuery(categoriesQueryOptions());
}

export function useProviders() {
  return useQuery({
    queryKey: gameKeys.providers(),
    queryFn: ({ signal }) => apiGet<GameProvider[]>('games.getProviders', { types: '', fields: '' }, { signal }),
    staleTime: 5 * 60_000,
  });
}

export function setLike(sysname: string, liked: boolean): Promise<1> {
  return apiPost<1>(liked ? 'games.addLike' : 'games.removeLike', { sysname }, { textFields: ['sysname'] });
}

/** DESIGN "Game launch": the play path answers JSON when asked for it. */
export interface Launch {
  url: string;
  token: string;
  mode: 'real' | 'demo';
  currency: string;
  /** Unix seconds: the session's end for bets. */
  expires_at: number;
  /** Seconds from the answer to that end (the page times its notice by the device's clock). */
  expires_in: number;
}

export type LaunchMode = 'play' | 'demo';

export class LaunchError extends Error {
  override readonly name = 'LaunchError';
  constructor(
    readonly type: string,
    readonly status: number,
  ) {
    super(`launch refused: ${type}`);
  }
}

/** Starts a game session through the play path; errors keep the server's error type. */
export async function launchGame(sysname: string, mode: LaunchMode, signal?: AbortSignal): Promise<Launch> {
  const response = await fetch(`/platform/game/${encodeURIComponent(sysname)}/${mode}`, {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    signal: signal ?? null,
  });
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.ok && body && typeof body.url === 'string' && typeof body.token === 'string') return body as unknown as Launch;
  const error = body?.error as { type?: unknown } | undefined;
  throw new LaunchError(typeof error?.type === 'string' ? error.type : 'UnknownErrorException', response.status);
}

/** Provably-fair state of the house provider (DESIGN "Provably fair"). */
export interface FairSeeds {
  server_seed_hash: string;
  client_seed: string;
  nonce: number;
}

export interface SeedRotation {
  previous: FairSeeds & { server_seed: string };
  current: FairSeeds;
}

export interface HouseRound {
  round: string;
  game: string;
  bet: string;
  win: string;
  currency: string;
  nonce: number;
  outcome: Record<string, unknown> | null;
  /** The player's choices for the round (target, rows, mines…), when the server sends them. */
  params?: Record<string, unknown> | null;
  server_seed_hash: string;
  server_seed: string | null;
  client_seed: string;
  created_at: number;
}

export interface Verification {
  server_seed_hash: string;
  nonce: number;
  outcome: Record<string, unknown>;
}

async function houseJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { credentials: 'same-origin', ...init });
  const body = (await response.json().catch(() => null)) as (T & { error?: string; message?: string }) | null;
  if (!response.ok || body === null) throw new Error(body?.message ?? `HTTP ${String(response.status)}`);
  return body;
}

export function getSeeds(token: string): Promise<FairSeeds> {
  return houseJson(`/games/house/fairness?token=${encodeURIComponent(token)}`);
}

export function rotateSeeds(token: string, clientSeed: string): Promise<SeedRotation> {
  return houseJson('/games/house/fairness', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, client_seed: clientSeed }),
  });
}

export async function getHouseHistory(token: string): Promise<HouseRound[]> {
  const body = await houseJson<{ items: HouseRound[] }>(`/games/house/history?token=${encodeURIComponent(token)}`);
  return body.items;
}

/**
 * The round's own parameters (the player's choices) are what the verifier needs besides the
 * seeds: the recorded params when the server sends them, else those the outcome repeats.
 */
export function roundParams(round: Pick<HouseRound, 'params' | 'outcome'>): Record<string, string> {
  const params: Record<string, string> = {};
  const source = round.params ?? round.outcome;
  if (!source) return params;
  const keys = round.params ? Object.keys(source) : ['target', 'condition', 'mines', 'rows', 'risk'];
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' || typeof value === 'number') params[key] = String(value);
  }
  return params;
}

export function verifyRound(
  game: string,
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  params: Record<string, string>,
): Promise<Verification> {
  const query = new URLSearchParams({ game, server_seed: serverSeed, client_seed: clientSeed, nonce: String(nonce), ...params });
  return houseJson(`/games/house/verify?${query.toString()}`);
}

/** One round of the player's game history (`games.getHistory`). */
export interface HistoryRound {
  round: string;
  game: { sysname: string; name: string };
  provider: string;
  mode: 'real' | 'demo';
  currency: string;
  bet: string;
  win: string;
  /** The balance the game showed after the round; null for rounds older than the field. */
  balance_after: string | null;
  status: 'open' | 'closed';
  /** Unix seconds. */
  created_at: number;
  /** House rounds: what it takes to verify them. */
  fairness: {
    server_seed_hash: string;
    server_seed: string | null;
    client_seed: string;
    nonce: number;
    params: Record<string, unknown> | null;
    outcome: Record<string, unknown> | null;
  } | null;
}

export function getGameHistory(offset: number, options: RequestOptions = {}): Promise<{ total: number; items: HistoryRound[] }> {
  return apiGet('games.getHistory', { offset, count: HISTORY_PAGE_SIZE }, options);
}

/** A history export (`games.createhistoryexportrequest` / `games.gethistoryexportrequest`). */
export interface HistoryExport {
  id: number;
  status: 'pending' | 'ready' | 'failed' | 'expired';
  rows: number;
  /** The CSV's link, once ready and until it expires. */
  url: string | null;
  created_at: number;
  expires_at: number | null;
}

export function getHistoryExport(options: RequestOptions = {}): Promise<HistoryExport | null> {
  return apiGet('games.gethistoryexportrequest', undefined, options);
}

export function createHistoryExport(): Promise<HistoryExport> {
  return apiPost('games.createhistoryexportrequest');
}

/** A history round of a house game in the shape the verifier takes, or null for other providers. */
export function houseRoundOf(round: HistoryRound): HouseRound | null {
  if (!round.fairness) return null;
  const { server_seed_hash, server_seed, client_seed, nonce, params, outcome } = round.fairness;
  return {
    round: round.round,
    game: round.game.sysname,
    bet: round.bet,
    win: round.win,
    currency: round.currency,
    nonce,
    outcome,
    params,
    server_seed_hash,
    server_seed,
    client_seed,
    created_at: round.created_at,
  };
}
