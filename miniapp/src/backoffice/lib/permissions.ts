// What an operator may do, from the `permissions` their session answers. The console hides what
// an operator may not do; the server is the authority and refuses (and audits) it anyway.

export const PERMISSIONS = [
  'players.read',
  'players.ban',
  'players.notes',
  'players.sessions',
  'balance.correct',
  'balance.approve',
  'withdrawals.read',
  'withdrawals.decide',
  'deposits.read',
  'rounds.read',
  'campaigns.manage',
  'content.manage',
  'sportsbook.manage',
  'reports.read',
  'audit.read',
  'operators.manage',
  'system.manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export type Permissions = readonly string[] | undefined;

export function can(permissions: Permissions, permission: Permission): boolean {
  return permissions?.includes(permission) ?? false;
}

export function canAny(permissions: Permissions, wanted: readonly Permission[]): boolean {
  return wanted.some((permission) => can(permissions, permission));
}

/** Read and write permissions of each resource (any one of a list is enough). */
const RESOURCE_RULES: Record<string, { read: Permission[]; write: Permission[] }> = {
  players: { read: ['players.read'], write: [] },
  sessions: { read: ['players.read'], write: ['players.sessions'] },
  notes: { read: ['players.read'], write: ['players.notes'] },
  ledger: { read: ['players.read'], write: [] },
  bonuses: { read: ['players.read'], write: [] },
  deposits: { read: ['deposits.read'], write: [] },
  rounds: { read: ['rounds.read'], write: [] },
  withdrawals: { read: ['withdrawals.read'], write: ['withdrawals.decide'] },
  corrections: { read: ['balance.correct', 'balance.approve'], write: ['balance.correct'] },
  audit: { read: ['audit.read'], write: [] },
  refusals: { read: ['audit.read'], write: [] },
  operators: { read: ['operators.manage'], write: ['operators.manage'] },
  campaigns: { read: ['campaigns.manage'], write: ['campaigns.manage'] },
  tournaments: { read: ['campaigns.manage'], write: ['campaigns.manage'] },
  jackpots: { read: ['campaigns.manage'], write: ['campaigns.manage'] },
  cashbacks: { read: ['campaigns.manage'], write: ['campaigns.manage'] },
  // Support messages (`/admin/support/feedback`): read by whoever reads players.
  feedback: { read: ['players.read'], write: [] },
  // Sportsbook markets (`/admin/sportsbook/...`): liability, holds, results by hand, limits.
  sportsbook: { read: ['sportsbook.manage'], write: ['sportsbook.manage'] },
  // Bets at external sportsbook providers (`/admin/sportsbook/provider-bets`): read-only.
  provider_bets: { read: ['sportsbook.manage'], write: [] },
};

const READ_ACTIONS = new Set(['list', 'show', 'export']);

/** react-admin's `canAccess`: may these permissions do `action` on `resource`? Unknown resources: no. */
export function canAccess(permissions: Permissions, resource: string, action: string): boolean {
  const rules = RESOURCE_RULES[resource];
  if (!rules) return false;
  return canAny(permissions, READ_ACTIONS.has(action) ? rules.read : rules.write);
}
