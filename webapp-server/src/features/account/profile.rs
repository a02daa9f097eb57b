//! Personal data: `account.getprofileinfo`, `account.saveProfileInfo`,
//! `Account.getPersonalDataFields` (SPEC §3 "Profile", §5 rules).

use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, One, Registry};
use crate::db::now_ms;
use crate::features::account::rules;
use crate::features::account::store;
use croupier_shared::FieldCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Players must be adults.
pub const MINIMUM_AGE: u32 = 18;
/// Document types accepted; `cpf` numbers are checked with their check digits.
pub const DOCUMENT_TYPES: [&str; 4] = ["cpf", "passport", "id_card", "driving_license"];

pub fn register(api: &mut Registry) {
    api.read(
        "account.getprofileinfo",
        "The player's personal data; `fields` may add contacts and document.",
        get_profile,
    );
    api.write("account.saveProfileInfo", "Saves the personal data fields given.", save_profile);
    api.read(
        "Account.getPersonalDataFields",
        "The personal data form: each field, its rule and whether it is filled.",
        fields,
    );
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ProfileQuery {
    /// Comma-separated extras: `contacts`, `document`.
    #[serde(default)]
    pub fields: String,
}

impl Input for ProfileQuery {}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ContactView {
    #[serde(rename = "type")]
    pub kind: String,
    pub contact: String,
    pub is_confirmed: bool,
    pub is_subscribed: bool,
    pub is_login: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone_country_code: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DocumentView {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub number: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema, sqlx::FromRow)]
pub struct ProfileFields {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// 0 unspecified, 1 male, 2 female.
    pub sex: Option<i64>,
    /// dd.mm.yyyy
    pub birth_date: Option<String>,
    pub country: Option<String>,
    pub region: Option<String>,
    pub home_town: Option<String>,
    pub address: Option<String>,
    pub postcode: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ProfileInfo {
    #[serde(flatten)]
    pub fields: ProfileFields,
    pub country_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contacts: Option<Vec<ContactView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<DocumentView>,
}

#[derive(sqlx::FromRow)]
struct ProfileRow {
    #[sqlx(flatten)]
    fields: ProfileFields,
    document_type: Option<String>,
    document_number: Option<String>,
}

async fn load_profile(ctx: &Ctx, user_id: i64) -> Result<(ProfileFields, Option<String>, Option<String>), ApiError> {
    let row: Option<ProfileRow> = sqlx::query_as(
        "SELECT first_name, last_name, birth_date, sex, country, region, home_town, address, postcode, document_type, \
         document_number FROM profiles WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(ctx.state.db().pool())
    .await?;
    Ok(row.map_or_else(|| (ProfileFields::default(), None, None), |r| (r.fields, r.document_type, r.document_number)))
}

async fn get_profile(ctx: Ctx, user: AuthUser, query: ProfileQuery) -> Result<ProfileInfo, ApiError> {
    let user_id = user.id;
    let wants: Vec<&str> = query.fields.split(',').map(str::trim).collect();
    let (fields, doc_type, doc_number) = load_profile(&ctx, user_id).await?;
    let user = store::load(ctx.state.db(), user_id).await?;
    let contacts = if wants.contains(&"contacts") {
        let rows = store::contacts(ctx.state.db(), user_id).await?;
        Some(
            rows.into_iter()
                .map(|c| ContactView {
                    kind: c.kind,
                    contact: c.contact,
                    is_confirmed: c.is_confirmed != 0,
                    is_subscribed: c.is_subscribed != 0,
                    is_login: c.is_login != 0,
                    phone_country_code: c.phone_country_code,
                })
                .collect(),
        )
    } else {
        None
    };
    let document = wants.contains(&"document").then_some(DocumentView { kind: doc_type, number: doc_number });
    Ok(ProfileInfo { fields, country_code: user.country_code, contacts, document })
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SaveProfileInput {
    /// No digits or symbols, at most 64 characters, not blank.
    #[schemars(pattern(rules::schema::NAME), example = &"Ann")]
    pub first_name: Option<String>,
    /// No digits or symbols, at most 64 characters, not blank.
    #[schemars(pattern(rules::schema::NAME), example = &"Lee")]
    pub last_name: Option<String>,
    /// 0 unspecified, 1 male, 2 female.
    #[schemars(pattern(r"^\s*[012]\s*$"))]
    pub sex: Option<String>,
    /// dd.mm.yyyy or yyyy-mm-dd, a day that exists; the player must be an adult.
    #[schemars(example = &"01.02.1990")]
    pub birth_date: Option<String>,
    /// No digits or symbols, at most 64 characters, not blank.
    #[schemars(pattern(rules::schema::NAME))]
    pub country: Option<String>,
    /// ISO 3166-1 alpha-2.
    #[schemars(pattern(r"^[A-Za-z]{2}$"))]
    pub country_code: Option<String>,
    /// At most 128 characters, not blank; digits, `|` and `/` allowed.
    #[schemars(pattern(rules::schema::ADDRESS))]
    pub region: Option<String>,
    /// At most 128 characters, not blank; digits, `|` and `/` allowed.
    #[schemars(pattern(rules::schema::ADDRESS))]
    pub home_town: Option<String>,
    /// At most 128 characters, not blank; digits, `|` and `/` allowed.
    #[schemars(pattern(rules::schema::ADDRESS))]
    pub address: Option<String>,
    /// 1 to 8 digits.
    #[schemars(pattern(rules::schema::POSTCODE))]
    pub postcode: Option<String>,
    /// One of cpf, passport, id_card, driving_license.
    #[schemars(extend("enum" = DOCUMENT_TYPES))]
    pub document_type: Option<String>,
    /// At most 32 characters, not blank; a valid CPF number for `cpf`.
    #[schemars(length(max = 32), pattern(rules::schema::NOT_BLANK))]
    pub document_number: Option<String>,
}

/// Today's civil date (UTC), for the age rule.
pub fn today() -> (i32, u32, u32) {
    let (year, month, day) = croupier_platform::time::civil_from_days(crate::db::now_ms().div_euclid(86_400_000));
    (i32::try_from(year).unwrap_or(1970), u32::try_from(month).unwrap_or(1), u32::try_from(day).unwrap_or(1))
}

impl Input for SaveProfileInput {
    fn validate(&self, errors: &mut FieldErrors) {
        let check = |errors: &mut FieldErrors,
                     field: &str,
                     value: &Option<String>,
                     rule: &dyn Fn(&str) -> rules::RuleResult| {
            if let Some(v) = value {
                rules::report(errors, field, rule(v));
            }
        };
        check(errors, "first_name", &self.first_name, &rules::name);
        check(errors, "last_name", &self.last_name, &rules::name);
        check(errors, "sex", &self.sex, &rules::sex);
        check(errors, "birth_date", &self.birth_date, &|v| rules::adult_birth_date(v, today(), MINIMUM_AGE));
        check(errors, "country", &self.country, &rules::name);
        check(errors, "region", &self.region, &rules::address);
        check(errors, "home_town", &self.home_town, &rules::address);
        check(errors, "address", &self.address, &rules::address);
        check(errors, "postcode", &self.postcode, &|v| rules::postcode(v, None));
        if let Some(code) = &self.country_code
            && (code.len() != 2 || !code.bytes().all(|b| b.is_ascii_alphabetic()))
        {
            errors.add("country_code", FieldCode::Invalid);
        }
        if let Some(kind) = &self.document_type
            && !DOCUMENT_TYPES.contains(&kind.as_str())
        {
            errors.add("document_type", FieldCode::Unsupported);
        }
        if let Some(number) = &self.document_number {
            let rule = if self.document_type.as_deref() == Some("cpf") {
                rules::cpf(number)
            } else {
                rules::text(number, true)
            };
            rules::report(errors, "document_number", rule);
            if number.chars().count() > 32 {
                errors.add_with("document_number", FieldCode::MaxLength, vec![("max", "32".into())]);
            }
        }
    }
}

async fn save_profile(ctx: Ctx, user: AuthUser, input: SaveProfileInput) -> Result<One, ApiError> {
    let user_id = user.id;
    let trim = |v: &Option<String>| v.as_deref().map(str::trim).map(str::to_owned);
    let now = now_ms();
    let mut tx = ctx.state.db().begin().await?;
    sqlx::query(
        "INSERT INTO profiles (user_id, first_name, last_name, sex, birth_date, country, region, home_town, address, postcode, \
         document_type, document_number, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
         ON CONFLICT (user_id) DO UPDATE SET \
         first_name = COALESCE(excluded.first_name, profiles.first_name), \
         last_name = COALESCE(excluded.last_name, profiles.last_name), \
         sex = COALESCE(excluded.sex, profiles.sex), \
         birth_date = COALESCE(excluded.birth_date, profiles.birth_date), \
         country = COALESCE(excluded.country, profiles.country), \
         region = COALESCE(excluded.region, profiles.region), \
         home_town = COALESCE(excluded.home_town, profiles.home_town), \
         address = COALESCE(excluded.address, profiles.address), \
         postcode = COALESCE(excluded.postcode, profiles.postcode), \
         document_type = COALESCE(excluded.document_type, profiles.document_type), \
         document_number = COALESCE(excluded.document_number, profiles.document_number), \
         updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(trim(&input.first_name))
    .bind(trim(&input.last_name))
    .bind(input.sex.as_deref().and_then(|s| s.trim().parse::<i64>().ok()))
    .bind(trim(&input.birth_date))
    .bind(trim(&input.country))
    .bind(trim(&input.region))
    .bind(trim(&input.home_town))
    .bind(trim(&input.address))
    .bind(trim(&input.postcode))
    .bind(trim(&input.document_type))
    .bind(trim(&input.document_number))
    .bind(now)
    .execute(&mut *tx)
    .await?;
    if let Some(code) = &input.country_code {
        sqlx::query("UPDATE users SET country_code = $1, updated_at = $2 WHERE id = $3")
            .bind(code.trim().to_ascii_uppercase())
            .bind(now)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(One)
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PersonalDataField {
    pub name: &'static str,
    /// The SPEC §5 rule type the client validates it with.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Needed before a withdrawal.
    pub required: bool,
    pub max_length: Option<u32>,
    pub filled: bool,
}

/// The personal-data form. Fields marked required are the ones a withdrawal needs
/// (`UserNeedProfileDataException` otherwise).
pub const FORM: [(&str, &str, bool, Option<u32>); 10] = [
    ("first_name", "name", true, Some(64)),
    ("last_name", "name", true, Some(64)),
    ("birth_date", "date", true, None),
    ("sex", "sex", false, None),
    ("country_code", "text", true, Some(2)),
    ("region", "address", false, Some(128)),
    ("home_town", "address", true, Some(128)),
    ("address", "address", true, Some(128)),
    ("postcode", "postcode", true, Some(8)),
    ("document_number", "documentNumber", false, Some(32)),
];

async fn fields(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<Vec<PersonalDataField>, ApiError> {
    let user_id = user.id;
    let (profile, _, doc_number) = load_profile(&ctx, user_id).await?;
    let user = store::load(ctx.state.db(), user_id).await?;
    let filled = |name: &str| match name {
        "first_name" => profile.first_name.is_some(),
        "last_name" => profile.last_name.is_some(),
        "birth_date" => profile.birth_date.is_some(),
        "sex" => profile.sex.is_some(),
        "country_code" => user.country_code.is_some(),
        "region" => profile.region.is_some(),
        "home_town" => profile.home_town.is_some(),
        "address" => profile.address.is_some(),
        "postcode" => profile.postcode.is_some(),
        "document_number" => doc_number.is_some(),
        _ => false,
    };
    Ok(FORM
        .iter()
        .map(|(name, kind, required, max_length)| PersonalDataField {
            name,
            kind,
            required: *required,
            max_length: *max_length,
            filled: filled(name),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn today_is_a_real_date() {
        let (y, m, d) = super::today();
        assert!(y >= 2024 && (1..=12).contains(&m) && (1..=31).contains(&d));
    }
}
