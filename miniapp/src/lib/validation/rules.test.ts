import { describe, expect, it } from 'vitest';
import en from '@/locales/en.json';
import { DEFAULT_MESSAGES, formatMessage, type RuleFailure } from './messages';
import * as rules from './rules';

/** The English text a failure shows (null when the value passes). */
function say(result: RuleFailure | null): string | null {
  return result ? formatMessage(DEFAULT_MESSAGES[result.message], result.params) : null;
}

describe('default messages (SPEC §5, word for word)', () => {
  it.each([
    ['required', 'Field is required'],
    ['email', 'Wrong email address'],
    ['minLength', 'Min length is $$min$$'],
    ['maxLength', 'Max length is $$max$$'],
    ['phone', 'Wrong phone number'],
    ['fakename', 'Wrong fake name'],
    ['password', 'Wrong password'],
    ['name', 'Wrong symbols in name'],
    ['address', 'Wrong address'],
    ['iban', 'Wrong iban'],
    ['sameAs', 'Same as field'],
    ['regex', 'Field regex'],
    ['cardNumber', 'Field Card number'],
    ['minValue', 'Min value is $$min$$'],
    ['maxValue', 'Max value is $$max$$'],
    ['date', 'Wrong date'],
  ] as const)('%s is "%s"', (key, text) => {
    expect(DEFAULT_MESSAGES[key]).toBe(text);
  });

  it('are what the English locale shows', () => {
    expect(en.validation).toEqual(DEFAULT_MESSAGES);
  });

  it('fill $$placeholders$$ and leave unknown ones', () => {
    expect(formatMessage('Min length is $$min$$', { min: 6 })).toBe('Min length is 6');
    expect(formatMessage('From $$min$$ to $$max$$', { min: 1 })).toBe('From 1 to $$max$$');
  });
});

describe('length and value rules', () => {
  it('minLength / maxLength count characters', () => {
    expect(say(rules.minLength('abc', 4))).toBe('Min length is 4');
    expect(say(rules.minLength('abcd', 4))).toBeNull();
    expect(say(rules.maxLength('abcdef', 5))).toBe('Max length is 5');
    expect(say(rules.maxLength('ééééé', 5))).toBeNull();
  });

  it('minValue / maxValue', () => {
    expect(say(rules.minValue(4, 5))).toBe('Min value is 5');
    expect(say(rules.maxValue(11, 10))).toBe('Max value is 10');
    expect(say(rules.minValue(5, 5))).toBeNull();
  });

  it('sameAs, regex', () => {
    expect(say(rules.sameAs('a', 'b'))).toBe('Same as field');
    expect(say(rules.sameAs('a', 'a'))).toBeNull();
    expect(say(rules.regex('abc', /^\d+$/))).toBe('Field regex');
    expect(say(rules.regex('123', /^\d+$/))).toBeNull();
  });
});

describe('sum: a positive integer without leading zero, within min and max', () => {
  const bounds = { min: 10, max: 5000 };

  it('accepts a whole amount within the bounds', () => {
    expect(say(rules.sum('10', bounds))).toBeNull();
    expect(say(rules.sum('5000', bounds))).toBeNull();
  });

  it.each(['', '0', '012', '-5', '10.5', '1,000', 'ten', '1e3'])('gives the wrong-field message for %j', (value) => {
    expect(say(rules.sum(value, bounds))).toBe('Wrong field');
  });

  it('shows both bounds in the currency, USD by default', () => {
    expect(say(rules.sum('9', bounds))).toBe('Enter an amount from $10.00 to $5,000.00');
    expect(say(rules.sum('5001', bounds))).toBe('Enter an amount from $10.00 to $5,000.00');
    expect(say(rules.sum('1', { ...bounds, currency: 'EUR', locale: 'fr' }))).toBe(
      'Enter an amount from 10,00\u00a0€ to 5\u202f000,00\u00a0€',
    );
  });
});

