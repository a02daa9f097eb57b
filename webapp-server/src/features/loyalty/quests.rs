//! Loyalty programmes and their quests (SPEC §7 `loyalty.getPrograms`, `loyalty.getProgram`):
//! "confirm your e-mail", "fill in your profile", "make 3 deposits", "play 100 rounds of a slot".
//!
//! A quest's progress is computed from the records themselves (the confirmed contact, the
//! profile, successful deposits, real-money rounds), never from a counter that could drift. A
//! quest is completed the first time its progress reaches its target when the player looks
//! (`loyalty.getPrograms`, `loyalty.getProgram`, and `loyalty.getnotifications`, which the client
//! calls on every path change): in one transaction on the player's lane it is marked done, its
//! points are credited (entry `quest:{quest}:{user}`, so once), a notice is written and the bot
//! tells the player.

use super::notices::{self, Draft};
use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, Registry};
use crate::db::now_ms;
use crate::features::bonuses::Rules;
use crate::features::notify::{self, Notice};
use croupier_shared::{FieldCode, Locale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;

pub fn register(api: &mut Registry) {
    api.read(
        "loyalty.getPrograms",
        "The loyalty programmes with their quests and the player's progress.",
        get_programs,
    );
    api.read(
        "loyalty.getProgram",
        "One loyalty programme (sysname) with its quests and the player's progress.",
        get_program,
    );
}

/// The goals a quest can have.
pub const GOALS: [&str; 4] = ["confirm_email", "fill_profile", "deposits", "rounds"];

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QuestRow {
    pub id: i64,
    pub program_id: i64,
    pub sysname: String,
    pub title_en: String,
    pub title_fr: String,
    pub description_en: String,
    pub description_fr: String,
    pub goal: String,
    pub target: i64,
    pub game_type: Option<String>,
    pub reward_points: i64,
}

const QUEST_COLUMNS: &str = "id, program_id, sysname, title_en, title_fr, description_en, description_fr, goal, target, game_type, reward_points";

async fn active_quests(conn: &mut AnyConnection) -> Result<Vec<QuestRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {QUEST_COLUMNS} FROM loyalty_quests q WHERE active = 1 \
         AND EXISTS (SELECT 1 FROM loyalty_programs p WHERE p.id = q.program_id AND p.active = 1) ORDER BY position, id"
    )))
    .fetch_all(&mut *conn)
    .await
}

/// How far `user_id` is on `quest`, from the records (at most its target).
pub async fn progress(conn: &mut AnyConnection, user_id: i64, quest: &QuestRow) -> Result<i64, sqlx::Error> {
    let target = quest.target.max(1);
    let done: i64 = match quest.goal.as_str() {
        "confirm_email" => {
            sqlx::query_scalar("SELECT COUNT(*) FROM contacts WHERE user_id = $1 AND kind = 'email' AND is_confirmed = 1")
                .bind(user_id)
                .fetch_one(&mut *conn)
                .await?
        }
        "fill_profile" => {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM profiles WHERE user_id = $1 AND COALESCE(first_name, '') <> '' \
                 AND COALESCE(last_name, '') <> '' AND COALESCE(birth_date, '') <> '' AND COALESCE(country, '') <> ''",
            )
            .bind(user_id)
            .fetch_one(&mut *conn)
            .await?
        }
        "deposits" => {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM (SELECT 1 FROM payments WHERE user_id = $1 AND direction = 'deposit' AND status = 'success' LIMIT $2) t",
            )
            .bind(user_id)
            .bind(target)
            .fetch_one(&mut *conn)
            .await?
        }
        "rounds" => match &quest.game_type {
            Some(game_type) => {
                sqlx::query_scalar(
                    "SELECT COUNT(*) FROM (SELECT 1 FROM game_rounds r JOIN games g ON g.id = r.game_id \
                     WHERE r.user_id = $1 AND r.mode = 'real' AND g.game_type = $2 LIMIT $3) t",
                )
                .bind(user_id)
                .bind(game_type)
                .bind(target)
                .fetch_one(&mut *conn)
                .await?
            }
            None => {
                sqlx::query_scalar(
                    "SELECT COUNT(*) FROM (SELECT 1 FROM game_rounds WHERE user_id = $1 AND mode = 'real' LIMIT $2) t",
                )
                .bind(user_id)
                .bind(target)
                .fetch_one(&mut *conn)
                .await?
            }
        },
        _ => 0,
    };
    Ok(done.min(target))
}

/// The notice trigger of a quest's goal (SPEC §3: confirm, profile, quest).
fn trigger(goal: &str) -> &'static str {
    match goal {
        "confirm_email" => "confirm",
        "fill_profile" => "profile",
        _ => "quest",
    }
}

async fn done_ids(conn: &mut AnyConnection, user_id: i64) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT quest_id, completed_at FROM loyalty_quests_done WHERE user_id = $1")
        .bind(user_id)
        .fetch_all(&mut *conn)
        .await
}

/// Completes every quest of `user_id` whose progress reached its target (see the module's docs).
/// Answers how many were completed now.
pub async fn check(state: &AppState, user_id: i64) -> Result<usize, ApiError> {
    let mut conn = state.db().pool().acquire().await?;
    let quests = active_quests(&mut conn).await?;
    let done = done_ids(&mut conn, user_id).await?;
    let mut ready = Vec::new();
    for q in quests.into_iter().filter(|q| !done.iter().any(|(id, _)| *id == q.id)) {
        if progress(&mut conn, user_id, &q).await? >= q.target.max(1) {
            ready.push(q);
        }
    }
    drop(conn);
    if ready.is_empty() {
        return Ok(0);
    }
    let (db, rules) = (state.db().clone(), Rules::of(state));
    let ready = std::sync::Arc::new(ready);
    state
        .db()
        .group(
            user_id,
            crate::db::group::job(move |conn| {
                let (db, ready) = (db.clone(), std::sync::Arc::clone(&ready));
                Box::pin(async move {
                    db.lock_user(conn, user_id).await?;
                    let mut completed = 0;
                    for q in ready.iter() {
                        if complete(conn, &rules, user_id, q).await? {
                            completed += 1;
                        }
                    }
                    Ok::<usize, ApiError>(completed)
                })
            }),
        )
        .await
}

