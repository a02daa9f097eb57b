//! SPEC §5 "Validation rules", enforced on the server.
//!
//! The client validates as the player types; these functions repeat every check on what actually
//! arrives, so a hand-made request cannot store what the forms would refuse. Each rule returns
//! `Ok(())` or one [`RuleError`]: the [`FieldCode`] sent in `error_data` (`{"field":["CODE"]}`)
//! plus the values of its message's `$$placeholders$$` (`min`, `max`, …). Limits are SPEC §9's.
//!
//! Conventions shared by every rule (SPEC leaves them open; decided here once):
//! - A value that is empty or only whitespace is "missing" and gives [`FieldCode::Required`],
//!   except where a rule says otherwise ([`two_factor_code`], [`checkbox`], optional [`text`]).
//! - Lengths are counted in characters (Unicode scalar values), never bytes, and all slicing is by
//!   character, so no input can make a rule panic.
//! - Rules with a fixed format (email, phone, postcode, codes, sum, date, CPF, IBAN, card number)
//!   ignore surrounding whitespace; free-text rules (password, fakename) do not, because a space
//!   there is itself a refused character.
//! - When a value breaks several constraints, length is reported before content (as the password
//!   rule lists them), so a player fixes one thing at a time.
//!
//! Pure std: no regex engine, only small hand-written checks.

use croupier_shared::{FieldCode, Locale};

/// One rule failure: the code and the values filling its message's $$placeholders$$.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub code: FieldCode,
    pub params: Vec<(&'static str, String)>,
}

impl RuleError {
    /// A failure whose message has no placeholder.
    pub fn new(code: FieldCode) -> Self {
        Self { code, params: Vec::new() }
    }

    /// A failure with one placeholder value (`min`, `max`, `chars`, `length`).
    pub fn with(code: FieldCode, name: &'static str, value: impl ToString) -> Self {
        Self { code, params: vec![(name, value.to_string())] }
    }

    /// The localized message with its placeholders filled.
    pub fn message(&self, locale: Locale) -> String {
        let params: Vec<(&str, &str)> = self.params.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.code.message(locale, &params)
    }
}

pub type RuleResult = Result<(), RuleError>;

/// SPEC §9: password length bounds.
pub const PASSWORD_MIN: usize = 6;
pub const PASSWORD_MAX: usize = 20;
/// SPEC §9: fakename minimum.
pub const FAKENAME_MIN: usize = 4;
/// Not in SPEC: our decision. Long enough for any nickname, short enough for leaderboards and
/// chat lines; the database column is sized to it.
pub const FAKENAME_MAX: usize = 32;
/// SPEC §9: confirmation (and two-factor) codes have 6 digits.
pub const CODE_LENGTH: usize = 6;
/// RFC 5321 limits, counted here in characters: whole address and local part.
pub const EMAIL_MAX: usize = 254;
pub const EMAIL_LOCAL_MAX: usize = 64;
/// Not in SPEC: our limits for first/last name and address.
pub const NAME_MAX: usize = 64;
pub const ADDRESS_MAX: usize = 128;
/// SPEC §9: postcode is up to 8 digits.
pub const POSTCODE_MAX_DIGITS: usize = 8;
/// E.164: a full international number (country code + national number) has at most 15 digits;
/// 8 is our floor (the shortest real numbers with their country code).
pub const PHONE_MIN_DIGITS: usize = 8;
pub const PHONE_MAX_DIGITS: usize = 15;
/// Not in SPEC: the earliest birth year [`adult_birth_date`] accepts.
pub const BIRTH_YEAR_MIN: i32 = 1900;

/// The rules as the OpenAPI document states them (JSON Schema `pattern`s, ECMA-262 syntax, matched
/// anywhere unless anchored). Each accepts every value its rule accepts; where JSON Schema cannot
/// say a rule exactly the pattern is wider and the field's description says so.
pub mod schema {
    /// Not blank: [`super::text`]'s "empty or only whitespace is missing".
    pub const NOT_BLANK: &str = r"\S";
    /// [`super::password`]: printable ASCII without the space, [`super::PASSWORD_MIN`] to
    /// [`super::PASSWORD_MAX`] characters.
    pub const PASSWORD: &str = r"^[!-~]{6,20}$";
    /// [`super::fakename`], wider: [`super::FAKENAME_MIN`] to [`super::FAKENAME_MAX`] ASCII
    /// letters and digits or non-ASCII characters (the rule takes only the alphabetic ones of
    /// those; Unicode property classes are left out, as fuzzers cannot draw from them).
    pub const FAKENAME: &str = r"^[^\x00-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]{4,32}$";
    /// [`super::checkbox`]: `1`, `true` or `on`, any ASCII case, surrounding whitespace ignored.
    pub const CHECKBOX: &str = r"^\s*(1|[Tt][Rr][Uu][Ee]|[Oo][Nn])\s*$";
    /// [`super::confirmation_code`] and the codes of `codes::check_format`: 6 ASCII digits
    /// ([`super::CODE_LENGTH`]); surrounding whitespace is ignored.
    pub const CODE: &str = r"^\s*[0-9]{6}\s*$";
    /// [`super::email`], wider: a local part without whitespace, control characters or
    /// `@ < > ( ) [ ] \ , ; : "`, an `@`, and two or three dot-separated labels of ASCII letters,
    /// digits, `-` or non-ASCII characters, the last one of two or more, not all digits;
    /// surrounding whitespace ignored. (Not stated: the dots of the local part, `-` at a label's
    /// ends, the lengths, and which non-ASCII characters are letters.)
    pub const EMAIL: &str = concat!(
        r#"^\s*[^\s\x00-\x1F\x7F-\x9F@<>()\[\]\\,;:"]+@"#,
        r"([^\x00-\x2C\x2E\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+\.){1,2}",
        // The last label: a character that is no digit, with one more before or after it.
        r"([^\x00-\x2C\x2E\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+[^\x00-\x2C\x2E-\x40\x5B-\x60\x7B-\x7F]",
        r"|[^\x00-\x2C\x2E-\x40\x5B-\x60\x7B-\x7F][^\x00-\x2C\x2E\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+)",
        r"[^\x00-\x2C\x2E\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]*\s*$"
    );
    /// [`super::name`], wider only in that a blank value passes: no digits, control characters
    /// or SPEC's symbols, 1 to [`super::NAME_MAX`] characters.
    /// Wider also in letting non-ASCII digits through (the rule refuses every numeric character).
    pub const NAME: &str = r"^[^0-9\x00-\x1F\x7F-\x9F@_'\x22!?#$%^&*(){}\[\]|/\\<>~§+:;`]{1,64}$";
    /// [`super::address`], wider only in that a blank value passes: the name rule's symbols but
    /// `|` and `/` (digits allowed), 1 to [`super::ADDRESS_MAX`] characters.
    pub const ADDRESS: &str = r"^[^\x00-\x1F\x7F-\x9F@_'\x22!?#$%^&*(){}\[\]\\<>~§+:;`]{1,128}$";
    /// [`super::postcode`] without a configured pattern: 1 to [`super::POSTCODE_MAX_DIGITS`]
    /// ASCII digits, surrounding whitespace ignored.
    pub const POSTCODE: &str = r"^\s*[0-9]{1,8}\s*$";
}

