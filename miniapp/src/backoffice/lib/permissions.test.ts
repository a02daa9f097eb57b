import { describe, expect, it } from 'vitest';
import { can, canAccess, PERMISSIONS } from './permissions';

// The contract's roles (office-contract.md "Roles → permissions").
const ROLES: Record<string, string[]> = {
  admin: [...PERMISSIONS],
  finance: ['players.read', 'balance.correct', 'balance.approve', 'withdrawals.read', 'withdrawals.decide', 'deposits.read', 'rounds.read', 'reports.read', 'audit.read', 'sportsbook.manage'],
  support: ['players.read', 'players.ban', 'players.notes', 'players.sessions', 'withdrawals.read', 'deposits.read', 'rounds.read'],
  marketing: ['players.read', 'campaigns.manage', 'reports.read'],
  content: ['content.manage'],
};

function visible(role: string): string[] {
  const resources = ['players', 'withdrawals', 'corrections', 'deposits', 'rounds', 'audit', 'refusals', 'operators', 'campaigns', 'tournaments', 'jackpots', 'cashbacks', 'feedback', 'sportsbook'];
  return resources.filter((resource) => canAccess(ROLES[role], resource, 'list'));
}

describe('permissions', () => {
  it('shows each role the lists its permissions allow', () => {
    expect(visible('admin')).toHaveLength(14);
    expect(visible('finance')).toEqual(['players', 'withdrawals', 'corrections', 'deposits', 'rounds', 'audit', 'refusals', 'feedback', 'sportsbook']);
    expect(visible('support')).toEqual(['players', 'withdrawals', 'deposits', 'rounds', 'feedback']);
    expect(visible('marketing')).toEqual(['players', 'campaigns', 'tournaments', 'jackpots', 'cashbacks', 'feedback']);
    expect(visible('content')).toEqual([]);
  });

  it('separates reading from acting', () => {
    expect(canAccess(ROLES.support, 'withdrawals', 'show')).toBe(true);
    expect(canAccess(ROLES.support, 'withdrawals', 'edit')).toBe(false);
    expect(canAccess(ROLES.finance, 'withdrawals', 'edit')).toBe(true);
    expect(canAccess(ROLES.support, 'sessions', 'delete')).toBe(true);
    expect(canAccess(ROLES.finance, 'sessions', 'delete')).toBe(false);
    expect(canAccess(ROLES.support, 'notes', 'create')).toBe(true);
    expect(canAccess(ROLES.marketing, 'notes', 'create')).toBe(false);
    expect(canAccess(ROLES.marketing, 'campaigns', 'create')).toBe(true);
    expect(canAccess(ROLES.marketing, 'campaigns', 'edit')).toBe(true);
    expect(canAccess(ROLES.support, 'campaigns', 'edit')).toBe(false);
    expect(canAccess(ROLES.admin, 'feedback', 'edit')).toBe(false);
  });

  it('refuses unknown resources and operators without permissions', () => {
    expect(canAccess(ROLES.admin, 'secrets', 'list')).toBe(false);
    expect(canAccess(undefined, 'players', 'list')).toBe(false);
    expect(can(undefined, 'players.read')).toBe(false);
    expect(can([], 'players.read')).toBe(false);
  });
});
