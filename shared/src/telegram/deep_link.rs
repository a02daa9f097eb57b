//! The one deep-link payload grammar of `/start` and `startapp` links.
//!
//! Marketing, referral and notification links open Croupier at a chosen place with a promo code
//! and tracking ids: `t.me/<bot>?start=<payload>` (the bot receives `/start <payload>`, at most
//! 64 characters) and `t.me/<bot>/<app>?startapp=<payload>` (the mini-app receives it as
//! `start_param` in its init data, at most 512 characters). Telegram allows only `[A-Za-z0-9_-]`
//! in both. The bot, the server and the client read both with this one grammar (DESIGN.md
//! "Telegram"), so a link means the same thing whichever way it arrives.
//!
//! # Grammar
//!
//! ```text
//! payload = "" / segment *( "-" segment )
//! segment = kind value
//! value   = 1*( ALPHA / DIGIT / "__" / "_h" )      ; "__" is "_", "_h" is "-"
//! ```
//!
//! | kind | meaning | value |
//! |------|---------|-------|
//! | `p`  | promo code | text |
//! | `g`  | target: game | sysname |
//! | `t`  | target: tournament | id |
//! | `o`  | target: offer | id |
//! | `v`  | target: page (view) | a [`Page`] name: `home`, `gamehall`, `cashier`, `deposit`, `profile`, `promotions`, `tournaments`, `jackpots`, `loyalty`, `support`, `winners` |
//! | `r`  | referral | the referring account id, decimal, no leading zero |
//! | `xt` | tracking `track_id` | text |
//! | `xp` | tracking `publisher_id` | text |
//! | `xg` | tracking `goal_id` | text |
//! | `xe` | tracking `goal_entry_id` | text |
//! | `xl` | tracking `link_id` | text |
//!
//! `-` separates segments and never occurs inside one. A value is letters and digits; its own `_`
//! is written `__` and its own `-` is written `_h`, so `book_of-dead` is `book__of_hdead`. Kinds
//! are prefix-free (a single letter, or `x` plus a letter), so a segment reads without a
//! delimiter after its kind. Example: promo `WELCOME`, game `book_of_dead`, referral 42 and
//! track id `td_7` give `pWELCOME-gbook__of__dead-r42-xttd__7` (36 characters).
//!
//! Decoding is strict and never panics: an unknown kind, a character outside the alphabet, a
//! lone or unknown escape, an empty segment or value, a non-canonical or overflowing referral, an
//! unknown page, a second promo / target / referral or a repeated tracking key are all errors.
//! Segments may come in any order; [`encode`] writes promo, target, referral, then tracking in
//! the order given. Every value has exactly one spelling, so `decode(encode(x)) == x` for every
//! link `encode` accepts, and a payload that decodes re-encodes to the same length.

use serde::{Deserialize, Serialize};

/// Telegram's cap on a `/start` payload.
pub const START_MAX_LEN: usize = 64;
/// Telegram's cap on a `startapp` payload.
pub const STARTAPP_MAX_LEN: usize = 512;

/// Which link the payload is for, and so how long it may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// `?start=` — the bot's `/start`: 64 characters.
    Start,
    /// `?startapp=` — the mini-app's `start_param`: 512 characters.
    StartApp,
}

impl Limit {
    /// The longest payload allowed.
    pub const fn max_len(self) -> usize {
        match self {
            Limit::Start => START_MAX_LEN,
            Limit::StartApp => STARTAPP_MAX_LEN,
        }
    }
}

/// A mini-app page a link may open (the route names of the client's table, SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Page {
    /// `/`.
    Home,
    /// `/gamehall`.
    Gamehall,
    /// `/cashier`.
    Cashier,
    /// `/cashier/deposit`.
    Deposit,
    /// `/profile`.
    Profile,
    /// `/promotions`.
    Promotions,
    /// `/tournaments`.
    Tournaments,
    /// `/jackpots`.
    Jackpots,
    /// `/loyalty`.
    Loyalty,
    /// `/support`.
    Support,
    /// `/winners`.
    Winners,
}

