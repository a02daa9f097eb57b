import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import * as rules from './rules';
import { placeServerErrors, useForm } from './use-form';

const RULES = { email: (value: string) => rules.email(value), password: (value: string) => rules.password(value) };
const initialValues = { email: '', password: '' };

describe('form strategies (SPEC §5)', () => {
  it('eager: nothing shows while typing a fresh field, the field is checked on blur, then on every change', () => {
    const { result } = renderHook(() => useForm({ initialValues, rules: RULES, strategy: 'eager' }));

    act(() => {
      result.current.setValue('email', 'player');
    });
    expect(result.current.errors.email).toBeUndefined();

    act(() => {
      result.current.blur('email');
    });
    expect(result.current.errors.email).toEqual({ source: 'rule', failure: { message: 'email' } });

    act(() => {
      result.current.setValue('email', 'player@example.com');
    });
    expect(result.current.errors.email).toBeUndefined();
  });

  it('onSubmit: fields are checked only on submit; a change clears its message', () => {
    const { result } = renderHook(() => useForm({ initialValues, rules: RULES, strategy: 'onSubmit' }));

    act(() => {
      result.current.setValue('email', 'player');
      result.current.blur('email');
    });
    expect(result.current.errors).toEqual({});

    let valid = true;
    act(() => {
      valid = result.current.validate();
    });
    expect(valid).toBe(false);
    expect(result.current.errors.email?.source).toBe('rule');
    expect(result.current.errors.password).toEqual({ source: 'rule', failure: { message: 'required' } });

    act(() => {
      result.current.setValue('email', 'player@');
    });
    expect(result.current.errors.email).toBeUndefined();
  });

  it('shows server codes on their fields and hands back the codes no field shows', () => {
    const { result } = renderHook(() => useForm({ initialValues, rules: RULES }));
    let unplaced: string[] = [];
    act(() => {
      unplaced = result.current.setServerErrors(
        { password: ['WRONG_CREDENTIALS'], code: ['CODE_INVALID'] },
        { password: { min: 6 } },
      );
    });
    expect(result.current.errors.password).toEqual({ source: 'server', code: 'WRONG_CREDENTIALS', params: { min: 6 } });
    expect(unplaced).toEqual(['CODE_INVALID']);
  });

  it('treats an unknown server code as INVALID', () => {
    expect(placeServerErrors({ email: ['SOMETHING_NEW'] }, ['email']).placed.email).toEqual({
      source: 'server',
      code: 'INVALID',
    });
  });
});