describe('name, first_name, last_name', () => {
  it('accepts names with letters, spaces and hyphens', () => {
    expect(say(rules.name('Jean-Luc Picard'))).toBeNull();
    expect(say(rules.name('Анна'))).toBeNull();
  });

  it('gives the required message when empty', () => {
    expect(say(rules.name(''))).toBe('Field is required');
    expect(say(rules.name('  '))).toBe('Field is required');
  });

  it.each(Array.from(`0123456789@_'"!?#$%^&*(){}[]|/\\<>~§+:;\``))('refuses %j', (char) => {
    expect(say(rules.name(`Ann${char}a`))).toBe('Wrong symbols in name');
  });

  it('has a letters-only variant for Latin, Cyrillic and Latvian letters with common punctuation', () => {
    expect(say(rules.nameLetters('Jānis Bērziņš'))).toBeNull();
    expect(say(rules.nameLetters("O'Neil, Jr."))).toBeNull();
    expect(say(rules.nameLetters('Ольга'))).toBeNull();
    expect(say(rules.nameLetters('Zoë'))).toBe('Wrong symbols in name');
    expect(say(rules.nameLetters('R2D2'))).toBe('Wrong symbols in name');
  });
});

describe('address: the name set except digits, | and /', () => {
  it('accepts digits, | and /', () => {
    expect(say(rules.address('12/3 Main St | Flat 4'))).toBeNull();
  });

  it.each(Array.from(`@_'"!?#$%^&*(){}[]\\<>~§+:;\``))('refuses %j', (char) => {
    expect(say(rules.address(`Main ${char} St`))).toBe('Wrong address');
  });

  it('is required', () => {
    expect(say(rules.address(''))).toBe('Field is required');
  });
});

describe('text, login, cardHolder, documentType, documentNumber, cpf', () => {
  it('are required unless isRequired is false', () => {
    expect(say(rules.text(''))).toBe('Field is required');
    expect(say(rules.text('x'))).toBeNull();
    expect(say(rules.text('', { isRequired: false }))).toBeNull();
  });
});

describe('postcode: a custom regex or up to 8 digits', () => {
  it('takes up to 8 digits by default', () => {
    expect(say(rules.postcode('75001'))).toBeNull();
    expect(say(rules.postcode('12345678'))).toBeNull();
    expect(say(rules.postcode('123456789'))).toBe('Field regex');
    expect(say(rules.postcode('SW1A 1AA'))).toBe('Field regex');
  });

  it('uses the configured pattern instead when there is one', () => {
    const uk = /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i;
    expect(say(rules.postcode('SW1A 1AA', uk))).toBeNull();
    expect(say(rules.postcode('75001', uk))).toBe('Field regex');
  });
});

describe('phone', () => {
  it('needs a value, else "insert phone number"', () => {
    expect(say(rules.phone('', false))).toBe('Insert phone number');
  });

  it('needs the valid flag, else "wrong phone format"', () => {
    expect(say(rules.phone('123', false))).toBe('Wrong phone format');
    expect(say(rules.phone('5551234567', true))).toBeNull();
  });

  it('computes the flag from country code and number (E.164, 8 to 15 digits)', () => {
    expect(rules.isPhoneNumberValid('+1', '(555) 123-4567')).toBe(true);
    expect(rules.isPhoneNumberValid('33', '612345678')).toBe(true);
    expect(rules.isPhoneNumberValid('1', '12345')).toBe(false);
    expect(rules.isPhoneNumberValid('0', '5551234567')).toBe(false);
    expect(rules.isPhoneNumberValid('1', '5551234567890123')).toBe(false);
    expect(rules.isPhoneNumberValid('1', '555abc4567')).toBe(false);
  });
});

describe('email: local part, domain and one or two further parts, no spaces', () => {
  it('gives an insert-email message when empty', () => {
    expect(say(rules.email(''))).toBe('Insert email');
  });

  it.each(['player@example.com', 'a.b+c@mail.example.co', 'x@y.fr'])('accepts %s', (value) => {
    expect(say(rules.email(value))).toBeNull();
  });

  it.each(['player', 'player@', '@example.com', 'player@example', 'pla yer@example.com', 'a@b.c.d.e', 'a@@b.com'])(
    'refuses %s',
    (value) => {
      expect(say(rules.email(value))).toBe('Wrong email address');
    },
  );
});

describe('password: required, 6 to 20, allowed characters, equal to the previous one', () => {
  it('is required', () => {
    expect(say(rules.password(''))).toBe('Field is required');
  });

  it('has min 6 and max 20', () => {
    expect(say(rules.password('abc12'))).toBe('Min length is 6');
    expect(say(rules.password('abc123'))).toBeNull();
    expect(say(rules.password('a'.repeat(20)))).toBeNull();
    expect(say(rules.password('a'.repeat(21)))).toBe('Max length is 20');
  });

  it('lists the disallowed characters, with a word for space', () => {
    expect(say(rules.password('pass word'))).toBe('Password must not contain: space');
    expect(say(rules.password('mot de passé'))).toBe('Password must not contain: space, é');
    expect(say(rules.password('mot de passe', { spaceWord: 'espace' }))).toBe('Password must not contain: espace');
  });

  it('must equal the previous password when a repeat is given', () => {
    expect(say(rules.password('secret12', { repeatOf: 'secret13' }))).toBe('Same as field');
    expect(say(rules.password('secret12', { repeatOf: 'secret12' }))).toBeNull();
  });
});

