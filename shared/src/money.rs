//! Money: integer minor units plus an ISO 4217 currency, never a float (DESIGN "Money").
//!
//! On the wire money is `{"amount":"1234.50","currency":"USD"}` — a decimal string in major
//! units with exactly the currency's number of decimals.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A supported ISO 4217 currency and its number of minor-unit decimals.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Currency {
    code: &'static str,
    exponent: u8,
}

/// Currencies an operator may enable. ISO 4217 exponents.
const CURRENCIES: &[Currency] = &[
    Currency { code: "USD", exponent: 2 },
    Currency { code: "EUR", exponent: 2 },
    Currency { code: "GBP", exponent: 2 },
    Currency { code: "CAD", exponent: 2 },
    Currency { code: "AUD", exponent: 2 },
    Currency { code: "NZD", exponent: 2 },
    Currency { code: "CHF", exponent: 2 },
    Currency { code: "SEK", exponent: 2 },
    Currency { code: "NOK", exponent: 2 },
    Currency { code: "DKK", exponent: 2 },
    Currency { code: "PLN", exponent: 2 },
    Currency { code: "CZK", exponent: 2 },
    Currency { code: "BRL", exponent: 2 },
    Currency { code: "MXN", exponent: 2 },
    Currency { code: "INR", exponent: 2 },
    Currency { code: "TRY", exponent: 2 },
    Currency { code: "ZAR", exponent: 2 },
    Currency { code: "JPY", exponent: 0 },
    Currency { code: "KRW", exponent: 0 },
];

impl Currency {
    /// Looks a currency up by its code (case-insensitive).
    pub fn parse(code: &str) -> Option<Currency> {
        CURRENCIES.iter().copied().find(|c| c.code.eq_ignore_ascii_case(code))
    }

    pub fn all() -> &'static [Currency] {
        CURRENCIES
    }

    pub fn code(self) -> &'static str {
        self.code
    }

    /// Number of decimals of the minor unit (2 for USD, 0 for JPY).
    pub fn exponent(self) -> u8 {
        self.exponent
    }

    /// Minor units in one major unit (100 for USD, 1 for JPY): the one place that scales.
    pub fn scale(self) -> i64 {
        10_i64.pow(u32::from(self.exponent))
    }
}

impl fmt::Debug for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)
    }
}

impl Serialize for Currency {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code)
    }
}

impl<'de> Deserialize<'de> for Currency {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = String::deserialize(d)?;
        Currency::parse(&code).ok_or_else(|| D::Error::custom(format!("unsupported currency {code}")))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("not a decimal amount")]
    NotANumber,
    #[error("more decimals than the currency has")]
    TooPrecise,
    #[error("amount out of range")]
    Overflow,
    #[error("currencies differ")]
    CurrencyMismatch,
}

/// An amount of one currency in integer minor units.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Money {
    minor: i64,
    currency: Currency,
}

impl Money {
    pub fn from_minor(minor: i64, currency: Currency) -> Money {
        Money { minor, currency }
    }

    /// `amount` whole major units (saturating: bounds and limits are configured in major units).
    pub fn from_major(amount: i64, currency: Currency) -> Money {
        Money::from_minor(amount.saturating_mul(currency.scale()), currency)
    }

    pub fn zero(currency: Currency) -> Money {
        Money::from_minor(0, currency)
    }

    pub fn minor(self) -> i64 {
        self.minor
    }

    pub fn currency(self) -> Currency {
        self.currency
    }

    /// Parses a decimal amount in major units (`"12"`, `"12.5"`, `"-0.05"`) exactly.
    pub fn parse_major(text: &str, currency: Currency) -> Result<Money, MoneyError> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, fraction) = match digits.split_once('.') {
            Some((w, f)) => (w, f),
            None => (digits, ""),
        };
        let is_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty()
            || !is_digits(whole)
            || !is_digits(fraction)
            || (digits.contains('.') && fraction.is_empty())
        {
            return Err(MoneyError::NotANumber);
        }
        let exponent = usize::from(currency.exponent);
        if fraction.len() > exponent {
            return Err(MoneyError::TooPrecise);
        }
        let whole: i64 = whole.parse().map_err(|_| MoneyError::Overflow)?;
        let padded = format!("{fraction:0<exponent$}");
        let fraction: i64 = if padded.is_empty() { 0 } else { padded.parse().map_err(|_| MoneyError::NotANumber)? };
        let minor =
            whole.checked_mul(currency.scale()).and_then(|m| m.checked_add(fraction)).ok_or(MoneyError::Overflow)?;
        Ok(Money::from_minor(if negative { -minor } else { minor }, currency))
    }

    /// SPEC §5 `sum` rule for amounts a player types: a positive whole number of major units
    /// without a leading zero. `None` when the text breaks the rule.
    pub fn parse_whole_major(text: &str, currency: Currency) -> Option<Money> {
        let bytes = text.as_bytes();
        let valid = !bytes.is_empty() && bytes[0] != b'0' && bytes.iter().all(u8::is_ascii_digit);
        if !valid {
            return None;
        }
        let whole: i64 = text.parse().ok()?;
        whole.checked_mul(currency.scale()).map(|minor| Money::from_minor(minor, currency))
    }

    /// The amount as a decimal string in major units with the currency's decimals.
    pub fn to_decimal_string(self) -> String {
        let exponent = usize::from(self.currency.exponent);
        let scale = self.currency.scale().unsigned_abs();
        let abs = self.minor.unsigned_abs();
        let sign = if self.minor < 0 { "-" } else { "" };
        if exponent == 0 { format!("{sign}{abs}") } else { format!("{sign}{}.{:0exponent$}", abs / scale, abs % scale) }
    }

    pub fn checked_add(self, other: Money) -> Result<Money, MoneyError> {
        self.same_currency(other)?;
        self.minor.checked_add(other.minor).map(|m| Money::from_minor(m, self.currency)).ok_or(MoneyError::Overflow)
    }

    pub fn checked_sub(self, other: Money) -> Result<Money, MoneyError> {
        self.same_currency(other)?;
        self.minor.checked_sub(other.minor).map(|m| Money::from_minor(m, self.currency)).ok_or(MoneyError::Overflow)
    }

    fn same_currency(self, other: Money) -> Result<(), MoneyError> {
        if self.currency == other.currency { Ok(()) } else { Err(MoneyError::CurrencyMismatch) }
    }
}

