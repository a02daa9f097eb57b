//! API methods registered only by tests, to drive the dispatcher through every path.

use croupier_server::api::{ApiError, Ctx, FieldErrors, Input, Registry};
use croupier_shared::FieldCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EchoInput {
    pub name: String,
    #[serde(default)]
    pub note: String,
    pub count: Option<i64>,
}

impl Input for EchoInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.name.chars().count() > 20 {
            errors.add_with("name", FieldCode::MaxLength, vec![("max", "20".into())]);
        }
        if self.count.is_some_and(|c| c < 0) {
            errors.add_with("count", FieldCode::MinValue, vec![("min", "0".into())]);
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Echo {
    pub name: String,
    pub note: String,
    pub count: Option<i64>,
    pub locale: String,
}

pub fn register(api: &mut Registry) {
    api.write("test.echo", "Echoes its input (tests only).", |ctx: Ctx, input: EchoInput| async move {
        Ok::<_, ApiError>(Echo {
            name: input.name,
            note: input.note,
            count: input.count,
            locale: ctx.locale.code().to_owned(),
        })
    });
    api.read(
        "test.read",
        "Echoes its input without changing anything (tests only).",
        |ctx: Ctx, input: EchoInput| async move {
            Ok::<_, ApiError>(Echo {
                name: input.name,
                note: input.note,
                count: input.count,
                locale: ctx.locale.code().to_owned(),
            })
        },
    );
    api.read("test.panic", "Panics (tests only).", |_: Ctx, _: croupier_server::api::NoInput| async move {
        if std::hint::black_box(true) {
            panic!("secret-panic-detail");
        }
        Ok::<_, ApiError>(0)
    });
    api.read("test.fail", "Fails internally (tests only).", |_: Ctx, _: croupier_server::api::NoInput| async move {
        Err::<u8, _>(ApiError::internal(anyhow::anyhow!("password=secret-internal-detail")))
    });
}
