//! The storage seam behaves the same on SQLite and PostgreSQL.

use crate::db_test;
use croupier_server::db::now_ms;
use sqlx::Row;

db_test!(async fn migrations_have_run_on_a_fresh_database(app) {
    let db = app.state.db();
    sqlx::query("INSERT INTO app_settings (key, value, updated_at) VALUES ($1, $2, $3)")
        .bind("probe")
        .bind("1")
        .bind(now_ms())
        .execute(db.pool())
        .await
        .unwrap();
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM app_settings WHERE key = $1").bind("probe").fetch_one(db.pool()).await.unwrap();
    assert_eq!(count, 1);
    db.migrate().await.expect("running migrations again is a no-op");
});

db_test!(async fn a_rolled_back_transaction_leaves_nothing(app) {
    let db = app.state.db();
    let mut tx = db.begin().await.unwrap();
    sqlx::query("INSERT INTO app_settings (key, value, updated_at) VALUES ($1, $2, $3)")
        .bind("half")
        .bind("written")
        .bind(now_ms())
        .execute(&mut *tx)
        .await
        .unwrap();
    let duplicate = sqlx::query("INSERT INTO app_settings (key, value, updated_at) VALUES ($1, $2, $3)")
        .bind("half")
        .bind("again")
        .bind(now_ms())
        .execute(&mut *tx)
        .await;
    assert!(duplicate.is_err(), "the primary key holds");
    drop(tx);
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM app_settings WHERE key = $1").bind("half").fetch_one(db.pool()).await.unwrap();
    assert_eq!(count, 0);
});

db_test!(async fn numbered_placeholders_bind_by_number_on_both_backends(app) {
    let db = app.state.db();
    sqlx::query("INSERT INTO app_settings (updated_at, value, key) VALUES ($3, $2, $1)")
        .bind("order")
        .bind("second")
        .bind(7_i64)
        .execute(db.pool())
        .await
        .unwrap();
    let row = sqlx::query("SELECT key, value, updated_at FROM app_settings WHERE key = $1 AND value = $2")
        .bind("order")
        .bind("second")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(row.get::<String, _>(0), "order");
    assert_eq!(row.get::<i64, _>(2), 7);
});

db_test!(async fn sums_of_big_integers_read_back_as_i64(app) {
    let db = app.state.db();
    for (i, value) in [4_000_000_000_000_i64, 5_000_000_000_000, -1].iter().enumerate() {
        sqlx::query("INSERT INTO app_settings (key, value, updated_at) VALUES ($1, $2, $3)")
            .bind(format!("sum-{i}"))
            .bind("x")
            .bind(*value)
            .execute(db.pool())
            .await
            .unwrap();
    }
    let total: i64 = sqlx::query_scalar("SELECT CAST(COALESCE(SUM(updated_at), 0) AS BIGINT) FROM app_settings WHERE key LIKE $1")
        .bind("sum-%")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(total, 8_999_999_999_999);
});

db_test!(async fn concurrent_writers_all_succeed(app) {
    let db = app.state.db().clone();
    let mut tasks = Vec::new();
    for i in 0..40 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            let mut tx = db.begin().await?;
            sqlx::query("INSERT INTO app_settings (key, value, updated_at) VALUES ($1, $2, $3)")
                .bind(format!("c-{i}"))
                .bind("v")
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
            tx.commit().await
        }));
    }
    for task in tasks {
        task.await.unwrap().expect("each writer commits");
    }
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM app_settings WHERE key LIKE $1").bind("c-%").fetch_one(db.pool()).await.unwrap();
    assert_eq!(count, 40);
});