impl fmt::Debug for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.to_decimal_string(), self.currency)
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.to_decimal_string(), self.currency)
    }
}

#[derive(Serialize, Deserialize)]
struct WireMoney {
    amount: String,
    currency: Currency,
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        WireMoney { amount: self.to_decimal_string(), currency: self.currency }.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let wire = WireMoney::deserialize(d)?;
        Money::parse_major(&wire.amount, wire.currency).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usd() -> Currency {
        Currency::parse("usd").unwrap()
    }

    #[test]
    fn decimal_strings_round_trip_through_minor_units() {
        for (text, minor) in [("0", 0), ("12", 1200), ("12.5", 1250), ("1234.50", 123_450), ("-0.05", -5)] {
            let money = Money::parse_major(text, usd()).unwrap();
            assert_eq!(money.minor(), minor, "{text}");
            assert_eq!(Money::parse_major(&money.to_decimal_string(), usd()).unwrap(), money);
        }
        assert_eq!(Money::from_minor(123_450, usd()).to_decimal_string(), "1234.50");
        assert_eq!(Money::from_minor(-5, usd()).to_decimal_string(), "-0.05");
        let yen = Currency::parse("JPY").unwrap();
        assert_eq!(Money::parse_major("500", yen).unwrap().minor(), 500);
        assert_eq!(Money::parse_major("5.1", yen), Err(MoneyError::TooPrecise));
    }

    #[test]
    fn malformed_amounts_are_refused() {
        for bad in ["", "-", ".5", "5.", "1e3", "1,5", " 1", "0x10", "1.2.3", "--1", "+1"] {
            assert_eq!(Money::parse_major(bad, usd()), Err(MoneyError::NotANumber), "{bad:?}");
        }
        assert_eq!(Money::parse_major("1.234", usd()), Err(MoneyError::TooPrecise));
        assert_eq!(Money::parse_major("99999999999999999999", usd()), Err(MoneyError::Overflow));
        assert_eq!(Money::parse_major("92233720368547758.07", usd()), Ok(Money::from_minor(i64::MAX, usd())));
        assert_eq!(Money::parse_major("92233720368547758.08", usd()), Err(MoneyError::Overflow));
    }

    #[test]
    fn typed_sums_follow_the_spec_rule() {
        assert_eq!(Money::parse_whole_major("50", usd()).unwrap().minor(), 5000);
        for bad in ["", "0", "05", "5.0", "-5", " 5", "5a"] {
            assert!(Money::parse_whole_major(bad, usd()).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn money_is_a_decimal_string_on_the_wire() {
        let json = serde_json::to_string(&Money::from_minor(123_450, usd())).unwrap();
        assert_eq!(json, r#"{"amount":"1234.50","currency":"USD"}"#);
        let back: Money = serde_json::from_str(&json).unwrap();
        assert_eq!(back.minor(), 123_450);
        assert!(serde_json::from_str::<Money>(r#"{"amount":12.5,"currency":"USD"}"#).is_err());
        assert!(serde_json::from_str::<Money>(r#"{"amount":"1","currency":"XXX"}"#).is_err());
    }

    #[test]
    fn arithmetic_refuses_mixed_currencies_and_overflow() {
        let eur = Currency::parse("EUR").unwrap();
        let a = Money::from_minor(100, usd());
        assert_eq!(a.checked_add(Money::from_minor(1, eur)), Err(MoneyError::CurrencyMismatch));
        assert_eq!(
            Money::from_minor(i64::MAX, usd()).checked_add(Money::from_minor(1, usd())),
            Err(MoneyError::Overflow)
        );
        assert_eq!(a.checked_sub(Money::from_minor(150, usd())).unwrap().minor(), -50);
    }
}
