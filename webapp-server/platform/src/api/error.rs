//! The one error type at the HTTP edge. It renders the `/api` envelope of DESIGN.md:
//! `{"status":"error","error":{"type","message","error_data":{"<field>":["<CODE>"]}}}`.
//! A 5xx logs its cause and sends none of it.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use croupier_shared::{ErrorType, FieldCode, Locale};
use serde_json::{Map, Value, json};
use std::time::Duration;

/// One refused field: its name, why, and the values that fill the message's placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub code: FieldCode,
    pub params: Vec<(&'static str, String)>,
}

#[derive(Debug)]
pub struct ApiError {
    pub kind: ErrorType,
    status: Option<StatusCode>,
    fields: Vec<FieldError>,
    extra: Map<String, Value>,
    retry_after: Option<Duration>,
    cause: Option<anyhow::Error>,
}

impl ApiError {
    pub fn new(kind: ErrorType) -> ApiError {
        ApiError { kind, status: None, fields: Vec::new(), extra: Map::new(), retry_after: None, cause: None }
    }

    /// An unexpected failure: logged with its cause, answered as a bare 500.
    pub fn internal(cause: impl Into<anyhow::Error>) -> ApiError {
        ApiError { cause: Some(cause.into()), ..ApiError::new(ErrorType::InternalServerErrorException) }
    }

    /// A validation failure of one or more fields.
    pub fn invalid(fields: Vec<FieldError>) -> ApiError {
        ApiError { fields, ..ApiError::new(ErrorType::InvalidParameterException) }
    }

    /// One refused field (`InvalidParameterException`).
    pub fn field(field: &str, code: FieldCode) -> ApiError {
        ApiError::field_with(field, code, Vec::new())
    }

    /// One refused field whose message has placeholders.
    pub fn field_with(field: &str, code: FieldCode, params: Vec<(&'static str, String)>) -> ApiError {
        ApiError::invalid(vec![FieldError { field: field.to_owned(), code, params }])
    }

    /// A malformed request (not a business rule), optionally naming the part at fault.
    pub fn bad_request(field: Option<(&str, FieldCode)>) -> ApiError {
        let mut err = ApiError::new(ErrorType::InvalidRequestException);
        if let Some((name, code)) = field {
            err.fields.push(FieldError { field: name.to_owned(), code, params: Vec::new() });
        }
        err
    }

    pub fn with_status(mut self, status: StatusCode) -> ApiError {
        self.status = Some(status);
        self
    }

    /// Extra machine-readable data merged into `error_data` (e.g. `resend_time`, a ban type).
    pub fn with_data(mut self, key: &str, value: impl Into<Value>) -> ApiError {
        self.extra.insert(key.to_owned(), value.into());
        self
    }

    pub fn too_many_requests(retry_after: Duration) -> ApiError {
        let seconds = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
        let mut err = ApiError::new(ErrorType::TooManyRequestsException).with_data("retry_after", seconds);
        err.retry_after = Some(Duration::from_secs(seconds));
        err
    }

    pub fn fields(&self) -> &[FieldError] {
        &self.fields
    }

    pub fn status(&self) -> StatusCode {
        self.status.unwrap_or_else(|| {
            StatusCode::from_u16(self.kind.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
        })
    }

    /// The envelope in the player's language.
    pub fn render(self, locale: Locale) -> Response {
        let status = self.status();
        if status.is_server_error() {
            match &self.cause {
                Some(cause) => tracing::error!(error.kind = self.kind.name(), error.cause = ?cause, "request failed"),
                None => tracing::warn!(error.kind = self.kind.name(), "request failed"),
            }
        }
        let message = match self.fields.first() {
            Some(first) => first.code.message(locale, &params(first)),
            None => self.kind.message(locale).to_owned(),
        };
        let mut error_data = Map::new();
        for f in &self.fields {
            let codes = error_data.entry(f.field.clone()).or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = codes {
                list.push(Value::String(f.code.code().to_owned()));
            }
        }
        error_data.extend(self.extra);
        let body = json!({
            "status": "error",
            "error": { "type": self.kind.name(), "message": message, "error_data": error_data },
        });
        let mut response = (status, Json(body)).into_response();
        if let Some(wait) = self.retry_after
            && let Ok(value) = HeaderValue::from_str(&wait.as_secs().to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

fn params(field: &FieldError) -> Vec<(&str, &str)> {
    field.params.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.render(Locale::En)
    }
}

/// A database failure is unexpected (500), except that no connection came free in the pool's
/// wait (a burst beyond the pool) or the pool is closing (shutdown): that is a temporary
/// unavailability, answered 503 with `Retry-After: 1` so clients retry instead of reporting a
/// fault. The cause is logged either way.
impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> ApiError {
        match e {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => ApiError {
                cause: Some(e.into()),
                retry_after: Some(Duration::from_secs(1)),
                ..ApiError::new(ErrorType::ApplicationUnavailableException)
            },
            other => ApiError::internal(other),
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> ApiError {
        ApiError::internal(e)
    }
}

impl From<crate::coord::CoordError> for ApiError {
    fn from(e: crate::coord::CoordError) -> ApiError {
        ApiError::internal(e)
    }
}

/// Collects field failures during validation, so every bad field is reported at once.
#[derive(Debug, Default)]
pub struct FieldErrors(Vec<FieldError>);

impl FieldErrors {
    pub fn add(&mut self, field: &str, code: FieldCode) {
        self.0.push(FieldError { field: field.to_owned(), code, params: Vec::new() });
    }

    pub fn add_with(&mut self, field: &str, code: FieldCode, params: Vec<(&'static str, String)>) {
        self.0.push(FieldError { field: field.to_owned(), code, params });
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok` when nothing was refused, else an `InvalidParameterException` naming every field.
    pub fn into_result(self) -> Result<(), ApiError> {
        if self.0.is_empty() { Ok(()) } else { Err(ApiError::invalid(self.0)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exhausted_pool_is_a_temporary_unavailability_and_other_database_errors_are_faults() {
        for busy in [sqlx::Error::PoolTimedOut, sqlx::Error::PoolClosed] {
            let err = ApiError::from(busy);
            assert_eq!(err.kind, ErrorType::ApplicationUnavailableException);
            assert_eq!(err.status(), StatusCode::SERVICE_UNAVAILABLE);
            let response = err.render(Locale::En);
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(response.headers().get(header::RETRY_AFTER).and_then(|v| v.to_str().ok()), Some("1"));
        }
        let fault = ApiError::from(sqlx::Error::RowNotFound);
        assert_eq!(fault.kind, ErrorType::InternalServerErrorException);
        assert_eq!(fault.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(fault.render(Locale::En).headers().get(header::RETRY_AFTER).is_none());
    }
}