describe('fakename: at least 4, no special symbols, comma, space, underscore, quotes or hyphen', () => {
  it('accepts letters and digits', () => {
    expect(say(rules.fakename('Ace777'))).toBeNull();
  });

  it('has a minimum of 4', () => {
    expect(say(rules.fakename('Ace'))).toBe('Min length is 4');
  });

  it.each(['Ace,7', 'Ace 7', 'Ace_7', 'Ace"7', "Ace'7", 'Ace-7', 'Ace!7', 'Ace@7'])('refuses %s', (value) => {
    expect(say(rules.fakename(value))).toBe('Wrong fake name');
  });
});

describe('cardHolder: only letters, space, dot, apostrophe, hyphen', () => {
  it('accepts a holder name', () => {
    expect(say(rules.cardHolder("J. O'Neil-Smith"))).toBeNull();
  });

  it('refuses digits and symbols', () => {
    expect(say(rules.cardHolder('John 2'))).toBe('Wrong field');
    expect(say(rules.cardHolder('John_Smith'))).toBe('Wrong field');
  });
});

describe('date: four-digit year between min and max, only digits and , . \' -', () => {
  const years = { min: 1900, max: 2026 };

  it('accepts a date within the years', () => {
    expect(say(rules.date('05.01.1990', years))).toBeNull();
    expect(say(rules.date('1990-01-05', years))).toBeNull();
  });

  it('refuses a year out of bounds, a short year and other characters', () => {
    expect(say(rules.date('05.01.1899', years))).toBe('Wrong date');
    expect(say(rules.date('05.01.2027', years))).toBe('Wrong date');
    expect(say(rules.date('05.01.90', years))).toBe('Wrong date');
    expect(say(rules.date('05/01/1990', years))).toBe('Wrong date');
  });
});

describe('small rules', () => {
  it('sex is non-empty', () => {
    expect(say(rules.sex(''))).toBe('Field is required');
    expect(say(rules.sex('1'))).toBeNull();
  });

  it('promo is always valid', () => {
    expect(say(rules.promo())).toBeNull();
  });

  it('a checkbox must be checked', () => {
    expect(say(rules.checkbox(false))).toBe('Unchecked checkbox');
    expect(say(rules.checkbox(true))).toBeNull();
  });

  it('custom is a regex, or non-empty', () => {
    expect(say(rules.custom('abc', /^\d+$/))).toBe('Field regex');
    expect(say(rules.custom(''))).toBe('Field is required');
    expect(say(rules.custom('x'))).toBeNull();
  });
});

describe('codes', () => {
  it('a confirmation code is required, digits only, exactly 6', () => {
    expect(say(rules.confirmationCode(''))).toBe('Field is required');
    expect(say(rules.confirmationCode('12345'))).toBe('The code must contain 6 digits');
    expect(say(rules.confirmationCode('12345a'))).toBe('The code must contain 6 digits');
    expect(say(rules.confirmationCode('1234567'))).toBe('The code must contain 6 digits');
    expect(say(rules.confirmationCode(' 123456 '))).toBeNull();
  });

  it('a two-factor code needs 6 digits', () => {
    expect(say(rules.twoFactorCode(''))).toBe('The code must contain 6 digits');
    expect(say(rules.twoFactorCode('12 456'))).toBe('The code must contain 6 digits');
    expect(say(rules.twoFactorCode('123456'))).toBeNull();
  });
});

describe('iban and card number', () => {
  it('checks an IBAN with mod 97', () => {
    expect(say(rules.iban('GB82 WEST 1234 5698 7654 32'))).toBeNull();
    expect(say(rules.iban('GB82 WEST 1234 5698 7654 33'))).toBe('Wrong iban');
    expect(say(rules.iban('not an iban'))).toBe('Wrong iban');
  });

  it('checks a card number with Luhn', () => {
    expect(say(rules.cardNumber('4111 1111 1111 1111'))).toBeNull();
    expect(say(rules.cardNumber('4111 1111 1111 1112'))).toBe('Field Card number');
    expect(say(rules.cardNumber('4111'))).toBe('Field Card number');
  });
});
