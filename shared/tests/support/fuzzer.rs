//! The stable-Rust fuzz driver: runs an entry point (a crate's `fuzzing` module, the function the
//! nightly cargo-fuzz target calls too) on inputs mutated from real examples, a fixed number of
//! times, and reports. No coverage feedback (that needs nightly's sanitizer flags): it is random
//! testing around the seeds, deterministic for a given `CROUPIER_FUZZ_SEED`.
//!
//! - `CROUPIER_FUZZ_EXECUTIONS`: executions per target (default: the small budget of `make test`).
//! - `CROUPIER_FUZZ_SEED`: the random stream (default fixed, so CI runs are reproducible).
//! - `CROUPIER_FUZZ_REPORT`: a file each target appends its summary line to (`make fuzz`'s table).
//!
//! An input that panics is printed in hex, to be turned into a regression test.
//!
//! Shared by the test crates that fuzz (`#[path]`-included: test support, not library code).

use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

/// Inputs never grow past this: the parsers' own limits are smaller or checked with seeds.
const MAX_LEN: usize = 4096;
/// After this many failing inputs the target stops: one bug would otherwise print millions.
const MAX_FAILURES: u64 = 5;

/// Bytes that mean something to one parser or another: separators, escapes, quotes, brackets,
/// line ends, boundaries and numbers at the edges of `i64`.
const TOKENS: &[&[u8]] = &[
    b"&",
    b"=",
    b"%",
    b"%2",
    b"%FF",
    b"%C3%A9",
    b"%00",
    b"+",
    b"\"",
    b"\\",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"\r\n",
    b"\r\n\r\n",
    b"--",
    b"-",
    b"_",
    b"_h",
    b"__",
    b".",
    b"0",
    b"1",
    b"-1",
    b"99",
    b"1e400",
    b"null",
    b"true",
    b"9223372036854775807",
    b"-9223372036854775808",
    b"18446744073709551616",
    b"\xc3",
    b"\xff",
];

struct Rng(u64);

impl Rng {
    /// splitmix64: fast, and every seed gives a good stream.
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    Some(text.replace('_', "").parse().unwrap_or_else(|_| panic!("{name}={text:?} is not a whole number")))
}

/// One input: a seed changed by a few mutations, or (rarely) random bytes.
fn input(rng: &mut Rng, seeds: &[&[u8]], out: &mut Vec<u8>) {
    out.clear();
    if seeds.is_empty() || rng.below(16) == 0 {
        let len = rng.below(256);
        out.extend((0..len).map(|_| rng.next() as u8));
        return;
    }
    out.extend_from_slice(seeds[rng.below(seeds.len())]);
    let stack = 1 << rng.below(4);
    for _ in 0..1 + rng.below(stack) {
        let at = rng.below(out.len() + 1);
        match rng.below(9) {
            0 if at < out.len() => out[at] ^= 1 << rng.below(8),
            1 if at < out.len() => out[at] = rng.next() as u8,
            2 if at < out.len() => out[at] = out[at].wrapping_add(1 + rng.below(3) as u8),
            3 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                out.splice(at..at, token.iter().copied());
            }
            4 => {
                let end = (at + 1 + rng.below(16)).min(out.len());
                out.drain(at.min(end)..end);
            }
            5 if at < out.len() => {
                let end = (at + 1 + rng.below(32)).min(out.len());
                let copy = out[at..end].to_vec();
                let to = rng.below(out.len() + 1);
                out.splice(to..to, copy);
            }
            6 => {
                let other = seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + 1 + rng.below(64)).min(other.len());
                out.splice(at..at, other[from..end].iter().copied());
            }
            7 => out.truncate(at),
            _ => {
                let extra = 1 + rng.below(8);
                out.splice(at..at, (0..extra).map(|_| rng.next() as u8));
            }
        }
    }
    out.truncate(MAX_LEN);
}

/// Runs `entry` on every seed, then on `default_executions` (or `CROUPIER_FUZZ_EXECUTIONS`)
/// mutated inputs; prints the summary line and fails if any input panicked.
pub fn run(name: &str, default_executions: u64, seeds: &[&[u8]], entry: fn(&[u8])) {
    let executions = env_number("CROUPIER_FUZZ_EXECUTIONS").unwrap_or(default_executions);
    let seed = env_number("CROUPIER_FUZZ_SEED").unwrap_or(0x5EED_F022);
    let mut rng =
        Rng(seed
            ^ name.bytes().fold(0xCBF2_9CE4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)));
    let started = Instant::now();
    let mut failures = 0u64;
    let mut done = 0u64;
    let mut buffer = Vec::with_capacity(MAX_LEN);
    let failed = |case: &[u8], failures: &mut u64| {
        *failures += 1;
        eprintln!("fuzz {name}: this input panicked (hex): {}", hex::encode(case));
    };
    for seed in seeds {
        if panic::catch_unwind(AssertUnwindSafe(|| entry(seed))).is_err() {
            failed(seed, &mut failures);
        }
    }
    while done < executions && failures < MAX_FAILURES {
        input(&mut rng, seeds, &mut buffer);
        done += 1;
        if panic::catch_unwind(AssertUnwindSafe(|| entry(&buffer))).is_err() {
            failed(&buffer, &mut failures);
        }
    }
    let line = format!(
        "{name:<16} executions {done:>11}  seconds {:>8.1}  failures {failures}  (seed {seed:#x})",
        started.elapsed().as_secs_f64()
    );
    eprintln!("fuzz {line}");
    if let Ok(path) = std::env::var("CROUPIER_FUZZ_REPORT") {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("cannot append to {path}: {e}"));
        writeln!(file, "{line}").unwrap_or_else(|e| panic!("cannot append to {path}: {e}"));
    }
    assert_eq!(failures, 0, "{name}: {failures} input(s) panicked; their hex is printed above");
}