impl Page {
    /// Every page, in a fixed order.
    pub const ALL: [Page; 11] = [
        Page::Home,
        Page::Gamehall,
        Page::Cashier,
        Page::Deposit,
        Page::Profile,
        Page::Promotions,
        Page::Tournaments,
        Page::Jackpots,
        Page::Loyalty,
        Page::Support,
        Page::Winners,
    ];

    /// The route name, as written in a payload.
    pub const fn name(self) -> &'static str {
        match self {
            Page::Home => "home",
            Page::Gamehall => "gamehall",
            Page::Cashier => "cashier",
            Page::Deposit => "deposit",
            Page::Profile => "profile",
            Page::Promotions => "promotions",
            Page::Tournaments => "tournaments",
            Page::Jackpots => "jackpots",
            Page::Loyalty => "loyalty",
            Page::Support => "support",
            Page::Winners => "winners",
        }
    }

    /// The page for a route name.
    pub fn from_name(name: &str) -> Option<Page> {
        Page::ALL.into_iter().find(|page| page.name() == name)
    }

    /// The client path (unprefixed, English), e.g. `/cashier/deposit`.
    pub const fn path(self) -> &'static str {
        match self {
            Page::Home => "/",
            Page::Gamehall => "/gamehall",
            Page::Cashier => "/cashier",
            Page::Deposit => "/cashier/deposit",
            Page::Profile => "/profile",
            Page::Promotions => "/promotions",
            Page::Tournaments => "/tournaments",
            Page::Jackpots => "/jackpots",
            Page::Loyalty => "/loyalty",
            Page::Support => "/support",
            Page::Winners => "/winners",
        }
    }
}

/// Where a link lands.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Target {
    /// A game, by sysname.
    Game(String),
    /// A tournament, by id.
    Tournament(String),
    /// An offer (campaign), by id.
    Offer(String),
    /// A page.
    Page(Page),
}

impl Target {
    /// The client path (unprefixed, English): `/game/{sysname}`, `/tournaments/{id}`,
    /// `/offers/{id}` or the page's path. Values are `[A-Za-z0-9_-]`, so no escaping is needed.
    pub fn path(&self) -> String {
        match self {
            Target::Game(sysname) => format!("/game/{sysname}"),
            Target::Tournament(id) => format!("/tournaments/{id}"),
            Target::Offer(id) => format!("/offers/{id}"),
            Target::Page(page) => page.path().to_owned(),
        }
    }
}

/// A tracking parameter a link may carry (the tag-manager parameters of SPEC §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrackingKey {
    /// `track_id`.
    TrackId,
    /// `publisher_id`.
    PublisherId,
    /// `goal_id`.
    GoalId,
    /// `goal_entry_id`.
    GoalEntryId,
    /// `link_id`.
    LinkId,
}

impl TrackingKey {
    /// Every key, in a fixed order.
    pub const ALL: [TrackingKey; 5] = [
        TrackingKey::TrackId,
        TrackingKey::PublisherId,
        TrackingKey::GoalId,
        TrackingKey::GoalEntryId,
        TrackingKey::LinkId,
    ];

    /// The parameter name (`track_id`, …), as the registration call takes it.
    pub const fn param(self) -> &'static str {
        match self {
            TrackingKey::TrackId => "track_id",
            TrackingKey::PublisherId => "publisher_id",
            TrackingKey::GoalId => "goal_id",
            TrackingKey::GoalEntryId => "goal_entry_id",
            TrackingKey::LinkId => "link_id",
        }
    }

    /// The letter after `x` in a payload.
    const fn code(self) -> u8 {
        match self {
            TrackingKey::TrackId => b't',
            TrackingKey::PublisherId => b'p',
            TrackingKey::GoalId => b'g',
            TrackingKey::GoalEntryId => b'e',
            TrackingKey::LinkId => b'l',
        }
    }

    fn from_code(code: u8) -> Option<TrackingKey> {
        TrackingKey::ALL.into_iter().find(|key| key.code() == code)
    }
}

