//! Reading and writing accounts and contacts.

use crate::api::ApiError;
use crate::db::{Db, now_ms};
use crate::features::account::rules;
use crate::messaging::Channel;
use croupier_shared::{ErrorType, FieldCode};
use sqlx::AnyConnection;

/// What a player signs in with: an e-mail, or a phone number's digits (country code first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Login {
    Email(String),
    Phone { number: String, country_code: String },
}

impl Login {
    /// Reads a login as typed: anything with an `@` is an e-mail, anything else a phone number
    /// (SPEC: sent without a leading +; separators are ignored).
    pub fn parse(text: &str) -> Login {
        let text = text.trim();
        if text.contains('@') {
            Login::Email(rules::normalize_email(text))
        } else {
            Login::Phone { number: text.chars().filter(char::is_ascii_digit).collect(), country_code: String::new() }
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Login::Email(_) => "email",
            Login::Phone { .. } => "phone",
        }
    }

    pub fn value(&self) -> &str {
        match self {
            Login::Email(e) => e,
            Login::Phone { number, .. } => number,
        }
    }

    /// The key codes and rate limits use for this contact.
    pub fn subject(&self) -> String {
        format!("{}:{}", self.kind(), self.value())
    }
}

/// The channel and address a login's messages go to.
pub fn delivery_of(login: &Login) -> (Channel, String) {
    match login {
        Login::Email(e) => (Channel::Email, e.clone()),
        Login::Phone { number, .. } => (Channel::Sms, number.clone()),
    }
}

pub const USER_COLUMNS: &str = "u.id, u.fakename, u.password_hash, u.currency, u.locale, u.country_code, u.status, \
u.ban_type, u.two_factor_auth, u.is_registration_completed, u.is_on_verification, u.is_verified, \
u.is_kyc_block_enabled, u.first_money_movement_at, u.reg_time, u.blocked_until, u.blocked_kind, u.kyc_status, u.kyc_comment, u.reality_check_minutes";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: i64,
    pub fakename: Option<String>,
    pub password_hash: Option<String>,
    pub currency: Option<String>,
    pub locale: String,
    pub country_code: Option<String>,
    pub status: String,
    pub ban_type: Option<String>,
    pub two_factor_auth: i64,
    pub is_registration_completed: i64,
    pub is_on_verification: i64,
    pub is_verified: i64,
    pub is_kyc_block_enabled: i64,
    pub first_money_movement_at: Option<i64>,
    pub reg_time: i64,
    /// The end of the time-out or self-exclusion in force (unix ms), if one was ever set.
    pub blocked_until: Option<i64>,
    pub blocked_kind: Option<String>,
    pub kyc_status: String,
    pub kyc_comment: Option<String>,
    /// Minutes between reality checks; `None`: none.
    pub reality_check_minutes: Option<i64>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ContactRow {
    pub id: i64,
    pub kind: String,
    pub contact: String,
    pub phone_country_code: Option<String>,
    pub is_login: i64,
    pub is_confirmed: i64,
    pub is_subscribed: i64,
}

impl ContactRow {
    pub fn login(&self) -> Login {
        if self.kind == "phone" {
            Login::Phone {
                number: self.contact.clone(),
                country_code: self.phone_country_code.clone().unwrap_or_default(),
            }
        } else {
            Login::Email(self.contact.clone())
        }
    }
}

pub async fn load(db: &Db, user_id: i64) -> Result<UserRow, ApiError> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1");
    sqlx::query_as::<_, UserRow>(sqlx::AssertSqlSafe(sql))
        .bind(user_id)
        .fetch_one(db.pool())
        .await
        .map_err(ApiError::from)
}

pub async fn find_by_login(db: &Db, login: &Login) -> Result<Option<UserRow>, ApiError> {
    if login.value().is_empty() {
        return Ok(None);
    }
    let sql = format!(
        "SELECT {USER_COLUMNS} FROM users u JOIN contacts c ON c.user_id = u.id \
         WHERE c.kind = $1 AND c.contact = $2 AND c.is_login = 1"
    );
    Ok(sqlx::query_as::<_, UserRow>(sqlx::AssertSqlSafe(sql))
        .bind(login.kind())
        .bind(login.value())
        .fetch_optional(db.pool())
        .await?)
}

pub async fn contacts(db: &Db, user_id: i64) -> Result<Vec<ContactRow>, ApiError> {
    Ok(sqlx::query_as::<_, ContactRow>(
        "SELECT id, kind, contact, phone_country_code, is_login, is_confirmed, is_subscribed FROM contacts \
         WHERE user_id = $1 ORDER BY is_login DESC, id",
    )
    .bind(user_id)
    .fetch_all(db.pool())
    .await?)
}

/// Banned and deleted accounts cannot sign in.
pub fn refuse_unless_active(user: &UserRow) -> Result<(), ApiError> {
    match user.status.as_str() {
        "banned" => Err(ApiError::new(ErrorType::UserBannedException)
            .with_data("ban_type", user.ban_type.clone().unwrap_or_else(|| "permanent".into()))),
        "deleted" => Err(ApiError::new(ErrorType::UserDeletedException)),
        _ => Ok(()),
    }
}

pub async fn insert_contact(
    conn: &mut AnyConnection,
    user_id: i64,
    login: &Login,
    is_login: bool,
) -> Result<(), ApiError> {
    let country_code = match login {
        Login::Phone { country_code, .. } if !country_code.is_empty() => Some(country_code.clone()),
        _ => None,
    };
    sqlx::query(
        "INSERT INTO contacts (user_id, kind, contact, phone_country_code, is_login, is_confirmed, is_subscribed, created_at) \
         VALUES ($1, $2, $3, $4, $5, 0, 1, $6)",
    )
    .bind(user_id)
    .bind(login.kind())
    .bind(login.value())
    .bind(country_code)
    .bind(i64::from(is_login))
    .bind(now_ms())
    .execute(conn)
    .await
    .map_err(|e| taken_or(e, if login.kind() == "phone" { "phone" } else { "email" }))?;
    Ok(())
}

/// A unique-constraint violation is the player's `TAKEN` field error; anything else is internal.
pub fn taken_or(e: sqlx::Error, field: &str) -> ApiError {
    match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => ApiError::field(field, FieldCode::Taken),
        _ => ApiError::internal(e),
    }
}

/// One refused field as an error.
pub fn field_error(field: &str, code: FieldCode) -> ApiError {
    ApiError::field(field, code)
}
