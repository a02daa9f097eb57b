import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { FieldErrors } from '@/lib/api/client';
import { FIELD_ERROR_CODES, type FieldErrorCode } from '@/lib/api/errors.gen';
import type { MessageParams, RuleFailure } from './messages';
import type { RuleResult } from './rules';

/**
 * SPEC §5 form strategies. `eager`: a field is checked when it loses focus, and from then on at
 * every change, so a fixed mistake clears at once. `onSubmit`: fields are checked on submit only;
 * changing a field clears its message until the next submit.
 */
export type FormStrategy = 'eager' | 'onSubmit';

type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;

/** A message on a field: a failed client rule, or a code the server sent for that field. */
export type FieldError =
  | { source: 'rule'; failure: RuleFailure }
  | { source: 'server'; code: FieldErrorCode; params?: MessageParams };

export type FormRules<V extends FormValues> = {
  [K in keyof V]?: (value: V[K], values: V) => RuleResult;
};

export interface UseFormOptions<V extends FormValues> {
  initialValues: V;
  rules?: FormRules<V>;
  strategy?: FormStrategy;
}

function isFieldErrorCode(code: string): code is FieldErrorCode {
  return (FIELD_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * Splits the server's field errors into those shown on a field of this form and the rest
 * (codes for fields the form does not show). Unknown codes show as INVALID.
 */
export function placeServerErrors<V extends FormValues>(
  fieldErrors: FieldErrors,
  fields: readonly (keyof V)[],
  params: Partial<Record<keyof V, MessageParams>> = {},
): { placed: Partial<Record<keyof V, FieldError>>; unplaced: FieldErrorCode[] } {
  const placed: Partial<Record<keyof V, FieldError>> = {};
  const unplaced: FieldErrorCode[] = [];
  for (const [field, codes] of Object.entries(fieldErrors)) {
    const first = codes[0];
    if (first === undefined) continue;
    const code = isFieldErrorCode(first) ? first : 'INVALID';
    if ((fields as readonly string[]).includes(field)) {
      const fieldParams = params[field as keyof V];
      placed[field as keyof V] = fieldParams ? { source: 'server', code, params: fieldParams } : { source: 'server', code };
    } else {
      unplaced.push(code);
    }
  }
  return { placed, unplaced };
}

export function useForm<V extends FormValues>({ initialValues, rules = {}, strategy = 'eager' }: UseFormOptions<V>) {
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<Partial<Record<keyof V, FieldError>>>({});
  const [submitting, setSubmitting] = useState(false);
  const checked = useRef(new Set<keyof V>());
  // Every change goes through setValue, which keeps this copy current for the callbacks.
  const latest = useRef(values);

  const check = useCallback(
    (name: keyof V, all: V): FieldError | undefined => {
      const failure = rules[name]?.(all[name], all);
      return failure ? { source: 'rule', failure } : undefined;
    },
    [rules],
  );

  const setError = useCallback((name: keyof V, error: FieldError | undefined) => {
    setErrors((current) => {
      if (current[name] === error) return current;
      if (error) return { ...current, [name]: error };
      return Object.fromEntries(Object.entries(current).filter(([key]) => key !== name)) as typeof current;
    });
  }, []);

  const setValue = useCallback(
    <K extends keyof V>(name: K, value: V[K]) => {
      const next = { ...latest.current, [name]: value };
      latest.current = next;
      setValues(next);
      if (strategy === 'eager' && checked.current.has(name)) setError(name, check(name, next));
      else setError(name, undefined);
    },
    [check, setError, strategy],
  );

  const blur = useCallback(
    (name: keyof V) => {
      if (strategy !== 'eager') return;
      checked.current.add(name);
      setError(name, check(name, latest.current));
    },
    [check, setError, strategy],
  );

  /** Checks every field; answers whether all passed. */
  const validate = useCallback((): boolean => {
    const all = latest.current;
    const next: Partial<Record<keyof V, FieldError>> = {};
    for (const name of Object.keys(all) as (keyof V)[]) {
      checked.current.add(name);
      const error = check(name, all);
      if (error) next[name] = error;
    }
    setErrors(next);
    return Object.keys(next).length === 0;
  }, [check]);

  const handleSubmit = useCallback(
    (onValid: (values: V) => Promise<void> | void) => (event?: FormEvent) => {
      event?.preventDefault();
      if (submitting || !validate()) return;
      setSubmitting(true);
      void Promise.resolve(onValid(latest.current)).finally(() => {
        setSubmitting(false);
      });
    },
    [submitting, validate],
  );

  /** Shows the server's field errors on their fields; answers the codes no field of the form shows. */
  const setServerErrors = useCallback(
    (fieldErrors: FieldErrors, params: Partial<Record<keyof V, MessageParams>> = {}): FieldErrorCode[] => {
      const { placed, unplaced } = placeServerErrors<V>(fieldErrors, Object.keys(latest.current), params);
      setErrors((current) => ({ ...current, ...placed }));
      return unplaced;
    },
    [],
  );

  return { values, errors, setValue, blur, validate, handleSubmit, setServerErrors, setError, submitting };
}

export type FormApi<V extends FormValues> = ReturnType<typeof useForm<V>>;