/// What a deep link asks for. Every part is optional; the empty link is the empty payload.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeepLink {
    /// A promo code to apply.
    pub promo_code: Option<String>,
    /// Where to land.
    pub target: Option<Target>,
    /// Tracking parameters, each key at most once.
    pub tracking: Vec<(TrackingKey, String)>,
    /// The referring account.
    pub referral: Option<u64>,
}

/// Why a payload could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeepLinkError {
    /// Longer than the link allows.
    #[error("the payload is {len} characters, more than the {max} allowed")]
    TooLong {
        /// Its length.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A value to encode is empty or has a character outside `[A-Za-z0-9_-]`.
    #[error("{field} must be 1 or more characters of A-Z, a-z, 0-9, _ and -")]
    InvalidValue {
        /// Which part of the link.
        field: &'static str,
    },
    /// A character outside `[A-Za-z0-9_-]`, at this byte offset.
    #[error("invalid character at {position}")]
    InvalidCharacter {
        /// Byte offset in the payload.
        position: usize,
    },
    /// Two `-` in a row, or a `-` at either end.
    #[error("empty segment at {position}")]
    EmptySegment {
        /// Byte offset in the payload.
        position: usize,
    },
    /// A segment kind not in the grammar.
    #[error("unknown segment kind at {position}")]
    UnknownKind {
        /// Byte offset in the payload.
        position: usize,
    },
    /// A kind with nothing after it.
    #[error("empty value at {position}")]
    EmptyValue {
        /// Byte offset in the payload.
        position: usize,
    },
    /// `_` not followed by `_` or `h`.
    #[error("invalid escape at {position}")]
    InvalidEscape {
        /// Byte offset in the payload.
        position: usize,
    },
    /// A referral that is not a canonical decimal `u64`.
    #[error("invalid referral at {position}")]
    InvalidReferral {
        /// Byte offset in the payload.
        position: usize,
    },
    /// A page name not in the list.
    #[error("unknown page at {position}")]
    UnknownPage {
        /// Byte offset in the payload.
        position: usize,
    },
    /// A second promo code, target or referral, or a tracking key given twice.
    #[error("{0} is given more than once")]
    Repeated(&'static str),
}

/// Writes the payload for `link`, refusing it if a value is outside the alphabet or the result
/// is longer than `limit` allows.
pub fn encode(link: &DeepLink, limit: Limit) -> Result<String, DeepLinkError> {
    let payload = write(link)?;
    if payload.len() > limit.max_len() {
        return Err(DeepLinkError::TooLong { len: payload.len(), max: limit.max_len() });
    }
    Ok(payload)
}

fn write(link: &DeepLink) -> Result<String, DeepLinkError> {
    let mut segments: Vec<String> = Vec::new();
    if let Some(code) = &link.promo_code {
        segments.push(format!("p{}", escape(code, "promo_code")?));
    }
    match &link.target {
        None => {}
        Some(Target::Game(sysname)) => segments.push(format!("g{}", escape(sysname, "game")?)),
        Some(Target::Tournament(id)) => segments.push(format!("t{}", escape(id, "tournament")?)),
        Some(Target::Offer(id)) => segments.push(format!("o{}", escape(id, "offer")?)),
        Some(Target::Page(page)) => segments.push(format!("v{}", page.name())),
    }
    if let Some(referral) = link.referral {
        segments.push(format!("r{referral}"));
    }
    for (index, (key, value)) in link.tracking.iter().enumerate() {
        if link.tracking[..index].iter().any(|(seen, _)| seen == key) {
            return Err(DeepLinkError::Repeated(key.param()));
        }
        segments.push(format!("x{}{}", char::from(key.code()), escape(value, key.param())?));
    }
    Ok(segments.join("-"))
}

fn escape(value: &str, field: &'static str) -> Result<String, DeepLinkError> {
    if value.is_empty() {
        return Err(DeepLinkError::InvalidValue { field });
    }
    let mut out = String::with_capacity(value.len() + 4);
    for c in value.chars() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' => out.push(c),
            '_' => out.push_str("__"),
            '-' => out.push_str("_h"),
            _ => return Err(DeepLinkError::InvalidValue { field }),
        }
    }
    Ok(out)
}

