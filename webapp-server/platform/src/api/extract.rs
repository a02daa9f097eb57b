//! Who is calling: [`AuthUser`] (a signed-in player), [`MaybeUser`] (a guest or a player) and
//! [`Operator`] (the operator API's bearer token today, operator accounts later).
//!
//! Each works two ways: as an axum extractor (`FromRequestParts`) in a feature's own routes, and
//! as an argument of an `/api` method ([`FromCtx`]), where the dispatcher has already resolved
//! the session (a banned or deleted player's call was refused there). An `/api` method that
//! takes one receives it after its input was decoded and validated, so a guest with bad input
//! still hears about the input first.

use super::{ApiError, Ctx};
use crate::session::{self, Session};
use crate::state::AppState;
use axum::extract::{FromRef, FromRequestParts};
use axum::http::header;
use axum::http::request::Parts;
use croupier_shared::ErrorType;

/// A signed-in player; a guest is refused with `AuthorizationException` (401).
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub id: i64,
    pub session: Session,
}

/// A guest (`None`) or a signed-in player. As an axum extractor it is lenient: a cookie that
/// names no live session (expired, or a banned player's) is a guest, as on any public page.
#[derive(Debug, Clone)]
pub struct MaybeUser(pub Option<AuthUser>);

impl MaybeUser {
    pub fn id(&self) -> Option<i64> {
        self.0.as_ref().map(|u| u.id)
    }

    /// The caller of a request with these headers, read when a handler needs it and not before
    /// (the extractor does the same for every request it is on).
    pub async fn of(state: &AppState, headers: &axum::http::HeaderMap) -> MaybeUser {
        MaybeUser(session::resolve(state, headers).await.ok().and_then(|r| r.session).map(AuthUser::from))
    }
}

impl From<Session> for AuthUser {
    fn from(session: Session) -> AuthUser {
        AuthUser { id: session.user_id, session }
    }
}

/// A caller of the operator API: `Authorization: Bearer <CROUPIER_ADMIN_TOKEN>`, compared in
/// constant time, or a request the back office let through (an [`OperatorGrant`] in its
/// extensions). With no token configured and no grant every call is refused.
#[derive(Debug, Clone, Copy)]
pub struct Operator;

/// Put in a request's extensions by the back office's middleware once it has signed the
/// operator in, checked the permission and written the audit row: the `/admin` handlers mounted
/// under `/backoffice/api/admin` then accept it like the bearer token. Only server code can add
/// an extension; nothing a client sends becomes one.
#[derive(Debug, Clone, Copy)]
pub struct OperatorGrant;

impl Operator {
    /// Whether `headers` carry the operator token.
    pub fn authorized(state: &AppState, headers: &axum::http::HeaderMap) -> bool {
        let Some(expected) = &state.config().admin_token else { return false };
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        // Comparing MACs of both (constant time) instead of the strings themselves.
        let expected_mac = state.keys().sign("admin-token", &[expected.expose()]);
        !given.is_empty() && state.keys().verify("admin-token", &[given], &expected_mac)
    }
}

fn unauthorized() -> ApiError {
    ApiError::new(ErrorType::AuthorizationException)
}

impl<S> FromRequestParts<S> for MaybeUser
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<MaybeUser, ApiError> {
        Ok(MaybeUser::of(&AppState::from_ref(state), &parts.headers).await)
    }
}

impl<S> FromRequestParts<S> for AuthUser
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<AuthUser, ApiError> {
        MaybeUser::from_request_parts(parts, state).await?.0.ok_or_else(unauthorized)
    }
}

impl<S> FromRequestParts<S> for Operator
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Operator, ApiError> {
        if parts.extensions.get::<OperatorGrant>().is_some()
            || Operator::authorized(&AppState::from_ref(state), &parts.headers)
        {
            Ok(Operator)
        } else {
            Err(unauthorized())
        }
    }
}

/// What an `/api` method may take besides its context and input (see the module's docs).
pub trait FromCtx: Sized + Send + 'static {
    /// Whether it refuses a guest, so the method needs a session.
    const SIGNED_IN: bool = false;
    fn from_ctx(ctx: &Ctx) -> Result<Self, ApiError>;
}

impl FromCtx for AuthUser {
    const SIGNED_IN: bool = true;
    fn from_ctx(ctx: &Ctx) -> Result<AuthUser, ApiError> {
        ctx.session.clone().map(AuthUser::from).ok_or_else(unauthorized)
    }
}

impl FromCtx for MaybeUser {
    fn from_ctx(ctx: &Ctx) -> Result<MaybeUser, ApiError> {
        Ok(MaybeUser(ctx.session.clone().map(AuthUser::from)))
    }
}

impl FromCtx for Operator {
    fn from_ctx(ctx: &Ctx) -> Result<Operator, ApiError> {
        if Operator::authorized(&ctx.state, &ctx.headers) { Ok(Operator) } else { Err(unauthorized()) }
    }
}