/// The symbols SPEC forbids in names (besides digits): @ _ quote ! ? # $ % ^ & * ( ) { } [ ] | / \
/// < > ~ § + : ; backtick. "Quote" is taken as both the apostrophe and the double quote.
const NAME_FORBIDDEN: &[char] = &[
    '@', '_', '\'', '"', '!', '?', '#', '$', '%', '^', '&', '*', '(', ')', '{', '}', '[', ']', '|', '/', '\\', '<',
    '>', '~', '§', '+', ':', ';', '`',
];

fn fail(code: FieldCode) -> RuleResult {
    Err(RuleError::new(code))
}

fn fail_with(code: FieldCode, name: &'static str, value: impl ToString) -> RuleResult {
    Err(RuleError::with(code, name, value))
}

fn is_blank(value: &str) -> bool {
    value.trim().is_empty()
}

fn char_len(value: &str) -> usize {
    value.chars().count()
}

fn all_ascii_digits(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit())
}

/// Length bounds shared by several rules: `MinLength{min}` / `MaxLength{max}`.
fn length_within(value: &str, min: usize, max: usize) -> RuleResult {
    let len = char_len(value);
    if len < min {
        return fail_with(FieldCode::MinLength, "min", min);
    }
    if len > max {
        return fail_with(FieldCode::MaxLength, "max", max);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Email
// ---------------------------------------------------------------------------------------------

/// SPEC: "local part, a domain and one or two further dot-separated parts, no spaces".
///
/// So after the `@` come two or three labels (`mail.com`, `mail.co.uk`), a deeper host is refused
/// as SPEC words it. Local part: 1..=64 characters, no whitespace or control characters, none of
/// `@ < > ( ) [ ] \ , ; : "`, no leading, trailing or doubled dot. Domain labels: letters (any
/// script) or digits or `-`, not starting or ending with `-`, at most 63 characters; the last
/// label has at least 2 characters and is not all digits. Whole address at most 254 characters
/// (`MaxLength`); every other failure is `Email`. Surrounding whitespace is ignored, as
/// [`normalize_email`] removes it.
pub fn email(value: &str) -> RuleResult {
    let value = value.trim();
    if value.is_empty() {
        return fail(FieldCode::Required);
    }
    if char_len(value) > EMAIL_MAX {
        return fail_with(FieldCode::MaxLength, "max", EMAIL_MAX);
    }
    let Some((local, domain)) = value.split_once('@') else {
        return fail(FieldCode::Email);
    };
    if valid_email_local(local) && valid_email_domain(domain) { Ok(()) } else { fail(FieldCode::Email) }
}

fn valid_email_local(local: &str) -> bool {
    const FORBIDDEN: &[char] = &['@', '<', '>', '(', ')', '[', ']', '\\', ',', ';', ':', '"'];
    let len = char_len(local);
    (1..=EMAIL_LOCAL_MAX).contains(&len)
        && !local.chars().any(|c| c.is_whitespace() || c.is_control() || FORBIDDEN.contains(&c))
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
}

fn valid_email_domain(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    if !(2..=3).contains(&labels.len()) {
        return false;
    }
    let labels_ok = labels.iter().all(|label| {
        (1..=63).contains(&char_len(label))
            && label.chars().all(|c| c.is_alphanumeric() || c == '-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    });
    let tld_ok = labels.last().is_some_and(|tld| char_len(tld) >= 2 && !tld.chars().all(|c| c.is_ascii_digit()));
    labels_ok && tld_ok
}

/// The stored form of an address: surrounding whitespace removed, the whole address lowercased
/// (so `John@Mail.com` and `john@mail.com` are one account).
pub fn normalize_email(value: &str) -> String {
    value.trim().to_lowercase()
}

// ---------------------------------------------------------------------------------------------
// Phone
// ---------------------------------------------------------------------------------------------

/// SPEC: a phone needs a value (`Required`) and must be valid (`Phone`).
///
/// `country_code`: 1–3 ASCII digits, not starting with 0, an optional leading `+`. `number`:
/// ASCII digits once spaces, dashes, dots and parentheses are removed. Together they make an
/// E.164 number of [`PHONE_MIN_DIGITS`]..=[`PHONE_MAX_DIGITS`] digits.
pub fn phone(country_code: &str, number: &str) -> RuleResult {
    if is_blank(number) {
        return fail(FieldCode::Required);
    }
    let cc = country_code.trim();
    let cc = cc.strip_prefix('+').unwrap_or(cc);
    let cc_ok = (1..=3).contains(&cc.len()) && all_ascii_digits(cc) && !cc.starts_with('0');
    let national: String = number.trim().chars().filter(|c| !is_phone_separator(*c)).collect();
    let total = cc.len() + national.len();
    if cc_ok && all_ascii_digits(&national) && (PHONE_MIN_DIGITS..=PHONE_MAX_DIGITS).contains(&total) {
        Ok(())
    } else {
        fail(FieldCode::Phone)
    }
}

fn is_phone_separator(c: char) -> bool {
    matches!(c, ' ' | '-' | '.' | '(' | ')')
}

/// The stored (and login) form: digits only, country code first, no `+`
/// (SPEC §7: login is a phone without a leading +). Meaningful only for a value [`phone`] accepts.
pub fn normalize_phone(country_code: &str, number: &str) -> String {
    country_code.chars().chain(number.chars()).filter(char::is_ascii_digit).collect()
}

// ---------------------------------------------------------------------------------------------
// Password, fakename
// ---------------------------------------------------------------------------------------------

/// SPEC: required, minimum 6, maximum 20, only allowed characters — printable ASCII without the
/// space (0x21..=0x7E). A refusal carries `chars`: the distinct refused characters in order of
/// first appearance, joined by ", ", a space shown as the word "space" and any other whitespace
/// or control character as its code point (`U+0009`), so the message never holds invisible text.
pub fn password(value: &str) -> RuleResult {
    if is_blank(value) {
        return fail(FieldCode::Required);
    }
    length_within(value, PASSWORD_MIN, PASSWORD_MAX)?;
    let mut refused: Vec<char> = Vec::new();
    for c in value.chars().filter(|c| !('\u{21}'..='\u{7e}').contains(c)) {
        if !refused.contains(&c) {
            refused.push(c);
        }
    }
    if refused.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = refused.into_iter().map(show_char).collect();
    fail_with(FieldCode::Password, "chars", shown.join(", "))
}

fn show_char(c: char) -> String {
    if c == ' ' {
        "space".to_owned()
    } else if c.is_whitespace() || c.is_control() {
        format!("U+{:04X}", u32::from(c))
    } else {
        c.to_string()
    }
}

/// SPEC: the repeat must equal the password (`SameAs`). Exact comparison, nothing trimmed.
pub fn password_repeat(password: &str, repeat: &str) -> RuleResult {
    if password == repeat { Ok(()) } else { fail(FieldCode::SameAs) }
}

/// SPEC: at least 4 characters, no special symbols, comma, space, underscore, quotes or hyphen.
///
/// Read as: letters of any script and ASCII digits only (`Fakename`), 4 ([`FAKENAME_MIN`]) to
/// 32 ([`FAKENAME_MAX`], our decision) characters. Empty gives `Required`.
pub fn fakename(value: &str) -> RuleResult {
    if is_blank(value) {
        return fail(FieldCode::Required);
    }
    length_within(value, FAKENAME_MIN, FAKENAME_MAX)?;
    if value.chars().all(|c| c.is_alphabetic() || c.is_ascii_digit()) { Ok(()) } else { fail(FieldCode::Fakename) }
}

// ---------------------------------------------------------------------------------------------
// Names, address, postcode, free text, card holder
// ---------------------------------------------------------------------------------------------

/// SPEC name / first_name / last_name: no digits and none of
/// `@ _ ' " ! ? # $ % ^ & * ( ) { } [ ] | / \ < > ~ § + : ; `` ` `` (`Name`); control characters
/// are refused too. Empty gives `Required`; more than [`NAME_MAX`] characters `MaxLength`.
pub fn name(value: &str) -> RuleResult {
    if is_blank(value) {
        return fail(FieldCode::Required);
    }
    length_within(value, 1, NAME_MAX)?;
    let bad = value.chars().any(|c| c.is_numeric() || c.is_control() || NAME_FORBIDDEN.contains(&c));
    if bad { fail(FieldCode::Name) } else { Ok(()) }
}

/// SPEC address: the name rule's forbidden set except digits, `|` and `/` (so "12/3 Main St"
/// passes), and `Address` as the code. Empty gives `Required`; more than [`ADDRESS_MAX`]
/// characters `MaxLength`.
pub fn address(value: &str) -> RuleResult {
    if is_blank(value) {
        return fail(FieldCode::Required);
    }
    length_within(value, 1, ADDRESS_MAX)?;
    let bad = value.chars().any(|c| c.is_control() || (NAME_FORBIDDEN.contains(&c) && c != '|' && c != '/'));
    if bad { fail(FieldCode::Address) } else { Ok(()) }
}

/// SPEC: a postcode matches the configured custom pattern, else 1 to 8 ASCII digits (`Regex`).
/// Surrounding whitespace is removed before either check; empty gives `Required`.
pub fn postcode(value: &str, custom: Option<&dyn Fn(&str) -> bool>) -> RuleResult {
    let value = value.trim();
    if value.is_empty() {
        return fail(FieldCode::Required);
    }
    let ok = match custom {
        Some(matches) => matches(value),
        None => value.len() <= POSTCODE_MAX_DIGITS && all_ascii_digits(value),
    };
    if ok { Ok(()) } else { fail(FieldCode::Regex) }
}

/// SPEC text, login, cardHolder (presence), documentType, documentNumber, cpf (presence):
/// required unless `is_required` is false; no other constraint.
pub fn text(value: &str, is_required: bool) -> RuleResult {
    if is_required && is_blank(value) { fail(FieldCode::Required) } else { Ok(()) }
}

/// SPEC cardHolder: only letters, space, dot, apostrophe (straight `'` or typographic `’`) and
/// hyphen, with at least one letter (`Invalid`). Empty gives `Required`.
pub fn card_holder(value: &str) -> RuleResult {
    if is_blank(value) {
        return fail(FieldCode::Required);
    }
    let allowed = value.chars().all(|c| c.is_alphabetic() || matches!(c, ' ' | '.' | '\'' | '’' | '-'));
    if allowed && value.chars().any(char::is_alphabetic) { Ok(()) } else { fail(FieldCode::Invalid) }
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

/// SPEC date: a four-digit year between `min_year` and `max_year` (inclusive), only digits and
/// `, . ' -`. The accepted formats are `dd.mm.yyyy` (SPEC §9's date format) and ISO `yyyy-mm-dd`,
/// and the day must exist (leap years included). Any failure is `Date`; empty gives `Required`.
pub fn date(value: &str, min_year: i32, max_year: i32) -> RuleResult {
    if is_blank(value) {
        return fail(FieldCode::Required);
    }
    match parse_date(value) {
        Some((year, _, _)) if (min_year..=max_year).contains(&year) => Ok(()),
        _ => fail(FieldCode::Date),
    }
}

/// `(year, month, day)` of a real calendar date written `dd.mm.yyyy` or `yyyy-mm-dd` (exactly two
/// digits for day and month, four for a year from 0001); surrounding whitespace is ignored.
pub fn parse_date(value: &str) -> Option<(i32, u32, u32)> {
    let value = value.trim();
    let (year, month, day) = if let [d1, d2, b'.', m1, m2, b'.', y1, y2, y3, y4] = value.as_bytes() {
        (digits(&[*y1, *y2, *y3, *y4])?, digits(&[*m1, *m2])?, digits(&[*d1, *d2])?)
    } else if let [y1, y2, y3, y4, b'-', m1, m2, b'-', d1, d2] = value.as_bytes() {
        (digits(&[*y1, *y2, *y3, *y4])?, digits(&[*m1, *m2])?, digits(&[*d1, *d2])?)
    } else {
        return None;
    };
    let year = i32::try_from(year).ok()?;
    if year < 1 || !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    Some((year, month, day))
}

/// The number written by a few ASCII digits, or `None` if any byte is not a digit.
fn digits(bytes: &[u8]) -> Option<u32> {
    bytes.iter().try_fold(0u32, |acc, b| b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0')))
}

fn is_leap_year(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// A birth date: the [`date`] rule with years [`BIRTH_YEAR_MIN`]..=`today`'s year, not after
/// `today`, and the player at least `min_age` full years old on `today` (`Date` otherwise).
/// Someone born on 29 February comes of age on 1 March in common years.
pub fn adult_birth_date(value: &str, today: (i32, u32, u32), min_age: u32) -> RuleResult {
    date(value, BIRTH_YEAR_MIN, today.0)?;
    let Some((year, month, day)) = parse_date(value) else {
        return fail(FieldCode::Date);
    };
    let (today_year, today_month, today_day) = today;
    if (year, month, day) > today {
        return fail(FieldCode::Date);
    }
    let mut age = i64::from(today_year) - i64::from(year);
    if (today_month, today_day) < (month, day) {
        age -= 1;
    }
    if age >= i64::from(min_age) { Ok(()) } else { fail(FieldCode::Date) }
}

// ---------------------------------------------------------------------------------------------
// Small fixed-value fields
// ---------------------------------------------------------------------------------------------

/// SPEC sex: non-empty (`Required`); the profile stores a number: `0` unspecified, `1` male,
/// `2` female. Anything else is `Invalid`.
pub fn sex(value: &str) -> RuleResult {
    match value.trim() {
        "" => fail(FieldCode::Required),
        "0" | "1" | "2" => Ok(()),
        _ => fail(FieldCode::Invalid),
    }
}

/// SPEC checkbox: must be checked — `1`, `true` or `on` (ASCII case ignored, as browsers and
/// form libraries send them); anything else, empty included, is `Unchecked`.
pub fn checkbox(value: &str) -> RuleResult {
    let value = value.trim();
    let checked = ["1", "true", "on"].iter().any(|v| value.eq_ignore_ascii_case(v));
    if checked { Ok(()) } else { fail(FieldCode::Unchecked) }
}

/// SPEC confirmation code: required (`Required`), digits only (`Invalid`), exactly 6
/// (`MinLength{min:6}` / `MaxLength{max:6}`). Surrounding whitespace is ignored.
pub fn confirmation_code(value: &str) -> RuleResult {
    let value = value.trim();
    if value.is_empty() {
        return fail(FieldCode::Required);
    }
    if !all_ascii_digits(value) {
        return fail(FieldCode::Invalid);
    }
    length_within(value, CODE_LENGTH, CODE_LENGTH)
}

/// SPEC two-factor code: "the code must contain 6 digits". Any failure, empty included, is
/// `Invalid` with `length` = 6. Surrounding whitespace is ignored.
pub fn two_factor_code(value: &str) -> RuleResult {
    let value = value.trim();
    if value.len() == CODE_LENGTH && all_ascii_digits(value) {
        Ok(())
    } else {
        fail_with(FieldCode::Invalid, "length", CODE_LENGTH)
    }
}

/// SPEC sum: a positive integer without leading zero (`Invalid`: no sign, no decimals, no
/// separators), at least `min` (`MinValue{min}`) and at most `max` (`MaxValue{max}`); the caller
/// formats the bounds in the currency. A number too large for `i64` is above any `max`. Empty
/// gives `Required`; surrounding whitespace is ignored.
pub fn sum(value: &str, min: i64, max: i64) -> RuleResult {
    let value = value.trim();
    if value.is_empty() {
        return fail(FieldCode::Required);
    }
    if !all_ascii_digits(value) || value.starts_with('0') {
        return fail(FieldCode::Invalid);
    }
    let Ok(amount) = value.parse::<i64>() else {
        // Only digits, no leading zero, yet unparsable: larger than i64::MAX.
        return fail_with(FieldCode::MaxValue, "max", max);
    };
    if amount < min {
        return fail_with(FieldCode::MinValue, "min", min);
    }
    if amount > max {
        return fail_with(FieldCode::MaxValue, "max", max);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Documents and payment details
// ---------------------------------------------------------------------------------------------

/// Brazilian CPF (SPEC §3 document type cpf): 11 ASCII digits once `.` and `-` are removed, not
/// all the same digit, both check digits right (`Invalid`). Empty gives `Required`.
pub fn cpf(value: &str) -> RuleResult {
    if is_blank(value) {
        return fail(FieldCode::Required);
    }
    let compact: String = value.trim().chars().filter(|c| !matches!(c, '.' | '-')).collect();
    if compact.len() != 11 || !all_ascii_digits(&compact) {
        return fail(FieldCode::Invalid);
    }
    let digits: Vec<u32> = compact.bytes().map(|b| u32::from(b - b'0')).collect();
    let ok = digits.iter().any(|d| *d != digits[0])
        && cpf_check_digit(&digits[..9]) == digits[9]
        && cpf_check_digit(&digits[..10]) == digits[10];
    if ok { Ok(()) } else { fail(FieldCode::Invalid) }
}

/// The CPF check digit following `digits`: weights 2, 3, … from the right, remainder of ×10 mod
/// 11, where 10 counts as 0.
fn cpf_check_digit(digits: &[u32]) -> u32 {
    let total: u32 = digits.iter().rev().zip(2u32..).map(|(d, w)| d * w).sum();
    (total * 10 % 11) % 10
}

/// IBAN (ISO 13616): letters and digits once whitespace is removed (letters in either case),
/// 15..=34 characters, two country letters, check digits 02..=98, and the mod-97 check equal to
/// 1 (`Iban`). Per-country lengths are not checked. Empty gives `Required`.
pub fn iban(value: &str) -> RuleResult {
    if is_blank(value) {
        return fail(FieldCode::Required);
    }
    let compact: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.is_ascii() && iban_valid(compact.to_ascii_uppercase().as_bytes()) {
        Ok(())
    } else {
        fail(FieldCode::Iban)
    }
}

fn iban_valid(iban: &[u8]) -> bool {
    if !(15..=34).contains(&iban.len()) || !iban.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    let (head, bban) = iban.split_at(4);
    let [c1, c2, k1, k2] = head else {
        return false;
    };
    if !c1.is_ascii_uppercase() || !c2.is_ascii_uppercase() || !k1.is_ascii_digit() || !k2.is_ascii_digit() {
        return false;
    }
    let check = u32::from(k1 - b'0') * 10 + u32::from(k2 - b'0');
    if !(2..=98).contains(&check) {
        return false;
    }
    let remainder = bban.iter().chain(head).fold(0u32, |r, &b| {
        if b.is_ascii_digit() { (r * 10 + u32::from(b - b'0')) % 97 } else { (r * 100 + u32::from(b - b'A') + 10) % 97 }
    });
    remainder == 1
}

/// Payment card number: 12..=19 ASCII digits once whitespace and dashes are removed, passing the
/// Luhn check (`CardNumber`). Empty gives `Required`.
pub fn card_number(value: &str) -> RuleResult {
    if is_blank(value) {
        return fail(FieldCode::Required);
    }
    let compact: String = value.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
    let ok = (12..=19).contains(&compact.len()) && all_ascii_digits(&compact) && luhn_valid(&compact);
    if ok { Ok(()) } else { fail(FieldCode::CardNumber) }
}

/// Luhn over a string already known to be ASCII digits.
fn luhn_valid(digits: &str) -> bool {
    let total: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 1 {
                let doubled = d * 2;
                if doubled > 9 { doubled - 9 } else { doubled }
            } else {
                d
            }
        })
        .sum();
    total.is_multiple_of(10)
}

// ---------------------------------------------------------------------------------------------
// Input masks
// ---------------------------------------------------------------------------------------------

/// SPEC input mask tokens: `#` an ASCII digit, `@` a letter (any script), `*` a letter or an
/// ASCII digit; any other mask character must appear literally. Mask and value must have the
/// same number of characters. There is no escape: a literal `#`, `@` or `*` cannot be required.
pub fn mask_matches(mask: &str, value: &str) -> bool {
    char_len(mask) == char_len(value)
        && mask.chars().zip(value.chars()).all(|(m, v)| match m {
            '#' => v.is_ascii_digit(),
            '@' => v.is_alphabetic(),
            '*' => v.is_alphabetic() || v.is_ascii_digit(),
            literal => literal == v,
        })
}

/// Adds a failed rule to a call's field errors under `field`.
pub fn report(errors: &mut crate::api::FieldErrors, field: &str, result: RuleResult) {
    if let Err(e) = result {
        errors.add_with(field, e.code, e.params);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code a rule refused with, `None` when it accepted.
    fn code(result: RuleResult) -> Option<FieldCode> {
        result.err().map(|e| e.code)
    }

    fn refused(result: RuleResult) -> RuleError {
        result.expect_err("the rule should refuse")
    }

    fn param(error: &RuleError, name: &str) -> Option<String> {
        error.params.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone())
    }

    // --- email -----------------------------------------------------------------------------

    #[test]
    fn email_accepts_a_local_part_a_domain_and_one_or_two_further_parts() {
        for ok in ["john@mail.com", "john.doe+tag@mail.co.uk", "a_b-c@my-host.io", "josé@correo.es", "  John@Mail.com "]
        {
            assert_eq!(code(email(ok)), None, "{ok}");
        }
    }

    #[test]
    fn email_that_is_empty_or_blank_is_required() {
        assert_eq!(code(email("")), Some(FieldCode::Required));
        assert_eq!(code(email("   ")), Some(FieldCode::Required));
    }

    #[test]
    fn email_refuses_malformed_addresses() {
        for bad in [
            "john",
            "john@",
            "@mail.com",
            "john@mail",
            "john @mail.com",
            "john@mail .com",
            "a@b@c.com",
            "john@mail.c",
            "john@mail.123",
            "john@a.b.c.d",
            ".john@mail.com",
            "john.@mail.com",
            "jo..hn@mail.com",
            "john@-mail.com",
            "john@mail-.com",
            "john@mail..com",
            "jo\"hn@mail.com",
            "é😀@😀.com",
        ] {
            assert_eq!(code(email(bad)), Some(FieldCode::Email), "{bad}");
        }
    }

    #[test]
    fn email_limits_the_local_part_to_64_and_the_address_to_254_characters() {
        let local64 = "a".repeat(64);
        assert_eq!(code(email(&format!("{local64}@mail.com"))), None);
        assert_eq!(code(email(&format!("{local64}b@mail.com"))), Some(FieldCode::Email));
        let long_domain = format!("{}.{}.com", "d".repeat(63), "e".repeat(63));
        let at_254 = format!("{}@{long_domain}", "a".repeat(254 - 1 - long_domain.len()));
        assert_eq!(at_254.len(), 254);
        assert_eq!(code(email(&at_254)), Some(FieldCode::Email), "local part is over 64 here");
        let too_long = format!("{}@{}.com", "a".repeat(64), "d".repeat(190));
        assert_eq!(too_long.len(), 259);
        let error = refused(email(&too_long));
        assert_eq!(error.code, FieldCode::MaxLength);
        assert_eq!(param(&error, "max").as_deref(), Some("254"));
    }

    #[test]
    fn normalize_email_trims_and_lowercases_the_whole_address() {
        assert_eq!(normalize_email("  John.Doe@Mail.COM \n"), "john.doe@mail.com");
        assert_eq!(normalize_email("ÉLODIE@Mail.fr"), "élodie@mail.fr");
    }

    // --- phone -----------------------------------------------------------------------------

    #[test]
    fn phone_accepts_a_country_code_and_a_number_with_usual_separators() {
        assert_eq!(code(phone("+7", "916 123-45-67")), None);
        assert_eq!(code(phone("380", "(50) 123.45.67")), None);
        assert_eq!(code(phone(" 1 ", "2025550123")), None);
    }

    #[test]
    fn phone_without_a_number_is_required() {
        assert_eq!(code(phone("+7", "")), Some(FieldCode::Required));
        assert_eq!(code(phone("+7", "  ")), Some(FieldCode::Required));
    }

    #[test]
    fn phone_refuses_a_bad_country_code() {
        for cc in ["", "+", "0", "+044", "1234", "++7", "7a", "é"] {
            assert_eq!(code(phone(cc, "9161234567")), Some(FieldCode::Phone), "{cc:?}");
        }
    }

    #[test]
    fn phone_refuses_letters_or_other_symbols_in_the_number() {
        for number in ["916abc4567", "+79161234567", "916/123/45/67", "916_123_45_67", "é😀", "--", "١٢٣٤٥٦٧٨٩"]
        {
            assert_eq!(code(phone("7", number)), Some(FieldCode::Phone), "{number}");
        }
    }

    #[test]
    fn phone_totals_between_8_and_15_digits_with_the_country_code() {
        assert_eq!(code(phone("1", "234567")), Some(FieldCode::Phone), "7 digits");
        assert_eq!(code(phone("1", "2345678")), None, "8 digits");
        assert_eq!(code(phone("44", "1234567890123")), None, "15 digits");
        assert_eq!(code(phone("44", "12345678901234")), Some(FieldCode::Phone), "16 digits");
    }

    #[test]
    fn normalize_phone_keeps_digits_only_country_code_first_without_plus() {
        assert_eq!(normalize_phone("+7", "(916) 123-45-67"), "79161234567");
        assert_eq!(normalize_phone("380", "50 123.45.67"), "380501234567");
    }

    // --- password --------------------------------------------------------------------------

    #[test]
    fn password_of_6_and_of_20_characters_is_accepted() {
        assert_eq!(code(password("abc123")), None);
        assert_eq!(code(password(&"x".repeat(20))), None);
    }

    #[test]
    fn password_of_5_characters_is_under_the_minimum_of_6() {
        let error = refused(password("abc12"));
        assert_eq!(error.code, FieldCode::MinLength);
        assert_eq!(error.params, vec![("min", "6".to_owned())]);
        assert_eq!(error.message(Locale::En), "Min length is 6");
    }

    #[test]
    fn password_of_21_characters_is_over_the_maximum_of_20() {
        let error = refused(password(&"x".repeat(21)));
        assert_eq!(error.code, FieldCode::MaxLength);
        assert_eq!(error.params, vec![("max", "20".to_owned())]);
        assert_eq!(error.message(Locale::Fr), "La longueur maximale est de 20");
    }

    #[test]
    fn empty_password_is_required() {
        assert_eq!(code(password("")), Some(FieldCode::Required));
    }

    #[test]
    fn password_accepts_every_printable_ascii_character() {
        let printable: String = ('\u{21}'..='\u{7e}').collect();
        let chars: Vec<char> = printable.chars().collect();
        for chunk in chars.chunks(PASSWORD_MAX) {
            let mut candidate: String = chunk.iter().collect();
            while candidate.chars().count() < PASSWORD_MIN {
                candidate.push('a');
            }
            assert_eq!(code(password(&candidate)), None, "{candidate}");
        }
    }

    #[test]
    fn a_space_in_a_password_is_reported_as_the_word_space() {
        let error = refused(password("abc def"));
        assert_eq!(error.code, FieldCode::Password);
        assert_eq!(error.params, vec![("chars", "space".to_owned())]);
    }

    #[test]
    fn password_lists_each_refused_character_once_in_order_of_appearance() {
        let error = refused(password("pass wörd é ö"));
        assert_eq!(error.code, FieldCode::Password);
        assert_eq!(param(&error, "chars").as_deref(), Some("space, ö, é"));
    }

    #[test]
    fn password_shows_invisible_characters_as_code_points() {
        let error = refused(password("abc\tdef\u{0}"));
        assert_eq!(param(&error, "chars").as_deref(), Some("U+0009, U+0000"));
    }

    #[test]
    fn password_length_counts_characters_not_bytes() {
        assert_eq!(code(password("é😀")), Some(FieldCode::MinLength));
        let error = refused(password("é😀é😀é😀"));
        assert_eq!(error.code, FieldCode::Password, "6 characters even though 18 bytes");
        assert_eq!(param(&error, "chars").as_deref(), Some("é, 😀"));
        assert_eq!(code(password(&"é".repeat(20))), Some(FieldCode::Password));
        assert_eq!(code(password(&"é".repeat(21))), Some(FieldCode::MaxLength));
    }

    #[test]
    fn password_repeat_must_equal_the_password_exactly() {
        assert_eq!(code(password_repeat("secret1", "secret1")), None);
        assert_eq!(code(password_repeat("secret1", "secret2")), Some(FieldCode::SameAs));
        assert_eq!(code(password_repeat("secret1", "secret1 ")), Some(FieldCode::SameAs));
        assert_eq!(code(password_repeat("secret1", "")), Some(FieldCode::SameAs));
    }

    // --- fakename --------------------------------------------------------------------------

    #[test]
    fn fakename_accepts_letters_of_any_script_and_digits() {
        for ok in ["Lucky7", "Жора", "ÉlodieB", "1234", &"a".repeat(FAKENAME_MAX)] {
            assert_eq!(code(fakename(ok)), None, "{ok}");
        }
    }

    #[test]
    fn fakename_needs_at_least_4_characters() {
        let error = refused(fakename("abc"));
        assert_eq!(error.code, FieldCode::MinLength);
        assert_eq!(error.params, vec![("min", "4".to_owned())]);
        assert_eq!(code(fakename("")), Some(FieldCode::Required));
    }

    #[test]
    fn fakename_over_the_maximum_is_refused() {
        let error = refused(fakename(&"a".repeat(FAKENAME_MAX + 1)));
        assert_eq!(error.code, FieldCode::MaxLength);
        assert_eq!(error.params, vec![("max", "32".to_owned())]);
    }

    #[test]
    fn fakename_refuses_special_symbols_comma_space_underscore_quotes_and_hyphen() {
        for bad in [
            "lucky one",
            "lucky,one",
            "lucky_one",
            "lucky'one",
            "lucky\"one",
            "lucky-one",
            "lucky!one",
            "lucky@one",
            "lucky.one",
            "lucky😀",
            "é😀ab",
        ] {
            assert_eq!(code(fakename(bad)), Some(FieldCode::Fakename), "{bad}");
        }
    }

    // --- name, address -----------------------------------------------------------------------

    #[test]
    fn name_accepts_letters_spaces_hyphens_and_dots() {
        for ok in ["Anne-Marie", "José", "Jean Luc", "Иван", "St. John", "Zoë"] {
            assert_eq!(code(name(ok)), None, "{ok}");
        }
    }

    #[test]
    fn name_refuses_each_forbidden_symbol() {
        for symbol in "@_'\"!?#$%^&*(){}[]|/\\<>~§+:;`".chars() {
            assert_eq!(code(name(&format!("Ann{symbol}a"))), Some(FieldCode::Name), "{symbol}");
        }
    }

    #[test]
    fn name_refuses_digits_and_control_characters() {
        assert_eq!(code(name("Ann3")), Some(FieldCode::Name));
        assert_eq!(code(name("0")), Some(FieldCode::Name));
        assert_eq!(code(name("Ann\u{0}")), Some(FieldCode::Name));
        assert_eq!(code(name("Ann\na")), Some(FieldCode::Name));
    }

    #[test]
    fn name_is_required_and_at_most_64_characters() {
        assert_eq!(code(name("")), Some(FieldCode::Required));
        assert_eq!(code(name("   ")), Some(FieldCode::Required));
        assert_eq!(code(name(&"é".repeat(64))), None);
        let error = refused(name(&"é".repeat(65)));
        assert_eq!(error.code, FieldCode::MaxLength);
        assert_eq!(error.params, vec![("max", "64".to_owned())]);
    }

    #[test]
    fn address_allows_digits_pipe_and_slash() {
        for ok in ["12 Main St", "Flat 3/4, 10 Rue de la Paix", "Block A|B", "ул. Ленина 5"] {
            assert_eq!(code(address(ok)), None, "{ok}");
        }
    }

    #[test]
    fn address_refuses_at_and_the_rest_of_the_name_set() {
        assert_eq!(code(address("12 @home")), Some(FieldCode::Address));
        for symbol in "@_'\"!?#$%^&*(){}[]\\<>~§+:;`".chars() {
            assert_eq!(code(address(&format!("12 Main{symbol}St"))), Some(FieldCode::Address), "{symbol}");
        }
        assert_eq!(code(address("12 Main\u{7}")), Some(FieldCode::Address));
    }

    #[test]
    fn address_is_required_and_at_most_128_characters() {
        assert_eq!(code(address("")), Some(FieldCode::Required));
        assert_eq!(code(address(&"a".repeat(128))), None);
        let error = refused(address(&"a".repeat(129)));
        assert_eq!(error.code, FieldCode::MaxLength);
        assert_eq!(param(&error, "max").as_deref(), Some("128"));
    }

    // --- postcode, text, card holder ---------------------------------------------------------

    #[test]
    fn postcode_defaults_to_up_to_8_digits() {
        for ok in ["1", "12345", "12345678", " 75001 "] {
            assert_eq!(code(postcode(ok, None)), None, "{ok}");
        }
        for bad in ["123456789", "12a45", "12 345", "-1234", "é😀", "١٢٣"] {
            assert_eq!(code(postcode(bad, None)), Some(FieldCode::Regex), "{bad}");
        }
        assert_eq!(code(postcode("", None)), Some(FieldCode::Required));
    }

    #[test]
    fn postcode_uses_the_custom_check_when_one_is_given() {
        let uk = |v: &str| mask_matches("@@#@ #@@", v);
        assert_eq!(code(postcode("SW1A 1AA", Some(&uk))), None);
        assert_eq!(code(postcode("12345", Some(&uk))), Some(FieldCode::Regex));
        assert_eq!(code(postcode("  ", Some(&uk))), Some(FieldCode::Required));
    }

    #[test]
    fn text_is_required_unless_marked_optional() {
        assert_eq!(code(text("", true)), Some(FieldCode::Required));
        assert_eq!(code(text(" \t", true)), Some(FieldCode::Required));
        assert_eq!(code(text("anything", true)), None);
        assert_eq!(code(text("", false)), None);
    }

    #[test]
    fn card_holder_accepts_letters_space_dot_apostrophe_and_hyphen() {
        for ok in ["JOHN SMITH", "Mary-Jane O'Neil Jr.", "Zoë D’Arc", "Иван Петров"] {
            assert_eq!(code(card_holder(ok)), None, "{ok}");
        }
    }

    #[test]
    fn card_holder_refuses_digits_symbols_and_punctuation_alone() {
        for bad in ["John2", "John_Smith", "John, Smith", "...", "- '", "é😀"] {
            assert_eq!(code(card_holder(bad)), Some(FieldCode::Invalid), "{bad}");
        }
        assert_eq!(code(card_holder("")), Some(FieldCode::Required));
    }

    // --- dates -------------------------------------------------------------------------------

    #[test]
    fn date_accepts_real_days_in_both_formats() {
        for ok in ["29.02.2024", "2024-02-29", "29.02.2000", "31.12.2023", "01.01.1990", " 2023-04-30 "] {
            assert_eq!(code(date(ok, 1900, 2100)), None, "{ok}");
        }
    }

    #[test]
    fn date_refuses_days_that_do_not_exist() {
        for bad in ["29.02.2023", "29.02.1900", "31.04.2024", "00.01.2024", "01.00.2024", "01.13.2024", "32.01.2024"] {
            assert_eq!(code(date(bad, 1900, 2100)), Some(FieldCode::Date), "{bad}");
        }
    }

    #[test]
    fn date_refuses_other_shapes_and_symbols() {
        for bad in [
            "1.1.2024",
            "01/01/2024",
            "01.01.24",
            "01.01.02024",
            "2024.01.01",
            "01-01-2024",
            "2024-1-1",
            "01,01,2024",
            "01.01'2024",
            "é😀",
            "0１.01.2024",
            "00.00.0000",
        ] {
            assert_eq!(code(date(bad, 0, 9999)), Some(FieldCode::Date), "{bad}");
        }
        assert_eq!(code(date("", 1900, 2100)), Some(FieldCode::Required));
    }

    #[test]
    fn date_year_must_lie_between_min_and_max_inclusive() {
        assert_eq!(code(date("01.01.1900", 1900, 2000)), None);
        assert_eq!(code(date("31.12.2000", 1900, 2000)), None);
        assert_eq!(code(date("31.12.1899", 1900, 2000)), Some(FieldCode::Date));
        assert_eq!(code(date("2001-01-01", 1900, 2000)), Some(FieldCode::Date));
    }

    #[test]
    fn parse_date_gives_year_month_day() {
        assert_eq!(parse_date("29.02.2024"), Some((2024, 2, 29)));
        assert_eq!(parse_date("2023-12-31"), Some((2023, 12, 31)));
        assert_eq!(parse_date("29.02.2023"), None);
        assert_eq!(parse_date("01.01.0000"), None);
        assert_eq!(parse_date(""), None);
    }

    #[test]
    fn adult_birth_date_counts_full_years_on_today() {
        let today = (2024, 6, 15);
        assert_eq!(code(adult_birth_date("15.06.2006", today, 18)), None, "18th birthday today");
        assert_eq!(code(adult_birth_date("16.06.2006", today, 18)), Some(FieldCode::Date), "one day short");
        assert_eq!(code(adult_birth_date("1990-01-01", today, 18)), None);
        assert_eq!(code(adult_birth_date("01.01.2020", today, 0)), None);
    }

    #[test]
    fn adult_birth_date_refuses_future_ancient_and_malformed_dates() {
        let today = (2024, 6, 15);
        assert_eq!(code(adult_birth_date("16.06.2024", today, 0)), Some(FieldCode::Date));
        assert_eq!(code(adult_birth_date("2030-01-01", today, 18)), Some(FieldCode::Date));
        assert_eq!(code(adult_birth_date("31.12.1899", today, 18)), Some(FieldCode::Date));
        assert_eq!(code(adult_birth_date("31.02.1990", today, 18)), Some(FieldCode::Date));
        assert_eq!(code(adult_birth_date("", today, 18)), Some(FieldCode::Required));
    }

    #[test]
    fn someone_born_on_29_february_comes_of_age_on_1_march_in_common_years() {
        assert_eq!(code(adult_birth_date("29.02.2004", (2022, 2, 28), 18)), Some(FieldCode::Date));
        assert_eq!(code(adult_birth_date("29.02.2004", (2022, 3, 1), 18)), None);
    }

    // --- small fixed-value fields ----------------------------------------------------------

    #[test]
    fn sex_is_zero_one_or_two() {
        for ok in ["0", "1", "2"] {
            assert_eq!(code(sex(ok)), None);
        }
        assert_eq!(code(sex("")), Some(FieldCode::Required));
        for bad in ["3", "male", "-1", "01", "é"] {
            assert_eq!(code(sex(bad)), Some(FieldCode::Invalid), "{bad}");
        }
    }

    #[test]
    fn checkbox_must_be_checked() {
        for ok in ["1", "true", "on", "TRUE", "On"] {
            assert_eq!(code(checkbox(ok)), None, "{ok}");
        }
        for bad in ["", "0", "false", "off", "yes", "é😀"] {
            assert_eq!(code(checkbox(bad)), Some(FieldCode::Unchecked), "{bad}");
        }
    }

    #[test]
    fn confirmation_code_is_exactly_6_digits() {
        assert_eq!(code(confirmation_code("123456")), None);
        assert_eq!(code(confirmation_code(" 012345 ")), None);
        assert_eq!(code(confirmation_code("")), Some(FieldCode::Required));
        assert_eq!(refused(confirmation_code("12345")).params, vec![("min", "6".to_owned())]);
        assert_eq!(code(confirmation_code("12345")), Some(FieldCode::MinLength));
        assert_eq!(refused(confirmation_code("1234567")).params, vec![("max", "6".to_owned())]);
        assert_eq!(code(confirmation_code("1234567")), Some(FieldCode::MaxLength));
        for bad in ["12a456", "123 456", "١٢٣٤٥٦", "é😀"] {
            assert_eq!(code(confirmation_code(bad)), Some(FieldCode::Invalid), "{bad}");
        }
    }

    #[test]
    fn two_factor_code_failures_are_all_invalid_with_length_6() {
        assert_eq!(code(two_factor_code("123456")), None);
        for bad in ["", "12345", "1234567", "abcdef", "12 456", "é😀", "١٢٣٤٥٦"] {
            let error = refused(two_factor_code(bad));
            assert_eq!(error.code, FieldCode::Invalid, "{bad}");
            assert_eq!(error.params, vec![("length", "6".to_owned())]);
        }
    }

    #[test]
    fn sum_accepts_a_positive_integer_within_bounds() {
        for ok in ["10", "100", "1000", " 500 "] {
            assert_eq!(code(sum(ok, 10, 1000)), None, "{ok}");
        }
    }

    #[test]
    fn sum_refuses_zero_leading_zeros_signs_decimals_and_separators() {
        for bad in ["0", "0100", "-5", "+5", "10.5", "10,5", "1 000", "1e3", "é😀"] {
            assert_eq!(code(sum(bad, 1, 1000)), Some(FieldCode::Invalid), "{bad}");
        }
        assert_eq!(code(sum("", 1, 1000)), Some(FieldCode::Required));
    }

    #[test]
    fn sum_outside_the_bounds_names_the_bound() {
        let low = refused(sum("9", 10, 1000));
        assert_eq!((low.code, low.params), (FieldCode::MinValue, vec![("min", "10".to_owned())]));
        let high = refused(sum("1001", 10, 1000));
        assert_eq!((high.code, high.params), (FieldCode::MaxValue, vec![("max", "1000".to_owned())]));
        assert_eq!(code(sum("99999999999999999999999", 10, 1000)), Some(FieldCode::MaxValue));
        assert_eq!(code(sum("9223372036854775807", 1, i64::MAX)), None);
    }

    // --- documents and payment details -------------------------------------------------------

    #[test]
    fn cpf_with_right_check_digits_is_accepted() {
        assert_eq!(code(cpf("529.982.247-25")), None);
        assert_eq!(code(cpf("52998224725")), None);
    }

    #[test]
    fn cpf_with_all_same_digits_or_wrong_check_digits_is_invalid() {
        for bad in [
            "111.111.111-11",
            "000.000.000-00",
            "529.982.247-26",
            "529.982.247-35",
            "529.982.247-2",
            "5299822472a",
            "529 982 247 25",
            "é😀",
        ] {
            assert_eq!(code(cpf(bad)), Some(FieldCode::Invalid), "{bad}");
        }
        assert_eq!(code(cpf("")), Some(FieldCode::Required));
    }

    #[test]
    fn iban_with_a_right_mod_97_check_is_accepted() {
        for ok in [
            "GB82 WEST 1234 5698 7654 32",
            "gb82west12345698765432",
            "DE89 3704 0044 0532 0130 00",
            "NO93 8601 1117 947",
            "GB02WEST12345698760082",
        ] {
            assert_eq!(code(iban(ok)), None, "{ok}");
        }
    }

    #[test]
    fn iban_refuses_wrong_checks_lengths_and_characters() {
        for bad in [
            "GB83 WEST 1234 5698 7654 32",
            "GB82 WEST 1234 5698 7654 33",
            "NO93 8601 1117 94",
            "1282 WEST 1234 5698 7654 32",
            "GBAB WEST 1234 5698 7654 32",
            "GB82-WEST-1234-5698-7654-32",
            "GB82 WÉST 1234 5698 7654 32",
            "é😀",
            "GB82WEST12345698765432123456789012345",
        ] {
            assert_eq!(code(iban(bad)), Some(FieldCode::Iban), "{bad}");
        }
        assert_eq!(code(iban(" ")), Some(FieldCode::Required));
    }

    #[test]
    fn iban_check_digits_99_are_refused_even_though_they_pass_mod_97() {
        // 99 ≡ 2 (mod 97): the mod-97 sum alone would take it; ISO 13616 allows only 02..=98.
        assert_eq!(code(iban("GB99WEST12345698760082")), Some(FieldCode::Iban));
    }

    #[test]
    fn card_number_passing_luhn_is_accepted() {
        for ok in ["4111 1111 1111 1111", "4111-1111-1111-1111", "123456789015", "1234567890123456785"] {
            assert_eq!(code(card_number(ok)), None, "{ok}");
        }
    }

    #[test]
    fn card_number_refuses_a_luhn_failure_or_a_wrong_length() {
        for bad in [
            "4111 1111 1111 1112",
            "12345678903",
            "12345678901234567894",
            "4111a111111111111",
            "é😀",
            "4111_1111_1111_1111",
        ] {
            assert_eq!(code(card_number(bad)), Some(FieldCode::CardNumber), "{bad}");
        }
        assert_eq!(code(card_number("")), Some(FieldCode::Required));
    }

    // --- masks -------------------------------------------------------------------------------

    #[test]
    fn mask_matches_a_phone_mask_only_at_its_exact_shape() {
        let mask = "+# (###) ###-##-##";
        assert!(mask_matches(mask, "+7 (916) 123-45-67"));
        assert!(!mask_matches(mask, "+7 (916) 123-45-6"));
        assert!(!mask_matches(mask, "+7 (916) 123-45-678"));
        assert!(!mask_matches(mask, "+7 (91a) 123-45-67"));
        assert!(!mask_matches(mask, "77 (916) 123-45-67"));
        assert!(!mask_matches(mask, "+7 (916) 123 45 67"));
    }

    #[test]
    fn mask_letter_and_alphanumeric_tokens() {
        assert!(mask_matches("@@-**", "AB-1c"));
        assert!(mask_matches("@@", "éЖ"));
        assert!(!mask_matches("@@-**", "A1-1c"));
        assert!(!mask_matches("**", "a_"));
        assert!(!mask_matches("##", "é😀"));
        assert!(mask_matches("", ""));
    }

    // --- robustness --------------------------------------------------------------------------

    #[test]
    fn no_rule_panics_on_odd_input() {
        let long = "é😀".repeat(500);
        let inputs =
            ["", " ", "é😀", "\u{0}", "@", ".", "-", "+", "..", "@.", "a@.b", "1.1.", "--", "9999-99-99", &long];
        let today = (2024, 2, 29);
        for v in inputs {
            let _ = email(v);
            let _ = normalize_email(v);
            let _ = phone(v, v);
            let _ = normalize_phone(v, v);
            let _ = password(v);
            let _ = password_repeat(v, v);
            let _ = fakename(v);
            let _ = name(v);
            let _ = address(v);
            let _ = postcode(v, None);
            let _ = text(v, true);
            let _ = card_holder(v);
            let _ = date(v, i32::MIN, i32::MAX);
            let _ = parse_date(v);
            let _ = adult_birth_date(v, today, u32::MAX);
            let _ = adult_birth_date(v, (i32::MIN, 0, 0), 0);
            let _ = sex(v);
            let _ = checkbox(v);
            let _ = confirmation_code(v);
            let _ = two_factor_code(v);
            let _ = sum(v, i64::MIN, i64::MAX);
            let _ = cpf(v);
            let _ = iban(v);
            let _ = card_number(v);
            let _ = mask_matches(v, v);
            let _ = mask_matches("#@*", v);
        }
    }

    #[test]
    fn rule_error_message_fills_its_placeholders() {
        assert_eq!(refused(sum("5", 10, 100)).message(Locale::En), "Min value is 10");
        assert_eq!(refused(name("R2D2")).message(Locale::En), "Wrong symbols in name");
        assert_eq!(RuleError::new(FieldCode::Required).message(Locale::Fr), "Champ obligatoire");
    }
}