/// Reads a payload (the text after `/start `, or `start_param`). The empty payload is the empty
/// link. Never panics.
pub fn decode(payload: &str) -> Result<DeepLink, DeepLinkError> {
    let bytes = payload.as_bytes();
    if bytes.len() > STARTAPP_MAX_LEN {
        return Err(DeepLinkError::TooLong { len: bytes.len(), max: STARTAPP_MAX_LEN });
    }
    let mut link = DeepLink::default();
    if bytes.is_empty() {
        return Ok(link);
    }
    let mut start = 0;
    for segment in bytes.split(|&b| b == b'-') {
        read_segment(segment, start, &mut link)?;
        start += segment.len() + 1;
    }
    Ok(link)
}

fn read_segment(segment: &[u8], start: usize, link: &mut DeepLink) -> Result<(), DeepLinkError> {
    let Some(&kind) = segment.first() else {
        return Err(DeepLinkError::EmptySegment { position: start });
    };
    if !kind.is_ascii_alphanumeric() && kind != b'_' {
        return Err(DeepLinkError::InvalidCharacter { position: start });
    }
    match kind {
        b'p' => {
            let value = unescape(&segment[1..], start + 1)?;
            set_once(&mut link.promo_code, value, "promo_code")
        }
        b'g' | b't' | b'o' | b'v' => {
            let position = start + 1;
            let value = unescape(&segment[1..], position)?;
            let target = match kind {
                b'g' => Target::Game(value),
                b't' => Target::Tournament(value),
                b'o' => Target::Offer(value),
                _ => Target::Page(Page::from_name(&value).ok_or(DeepLinkError::UnknownPage { position })?),
            };
            set_once(&mut link.target, target, "target")
        }
        b'r' => {
            let position = start + 1;
            let value = unescape(&segment[1..], position)?;
            let canonical = !value.starts_with('0') || value == "0";
            let referral = match super::parse_unsigned(&value) {
                Some(id) if canonical => id,
                _ => return Err(DeepLinkError::InvalidReferral { position }),
            };
            set_once(&mut link.referral, referral, "referral")
        }
        b'x' => {
            let Some(&code) = segment.get(1) else {
                return Err(DeepLinkError::UnknownKind { position: start });
            };
            let key = TrackingKey::from_code(code).ok_or(if code.is_ascii_alphanumeric() || code == b'_' {
                DeepLinkError::UnknownKind { position: start }
            } else {
                DeepLinkError::InvalidCharacter { position: start + 1 }
            })?;
            let value = unescape(&segment[2..], start + 2)?;
            if link.tracking.iter().any(|(seen, _)| *seen == key) {
                return Err(DeepLinkError::Repeated(key.param()));
            }
            link.tracking.push((key, value));
            Ok(())
        }
        _ => Err(DeepLinkError::UnknownKind { position: start }),
    }
}

fn set_once<T>(slot: &mut Option<T>, value: T, what: &'static str) -> Result<(), DeepLinkError> {
    if slot.is_some() {
        return Err(DeepLinkError::Repeated(what));
    }
    *slot = Some(value);
    Ok(())
}