/// Marks `quest` done and credits it, once. Answers false when it was already done.
async fn complete(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    quest: &QuestRow,
) -> Result<bool, sqlx::Error> {
    let marked: Option<i64> = sqlx::query_scalar(
        "INSERT INTO loyalty_quests_done (user_id, quest_id, completed_at) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id, quest_id) DO NOTHING RETURNING quest_id",
    )
    .bind(user_id)
    .bind(quest.id)
    .bind(now_ms())
    .fetch_optional(&mut *conn)
    .await?;
    if marked.is_none() {
        return Ok(false);
    }
    let key = format!("quest:{}:{user_id}", quest.id);
    let milli = quest.reward_points.saturating_mul(super::MILLI);
    super::entry(conn, rules, user_id, &key, "quest", milli, milli, Some(&quest.sysname)).await?;
    notices::add(
        conn,
        user_id,
        &key,
        Draft {
            trigger: trigger(&quest.goal),
            kind: if quest.reward_points > 0 { "credit" } else { "other" },
            title: (format!("Quest completed: {}", quest.title_en), format!("Quête accomplie : {}", quest.title_fr)),
            message: (
                format!("You earned {} points.", quest.reward_points),
                format!("Vous gagnez {} points.", quest.reward_points),
            ),
            amount: (quest.reward_points > 0).then(|| (quest.reward_points, "points".to_owned())),
            image: None,
        },
    )
    .await?;
    let notice = Notice::QuestCompleted {
        quest_id: quest.id,
        title_en: quest.title_en.clone(),
        title_fr: quest.title_fr.clone(),
        points: quest.reward_points,
    };
    notify::enqueue(conn, user_id, &key, &notice).await?;
    Ok(true)
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Quest {
    pub id: i64,
    pub sysname: String,
    pub title: String,
    pub description: String,
    pub target: i64,
    pub progress: i64,
    pub reward_points: i64,
    pub completed: bool,
    /// Unix seconds.
    pub completed_at: Option<i64>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Program {
    pub id: i64,
    pub sysname: String,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    /// Quests completed, of `total`.
    pub completed: i64,
    pub total: i64,
    pub quests: Vec<Quest>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Programs {
    pub items: Vec<Program>,
}

type ProgramRow = (i64, String, String, String, String, String, Option<String>);

async fn programs(ctx: &Ctx, user_id: i64, sysname: Option<&str>) -> Result<Vec<Program>, ApiError> {
    check(&ctx.state, user_id).await?;
    let mut conn = ctx.state.db().pool().acquire().await?;
    let rows: Vec<ProgramRow> = sqlx::query_as(
        "SELECT id, sysname, title_en, title_fr, description_en, description_fr, image FROM loyalty_programs \
         WHERE active = 1 ORDER BY position, id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let quests = active_quests(&mut conn).await?;
    let done = done_ids(&mut conn, user_id).await?;
    let fr = ctx.locale == Locale::Fr;
    let mut out = Vec::new();
    for (id, name, ten, tfr, den, dfr, image) in rows.into_iter().filter(|r| sysname.is_none_or(|s| s == r.1)) {
        let mut items = Vec::new();
        for q in quests.iter().filter(|q| q.program_id == id) {
            let completed_at = done.iter().find(|(qid, _)| *qid == q.id).map(|(_, at)| at / 1000);
            let target = q.target.max(1);
            let progress = if completed_at.is_some() { target } else { progress(&mut conn, user_id, q).await? };
            items.push(Quest {
                id: q.id,
                sysname: q.sysname.clone(),
                title: if fr { q.title_fr.clone() } else { q.title_en.clone() },
                description: if fr { q.description_fr.clone() } else { q.description_en.clone() },
                target,
                progress,
                reward_points: q.reward_points,
                completed: completed_at.is_some(),
                completed_at,
            });
        }
        out.push(Program {
            id,
            sysname: name,
            title: if fr { tfr } else { ten },
            description: if fr { dfr } else { den },
            image,
            completed: items.iter().filter(|q| q.completed).count() as i64,
            total: items.len() as i64,
            quests: items,
        });
    }
    Ok(out)
}

async fn get_programs(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<Programs, ApiError> {
    Ok(Programs { items: programs(&ctx, user.id, None).await? })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ProgramQuery {
    /// A programme's sysname (loyalty.getPrograms).
    #[serde(default)]
    #[schemars(extend("x-required" = true), length(max = 64), example = &"first-steps")]
    pub sysname: Option<String>,
}

impl Input for ProgramQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.sysname.as_deref() {
            None | Some("") => errors.add("sysname", FieldCode::Required),
            Some(s) if s.chars().count() > 64 => {
                errors.add_with("sysname", FieldCode::MaxLength, vec![("max", "64".into())])
            }
            Some(_) => {}
        }
    }
}

async fn get_program(ctx: Ctx, user: AuthUser, query: ProgramQuery) -> Result<Program, ApiError> {
    let sysname = query.sysname.unwrap_or_default();
    programs(&ctx, user.id, Some(&sysname))
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::field("sysname", FieldCode::NotFound))
}
