import { describe, expect, it } from 'vitest';
import { changedFields, profileValues } from './settings-page';

describe('personal data', () => {
  it('sends only the fields that changed', () => {
    const initial = profileValues({ first_name: 'Ann', last_name: null, sex: 2 } as never);
    expect(initial.sex).toBe('2');
    expect(changedFields(initial, { ...initial, last_name: ' Lee ', first_name: 'Ann ' })).toEqual({ last_name: 'Lee' });
  });
});