/// Decodes one value (`position` is its byte offset in the payload, for errors).
fn unescape(value: &[u8], position: usize) -> Result<String, DeepLinkError> {
    if value.is_empty() {
        return Err(DeepLinkError::EmptyValue { position });
    }
    let mut out = String::with_capacity(value.len());
    let mut index = 0;
    while let Some(&b) = value.get(index) {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => out.push(char::from(b)),
            b'_' => {
                index += 1;
                match value.get(index) {
                    Some(b'_') => out.push('_'),
                    Some(b'h') => out.push('-'),
                    _ => return Err(DeepLinkError::InvalidEscape { position: position + index - 1 }),
                }
            }
            _ => return Err(DeepLinkError::InvalidCharacter { position: position + index }),
        }
        index += 1;
    }
    Ok(out)
}

/// Fuzz entry point (see `shared/fuzz/`): decodes any bytes (read as lossy UTF-8) and, when they
/// decode, checks the grammar's promises — re-encoding succeeds, has the same length, stays in
/// the alphabet and decodes to the same link. Panics only if one of those promises is broken.
pub fn fuzz_decode(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(link) = decode(&text) else {
        return;
    };
    let again = encode(&link, Limit::StartApp);
    assert!(again.is_ok(), "a decoded link must re-encode: {text:?} -> {again:?}");
    let again = again.unwrap_or_default();
    assert_eq!(again.len(), text.len(), "canonical spelling has the same length: {text:?} -> {again:?}");
    assert!(again.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'), "alphabet: {again:?}");
    assert_eq!(decode(&again).as_ref(), Ok(&link), "round trip of {text:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(
        promo: Option<&str>,
        target: Option<Target>,
        referral: Option<u64>,
        tracking: &[(TrackingKey, &str)],
    ) -> DeepLink {
        DeepLink {
            promo_code: promo.map(str::to_owned),
            target,
            tracking: tracking.iter().map(|&(k, v)| (k, v.to_owned())).collect(),
            referral,
        }
    }

    #[test]
    fn the_documented_example() {
        let example = link(
            Some("WELCOME"),
            Some(Target::Game("book_of_dead".into())),
            Some(42),
            &[(TrackingKey::TrackId, "td_7")],
        );
        let payload = encode(&example, Limit::Start).unwrap();
        assert_eq!(payload, "pWELCOME-gbook__of__dead-r42-xttd__7");
        assert_eq!(payload.len(), 36);
        assert_eq!(decode(&payload).unwrap(), example);
    }

    #[test]
    fn every_kind_round_trips() {
        for page in Page::ALL {
            let l = link(None, Some(Target::Page(page)), None, &[]);
            let p = encode(&l, Limit::Start).unwrap();
            assert_eq!(p, format!("v{}", page.name()));
            assert_eq!(decode(&p).unwrap(), l);
            assert_eq!(Page::from_name(page.name()), Some(page));
        }
        let all_tracking: Vec<(TrackingKey, &str)> = TrackingKey::ALL.iter().map(|&k| (k, "a-b_c")).collect();
        let l = link(Some("X-1"), Some(Target::Tournament("77".into())), Some(0), &all_tracking);
        let p = encode(&l, Limit::StartApp).unwrap();
        assert_eq!(p, "pX_h1-t77-r0-xta_hb__c-xpa_hb__c-xga_hb__c-xea_hb__c-xla_hb__c");
        assert_eq!(decode(&p).unwrap(), l);
        let l = link(None, Some(Target::Offer("summer-2026".into())), Some(u64::MAX), &[]);
        let p = encode(&l, Limit::Start).unwrap();
        assert_eq!(p, "osummer_h2026-r18446744073709551615");
        assert_eq!(decode(&p).unwrap(), l);
    }

    #[test]
    fn empty_payload_is_the_empty_link() {
        assert_eq!(decode("").unwrap(), DeepLink::default());
        assert_eq!(encode(&DeepLink::default(), Limit::Start).unwrap(), "");
    }

    #[test]
    fn segments_in_any_order_decode_alike() {
        let a = decode("r5-pABC-vcashier-xlL1").unwrap();
        let b = decode("xlL1-vcashier-pABC-r5").unwrap();
        assert_eq!(a, b);
        assert_eq!(encode(&a, Limit::Start).unwrap(), "pABC-vcashier-r5-xlL1");
    }

    #[test]
    fn limits_are_exact() {
        let at = |n: usize| link(Some(&"A".repeat(n - 1)), None, None, &[]);
        assert_eq!(encode(&at(64), Limit::Start).unwrap().len(), 64);
        assert_eq!(encode(&at(65), Limit::Start), Err(DeepLinkError::TooLong { len: 65, max: 64 }));
        assert_eq!(encode(&at(65), Limit::StartApp).unwrap().len(), 65);
        assert_eq!(encode(&at(512), Limit::StartApp).unwrap().len(), 512);
        assert_eq!(encode(&at(513), Limit::StartApp), Err(DeepLinkError::TooLong { len: 513, max: 512 }));
        let long = format!("p{}", "A".repeat(512));
        assert_eq!(decode(&long), Err(DeepLinkError::TooLong { len: 513, max: 512 }));
        assert!(decode(&long[..512]).is_ok());
    }

    #[test]
    fn encode_refuses_bad_values() {
        for bad in ["", "a b", "a.b", "é", "a+b", "a/b"] {
            let l = link(Some(bad), None, None, &[]);
            assert_eq!(
                encode(&l, Limit::StartApp),
                Err(DeepLinkError::InvalidValue { field: "promo_code" }),
                "{bad:?}"
            );
        }
        let l = link(None, Some(Target::Game("a b".into())), None, &[]);
        assert_eq!(encode(&l, Limit::StartApp), Err(DeepLinkError::InvalidValue { field: "game" }));
        let l = link(None, None, None, &[(TrackingKey::GoalId, "1"), (TrackingKey::GoalId, "2")]);
        assert_eq!(encode(&l, Limit::StartApp), Err(DeepLinkError::Repeated("goal_id")));
    }

    #[test]
    fn decode_is_strict() {
        use DeepLinkError::*;
        let cases: &[(&str, DeepLinkError)] = &[
            ("-pA", EmptySegment { position: 0 }),
            ("pA-", EmptySegment { position: 3 }),
            ("pA--gB", EmptySegment { position: 3 }),
            ("zA", UnknownKind { position: 0 }),
            ("PA", UnknownKind { position: 0 }),
            ("_A", UnknownKind { position: 0 }),
            ("xzA", UnknownKind { position: 0 }),
            ("x", UnknownKind { position: 0 }),
            ("p", EmptyValue { position: 1 }),
            ("xt", EmptyValue { position: 2 }),
            ("pA B", InvalidCharacter { position: 2 }),
            ("pA.B", InvalidCharacter { position: 2 }),
            (" pA", InvalidCharacter { position: 0 }),
            ("pé", InvalidCharacter { position: 1 }),
            ("x.A", InvalidCharacter { position: 1 }),
            ("pA_", InvalidEscape { position: 2 }),
            ("pA_x", InvalidEscape { position: 2 }),
            ("pA_H", InvalidEscape { position: 2 }),
            ("r", EmptyValue { position: 1 }),
            ("r01", InvalidReferral { position: 1 }),
            ("r1a", InvalidReferral { position: 1 }),
            ("r18446744073709551616", InvalidReferral { position: 1 }),
            ("r1__", InvalidReferral { position: 1 }),
            ("vcasino", UnknownPage { position: 1 }),
            ("vHome", UnknownPage { position: 1 }),
            ("pA-pB", Repeated("promo_code")),
            ("gA-tB", Repeated("target")),
            ("r1-r2", Repeated("referral")),
            ("xtA-xtB", Repeated("track_id")),
        ];
        for (payload, expected) in cases {
            assert_eq!(decode(payload).as_ref(), Err(expected), "{payload:?}");
        }
    }

    #[test]
    fn target_paths() {
        assert_eq!(Target::Game("book_of_dead".into()).path(), "/game/book_of_dead");
        assert_eq!(Target::Tournament("7".into()).path(), "/tournaments/7");
        assert_eq!(Target::Offer("x".into()).path(), "/offers/x");
        assert_eq!(Target::Page(Page::Deposit).path(), "/cashier/deposit");
        assert_eq!(Target::Page(Page::Home).path(), "/");
    }

    /// xorshift64*: deterministic, dependency-free randomness for the property tests.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn chance(&mut self, percent: usize) -> bool {
            self.below(100) < percent
        }
        fn pick<T: Copy>(&mut self, items: &[T]) -> T {
            items[self.below(items.len())]
        }
    }

    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

    fn value(rng: &mut Rng) -> String {
        let len = 1 + if rng.chance(70) { rng.below(6) } else { rng.below(60) };
        (0..len).map(|_| char::from(rng.pick(ALPHABET))).collect()
    }

    fn random_link(rng: &mut Rng) -> DeepLink {
        let promo_code = rng.chance(50).then(|| value(rng));
        let target = match rng.below(5) {
            0 => None,
            1 => Some(Target::Game(value(rng))),
            2 => Some(Target::Tournament(value(rng))),
            3 => Some(Target::Offer(value(rng))),
            _ => Some(Target::Page(rng.pick(&Page::ALL))),
        };
        let referral = rng.chance(40).then(|| if rng.chance(20) { rng.next() } else { rng.next() % 100_000 });
        let mut keys = TrackingKey::ALL.to_vec();
        let mut tracking = Vec::new();
        for _ in 0..rng.below(4) {
            let key = keys.remove(rng.below(keys.len()));
            tracking.push((key, value(rng)));
        }
        DeepLink { promo_code, target, tracking, referral }
    }

    #[test]
    fn property_random_links_round_trip() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut fits_start, mut fits_startapp) = (0, 0);
        for _ in 0..5000 {
            let original = random_link(&mut rng);
            let unbounded = write(&original).unwrap();
            assert!(unbounded.bytes().all(|b| ALPHABET.contains(&b)), "{unbounded:?}");
            for limit in [Limit::Start, Limit::StartApp] {
                match encode(&original, limit) {
                    Ok(payload) => {
                        assert_eq!(payload, unbounded);
                        assert_eq!(decode(&payload).unwrap(), original, "{payload:?}");
                        if limit == Limit::Start {
                            fits_start += 1;
                        } else {
                            fits_startapp += 1;
                        }
                    }
                    Err(DeepLinkError::TooLong { len, max }) => {
                        assert_eq!(len, unbounded.len());
                        assert!(len > max && max == limit.max_len());
                    }
                    Err(other) => panic!("{original:?}: {other}"),
                }
            }
        }
        // Not vacuous: many links fit each limit.
        assert!(fits_start > 1000, "{fits_start}");
        assert!(fits_startapp > 4000, "{fits_startapp}");
    }

    #[test]
    fn property_random_strings_never_panic() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        // Mostly grammar-shaped text, so that many strings decode and the invariants are exercised.
        let shaped: &[u8] = b"pgtovrx-_hteplgx0123456789AbZ_-cashier";
        let mut decoded = 0;
        for round in 0..20_000 {
            let len = rng.below(if round % 10 == 0 { 600 } else { 40 });
            let text: Vec<u8> = (0..len)
                .map(|_| match rng.below(20) {
                    0 => rng.next() as u8,
                    1..=4 => rng.pick(ALPHABET),
                    _ => rng.pick(shaped),
                })
                .collect();
            fuzz_decode(&text);
            if std::str::from_utf8(&text).is_ok_and(|t| decode(t).is_ok()) {
                decoded += 1;
            }
        }
        assert!(decoded > 500, "only {decoded} random strings decoded");
        // And the encodings of random links, cut anywhere, never panic either.
        for _ in 0..2000 {
            let payload = write(&random_link(&mut rng)).unwrap();
            let cut = rng.below(payload.len() + 1);
            fuzz_decode(&payload.as_bytes()[..cut]);
            fuzz_decode(payload.as_bytes());
        }
    }
}
