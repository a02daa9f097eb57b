//! Load-test fixtures for `make bench` (issue 6): a generated catalogue of many games over many
//! providers (its tiles are the house games' own drawings) and players ready to play house
//! rounds — funded through the ledger, each with a launch session.

use super::catalogue::fold;
use super::wallet::token_hash;
use crate::db::{Db, now_ms};
use crate::ledger::{self, Account, Entry, HouseAccount};
use croupier_shared::Currency;

pub const PROVIDERS: usize = 40;
const ADJECTIVES: [(&str, &str); 16] = [
    ("Golden", "doré"),
    ("Lucky", "chanceux"),
    ("Wild", "sauvage"),
    ("Royal", "royal"),
    ("Mystic", "mystique"),
    ("Blazing", "ardent"),
    ("Frozen", "gelé"),
    ("Ancient", "antique"),
    ("Sunny", "ensoleillé"),
    ("Midnight", "de minuit"),
    ("Crystal", "de cristal"),
    ("Thunder", "du tonnerre"),
    ("Emerald", "d'émeraude"),
    ("Cosmic", "cosmique"),
    ("Jolly", "joyeux"),
    ("Silver", "argenté"),
];
const NOUNS: [(&str, &str); 16] = [
    ("Dragon", "Dragon"),
    ("Fruits", "Fruits"),
    ("Pharaoh", "Pharaon"),
    ("Tiger", "Tigre"),
    ("Treasure", "Trésor"),
    ("Wolf", "Loup"),
    ("Pearl", "Perle"),
    ("Castle", "Château"),
    ("Rocket", "Fusée"),
    ("Panda", "Panda"),
    ("Volcano", "Volcan"),
    ("Garden", "Jardin"),
    ("Pirate", "Pirate"),
    ("Phoenix", "Phénix"),
    ("Bandit", "Bandit"),
    ("Comet", "Comète"),
];

