export * as rules from './rules';
export { applyMask, isMaskComplete, unmask } from './mask';
export { DEFAULT_MESSAGES, formatMessage, type MessageKey, type MessageParams, type RuleFailure } from './messages';
export type { RuleResult } from './rules';
export { placeServerErrors, useForm, type FieldError, type FormApi, type FormStrategy } from './use-form';
export { useFieldErrorMessage } from './use-field-error-message';
