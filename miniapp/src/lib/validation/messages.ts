/**
 * SPEC §5 default messages, word for word (the first sixteen), then the messages SPEC names
 * without quoting them. `$$name$$` placeholders are filled by `formatMessage`. The English
 * locale file repeats these exactly (a test holds them together); French translates them.
 */
export const DEFAULT_MESSAGES = {
  required: 'Field is required',
  email: 'Wrong email address',
  minLength: 'Min length is $$min$$',
  maxLength: 'Max length is $$max$$',
  phone: 'Wrong phone number',
  fakename: 'Wrong fake name',
  password: 'Wrong password',
  name: 'Wrong symbols in name',
  address: 'Wrong address',
  iban: 'Wrong iban',
  sameAs: 'Same as field',
  regex: 'Field regex',
  cardNumber: 'Field Card number',
  minValue: 'Min value is $$min$$',
  maxValue: 'Max value is $$max$$',
  date: 'Wrong date',
  insertPhone: 'Insert phone number',
  wrongPhoneFormat: 'Wrong phone format',
  insertEmail: 'Insert email',
  wrongField: 'Wrong field',
  sumRange: 'Enter an amount from $$min$$ to $$max$$',
  passwordChars: 'Password must not contain: $$chars$$',
  space: 'space',
  unchecked: 'Unchecked checkbox',
  codeLength: 'The code must contain 6 digits',
  smsCode: 'Wrong SMS code',
} as const;

export type MessageKey = keyof typeof DEFAULT_MESSAGES;

export type MessageParams = Readonly<Record<string, string | number>>;

/** What a rule says when a value fails: which message, and what fills its placeholders. */
export interface RuleFailure {
  message: MessageKey;
  params?: MessageParams;
}

/** Fills `$$name$$` placeholders; unknown ones stay as they are. */
export function formatMessage(template: string, params: MessageParams = {}): string {
  return template.replace(/\$\$(\w+)\$\$/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
