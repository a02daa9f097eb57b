import { apiGet, apiPost, type RequestOptions } from '@/lib/api/client';

// SPEC §7 `loyalty.*`. Points are whole numbers; texts come in the request's language.

export interface LoyaltyCharacter {
  id: number;
  sysname: string;
  title: string;
  description: string;
  image: string | null;
}

export interface LoyaltyLevel {
  level: number;
  title: string;
  description: string;
  min_points: number;
  image: string | null;
  reward: { amount: string; currency: string } | null;
  reached: boolean;
}

/** SPEC §3 "Progress": the current level's threshold, the next one's, the lifetime points. */
export interface LoyaltyProgress {
  minValue: number;
  maxValue: number;
  expCount: number;
}

/** SPEC §3 "Loyalty info". */
export interface LoyaltyInfo {
  id: number;
  is_active: boolean;
  points: number;
  lifetime_points: number;
  level: number;
  character: LoyaltyCharacter | null;
  levels: LoyaltyLevel[];
  progress: LoyaltyProgress;
  pointsAlias: string;
  uid: string;
}

export interface CharacterItem extends LoyaltyCharacter {
  min_level: number;
  available: boolean;
  selected: boolean;
}

export type ProductKind = 'bonus' | 'freespins' | 'freebet' | 'cashback_boost';

export interface Product {
  id: number;
  sysname: string;
  title: string;
  description: string;
  image: string | null;
  price: number;
  kind: ProductKind;
  min_level: number;
  stock: number | null;
  available: boolean;
}

export interface Purchase {
  id: number;
  product_id: number;
  title: string;
  price: number;
  kind: ProductKind;
  created_at: number;
}

export interface Quest {
  id: number;
  sysname: string;
  title: string;
  description: string;
  target: number;
  progress: number;
  reward_points: number;
  completed: boolean;
  completed_at: number | null;
}

export interface Program {
  id: number;
  sysname: string;
  title: string;
  description: string;
  image: string | null;
  completed: number;
  total: number;
  quests: Quest[];
}

/** SPEC §3 "Loyalty notification". */
export interface LoyaltyNotice {
  id: number;
  trigger: 'quest' | 'register' | 'profile' | 'confirm' | 'product' | 'level';
  type: 'credit' | 'other';
  title: string;
  message: string;
  amount: number | null;
  amountType: string | null;
  image: string | null;
  created_at: number;
}

export const loyaltyKeys = {
  all: ['loyalty'] as const,
  info: () => [...loyaltyKeys.all, 'info'] as const,
  characters: () => [...loyaltyKeys.all, 'characters'] as const,
  products: () => [...loyaltyKeys.all, 'products'] as const,
  programs: () => [...loyaltyKeys.all, 'programs'] as const,
  program: (sysname: string) => [...loyaltyKeys.all, 'program', sysname] as const,
};

export const getLoyaltyInfo = (options?: RequestOptions) => apiGet<LoyaltyInfo>('loyalty.getinfo', {}, options);
export const getCharacters = (options?: RequestOptions) =>
  apiGet<{ items: CharacterItem[] }>('loyalty.getcharacters', {}, options);
export const setCharacter = (id: number) => apiPost<LoyaltyInfo>('loyalty.setcharacter', { id: String(id) });
export const getProducts = (options?: RequestOptions) =>
  apiGet<{ total: number; items: Product[] }>('loyalty.getproducts', { count: 100 }, options);
/** `request_id` is made once per confirm dialog: a second press or a retry buys once. */
export const buyProduct = (productId: number, requestId: string) =>
  apiPost<{ purchase: Purchase; points: number }>('loyalty.buyproduct', {
    product_id: String(productId),
    request_id: requestId,
  });
export const getPrograms = (options?: RequestOptions) => apiGet<{ items: Program[] }>('loyalty.getPrograms', {}, options);
export const getProgram = (sysname: string, options?: RequestOptions) =>
  apiGet<Program>('loyalty.getProgram', { sysname }, options);
export const getLoyaltyNotices = (options?: RequestOptions) =>
  apiGet<{ items: LoyaltyNotice[] }>('loyalty.getnotifications', {}, options);

/** SPEC §3: the progress bar's percentage (100 at the top level). */
export function progressPercent({ minValue, maxValue, expCount }: LoyaltyProgress): number {
  if (maxValue <= minValue) return 100;
  return Math.min(100, Math.max(0, Math.floor(((expCount - minValue) * 100) / (maxValue - minValue))));
}