/// Adds `count` generated games (`bench-00001`…) over [`PROVIDERS`] providers, each in one or two
/// lobby categories; answers how many were written.
pub async fn generate_catalogue(db: &Db, count: usize) -> Result<usize, sqlx::Error> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    for p in 0..PROVIDERS {
        sqlx::query("INSERT INTO game_providers (sysname, name, kind, sort) VALUES ($1, $2, 'external', $3) ON CONFLICT (sysname) DO NOTHING")
            .bind(format!("studio-{p:02}"))
            .bind(format!("Studio {p:02}"))
            .bind(i64::try_from(p).unwrap_or(0) + 10)
            .execute(&mut *tx)
            .await?;
    }
    let types = ["slot", "slot", "slot", "casino", "fast", "live"];
    let tiles = super::house::GAMES;
    for i in 0..count {
        let (adj_en, adj_fr) = ADJECTIVES[i % ADJECTIVES.len()];
        let (noun_en, noun_fr) = NOUNS[(i / ADJECTIVES.len()) % NOUNS.len()];
        let n = i / (ADJECTIVES.len() * NOUNS.len()) + 1;
        let en = format!("{adj_en} {noun_en} {n}");
        let fr = format!("{noun_fr} {adj_fr} {n}");
        let sysname = format!("bench-{i:05}");
        let game_type = types[i % types.len()];
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO games (sysname, provider, game_type, name_en, name_fr, image_url, search_text, rtp_bp, volatility, has_demo, config, popularity, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 9600, 'medium', 1, '{}', $8, $9) RETURNING id",
        )
        .bind(&sysname)
        .bind(format!("studio-{:02}", i % PROVIDERS))
        .bind(game_type)
        .bind(&en)
        .bind(&fr)
        .bind(format!("/games/house/{}/tile.svg", tiles[i % tiles.len()]))
        .bind(fold(&format!("{en} {fr} {sysname}")))
        .bind(i64::try_from((i * 7_919) % 10_007).unwrap_or(0))
        .bind(now - i64::try_from(i).unwrap_or(0) * 1_000)
        .fetch_one(&mut *tx)
        .await?;
        let by_type = match game_type {
            "slot" => "slots",
            "casino" | "live" => "table",
            other => other,
        };
        let extra = if i % 3 == 0 { "popular" } else { "new" };
        for category in [by_type, extra] {
            sqlx::query("INSERT INTO game_category_members (category, game_id, sort) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                .bind(category)
                .bind(id)
                .bind(i64::try_from(i).unwrap_or(0))
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(count)
}

/// A new active player of `currency` with `funds` on the main balance, moved in by a deposit
/// posting keyed `key`: the bench's players (house rounds here, sports bets in
/// `features::sportsbook::bench`).
pub async fn funded_player(
    conn: &mut sqlx::AnyConnection,
    currency: Currency,
    funds: i64,
    key: &str,
) -> anyhow::Result<i64> {
    let user: i64 = sqlx::query_scalar(
        "INSERT INTO users (currency, locale, status, reg_time, updated_at) VALUES ($1, 'en', 'active', $2, $2) RETURNING id",
    )
    .bind(currency.code())
    .bind(now_ms())
    .fetch_one(&mut *conn)
    .await?;
    let entry = Entry::transfer(
        key,
        "deposit",
        currency,
        Account::House(HouseAccount::PaymentClearing),
        Account::main(user),
        funds,
    );
    ledger::post(conn, &entry).await.map_err(|e| anyhow::anyhow!("{e:?}"))?;
    Ok(user)
}

/// `count` players with `funds` minor units of `currency` and a real-money launch session of
/// game `sysname` each (a house game, or an aggregator's: [`aggregator_game`]); answers their session tokens.
pub async fn house_players(
    db: &Db,
    count: usize,
    sysname: &str,
    currency: Currency,
    funds: i64,
) -> anyhow::Result<Vec<String>> {
    let game_id: i64 =
        sqlx::query_scalar("SELECT id FROM games WHERE sysname = $1").bind(sysname).fetch_one(db.pool()).await?;
    let now = now_ms();
    let run = uuid::Uuid::new_v4().simple().to_string();
    let mut tokens = Vec::with_capacity(count);
    for i in 0..count {
        let mut tx = db.begin().await?;
        let user = funded_player(&mut tx, currency, funds, &format!("bench-house-funds:{run}:{i}")).await?;
        let token = format!("bench-{run}-{i}");
        sqlx::query("INSERT INTO game_sessions (token_hash, user_id, game_id, currency, mode, created_at, expires_at) VALUES ($1, $2, $3, $4, 'real', $5, $6)")
            .bind(token_hash(&token))
            .bind(user)
            .bind(game_id)
            .bind(currency.code())
            .bind(now)
            .bind(now + super::launch::SESSION_TTL_MS)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        tokens.push(token);
    }
    Ok(tokens)
}

/// [`house_players`] each wagering a bonus: `bonus` minor units on the bonus balance with a
/// target no run reaches, so every round plans its stake, counts its wagering and checks for
/// completion (the row `make bench` compares with the bonus-free one).
pub async fn house_players_with_bonus(
    db: &Db,
    count: usize,
    sysname: &str,
    currency: Currency,
    funds: i64,
    bonus: i64,
) -> anyhow::Result<Vec<String>> {
    use crate::features::bonuses::{Rules, engine};
    let tokens = house_players(db, count, sysname, currency, funds).await?;
    let rules = Rules { isolation: false, max_active: 10, wager_cap: 0, big_win: 10 };
    for token in &tokens {
        let mut tx = db.begin().await?;
        let user: i64 = sqlx::query_scalar("SELECT user_id FROM game_sessions WHERE token_hash = $1")
            .bind(token_hash(token))
            .fetch_one(&mut *tx)
            .await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO player_bonuses (user_id, claim_key, currency, status, reward, max_bonus, wager_multiplier, wager_days, \
             title_en, title_fr, text_en, text_fr, created_at) \
             VALUES ($1, $2, $3, 'offered', 'fixed', $4, 100000, 30, 'Bench', 'Bench', 'Bench', 'Bench', $5) RETURNING id",
        )
        .bind(user)
        .bind(format!("bench:{token}"))
        .bind(currency.code())
        .bind(bonus)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?;
        let row = engine::load(&mut tx, id).await?.ok_or_else(|| anyhow::anyhow!("bench bonus {id} vanished"))?;
        engine::credit(&mut tx, &rules, &row, None, engine::Actor::Operator, "bench").await?;
        tx.commit().await?;
    }
    Ok(tokens)
}

/// An external provider's game for the wallet bench (`make bench`): the provider row and one game
/// of it; answers the game's sysname. The server must list `provider` in
/// `CROUPIER_GAME_PROVIDERS` for its wallet calls to be accepted.
pub async fn aggregator_game(db: &Db, provider: &str) -> Result<String, sqlx::Error> {
    sqlx::query("INSERT INTO game_providers (sysname, name, kind, sort) VALUES ($1, $1, 'external', 99) ON CONFLICT (sysname) DO NOTHING")
        .bind(provider)
        .execute(db.pool())
        .await?;
    let sysname = format!("{provider}-slot");
    sqlx::query(
        "INSERT INTO games (sysname, provider, game_type, name_en, name_fr, image_url, search_text, rtp_bp, volatility, has_demo, config, popularity, created_at) \
         VALUES ($1, $2, 'slot', 'Bench slot', 'Machine de banc', '/games/house/dice/tile.svg', 'bench slot', 9600, 'medium', 1, '{}', 0, $3) \
         ON CONFLICT (sysname) DO NOTHING",
    )
    .bind(&sysname)
    .bind(provider)
    .bind(now_ms())
    .execute(db.pool())
    .await?;
    Ok(sysname)
}
