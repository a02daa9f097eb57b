import { describe, expect, it } from 'vitest';
import { applyMask, isMaskComplete, unmask } from './mask';

describe('input masks: # digit, @ letter, * letter or digit', () => {
  it('# takes digits only', () => {
    expect(applyMask('4111111111111111', '#### #### #### ####')).toBe('4111 1111 1111 1111');
    expect(applyMask('41a1', '####')).toBe('411');
  });

  it('@ takes letters only', () => {
    expect(applyMask('ab12cd', '@@-@@')).toBe('ab-cd');
  });

  it('* takes letters or digits', () => {
    expect(applyMask('a1-b2', '**-**')).toBe('a1-b2');
    expect(applyMask('a1!b2', '****')).toBe('a1b2');
  });

  it('writes literals only when a following token is filled', () => {
    expect(applyMask('916', '+7 (###) ###-##-##')).toBe('+7 (916');
    expect(applyMask('9161', '+7 (###) ###-##-##')).toBe('+7 (916) 1');
    expect(applyMask('', '+7 (###) ###')).toBe('');
  });

  it('re-applies cleanly to an already masked value', () => {
    const masked = applyMask('9161234567', '+7 (###) ###-##-##');
    expect(masked).toBe('+7 (916) 123-45-67');
    expect(applyMask(masked, '+7 (###) ###-##-##')).toBe(masked);
    expect(unmask(masked, '+7 (###) ###-##-##')).toBe('9161234567');
  });

  it('knows when every token is filled', () => {
    expect(isMaskComplete('12.03.1990', '##.##.####')).toBe(true);
    expect(isMaskComplete('12.03.199', '##.##.####')).toBe(false);
  });
});
