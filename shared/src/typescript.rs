//! The TypeScript twin of the error catalogue, generated into the client.
//! `shared/tests/typescript_twin.rs` fails when the committed file is stale; `make gen` rewrites it.

use crate::{ErrorType, FieldCode};
use std::fmt::Write as _;

/// Where the twin lives, relative to the workspace root.
pub const TWIN_PATH: &str = "miniapp/src/lib/api/errors.gen.ts";

pub fn errors_twin() -> String {
    let mut out = String::from("// Generated from shared/src/errors.rs by `make gen`. Do not edit.\n\n");
    out.push_str("export const ERROR_TYPES = [\n");
    for e in ErrorType::ALL {
        let _ = writeln!(out, "  \"{}\",", e.name());
    }
    out.push_str("] as const;\n\nexport type ErrorType = (typeof ERROR_TYPES)[number];\n\n");
    out.push_str("export const ERROR_STATUS: Record<ErrorType, number> = {\n");
    for e in ErrorType::ALL {
        let _ = writeln!(out, "  {}: {},", e.name(), e.http_status());
    }
    out.push_str("};\n\nexport const FIELD_ERROR_CODES = [\n");
    for f in FieldCode::ALL {
        let _ = writeln!(out, "  \"{}\",", f.code());
    }
    out.push_str("] as const;\n\nexport type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];\n");
    out
}
