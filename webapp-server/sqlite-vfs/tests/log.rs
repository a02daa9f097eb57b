//! The VFS against SQLite itself: what a connection commits, the others read, whole; a commit's
//! frames go in a few writes; a writer's rolled-back frames never land over another's commit.

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection, Row, SqliteConnection};
use std::str::FromStr;

async fn open(path: &std::path::Path, cache_pages: i64) -> SqliteConnection {
    croupier_sqlite_vfs::register().expect("register");
    let options = SqliteConnectOptions::from_str(&format!("sqlite://{}?mode=rwc", path.display()))
        .expect("options")
        .vfs(croupier_sqlite_vfs::NAME)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(std::time::Duration::from_secs(10))
        .pragma("cache_size", cache_pages.to_string())
        .disable_statement_logging();
    options.connect().await.expect("connect")
}

async fn integrity(conn: &mut SqliteConnection) -> String {
    sqlx::query_scalar("PRAGMA integrity_check").fetch_one(conn).await.expect("integrity_check")
}

/// Rows of `n` random-keyed 300-byte values, so a commit changes many pages of a table and an index.
async fn insert(conn: &mut SqliteConnection, from: i64, n: i64) {
    sqlx::query(
        "WITH RECURSIVE k(i) AS (SELECT $1 UNION ALL SELECT i + 1 FROM k WHERE i < $1 + $2 - 1) \
         INSERT INTO t (k, v) SELECT hex(randomblob(16)) || i, printf('%300d', i) FROM k",
    )
    .bind(from)
    .bind(n)
    .execute(conn)
    .await
    .expect("insert");
}

/// The table both tests write: rows with a random-keyed unique index.
async fn create_table(conn: &mut SqliteConnection) {
    sqlx::query("CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT UNIQUE NOT NULL, v TEXT NOT NULL)")
        .execute(conn)
        .await
        .expect("create");
}

#[tokio::test]
async fn what_one_connection_commits_the_others_read_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("log.db");
    let mut writer = open(&path, 2000).await;
    let mut reader = open(&path, 2000).await;
    create_table(&mut writer).await;
    let (received, written) = croupier_sqlite_vfs::stats();
    for round in 0..40_i64 {
        let mut tx = writer.begin().await.expect("begin");
        insert(&mut tx, round * 500, 500).await;
        tx.commit().await.expect("commit");
        // Read on another connection at once: every committed row, and pages that hold together.
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(&mut reader).await.expect("count");
        assert_eq!(count, (round + 1) * 500);
        let sum: i64 = sqlx::query_scalar("SELECT SUM(length(v)) FROM t INDEXED BY sqlite_autoindex_t_1 WHERE k > ''")
            .fetch_one(&mut reader)
            .await
            .expect("sum");
        assert_eq!(sum, (round + 1) * 500 * 300);
    }
    let (received, written) = {
        let (r, w) = croupier_sqlite_vfs::stats();
        (r - received, w - written)
    };
    // Each commit's frames (two writes each, a few hundred frames) went out in a few writes.
    // (Other tests of this binary may add to both counts; their writes are gathered as well.)
    assert!(received > 40 * 200, "{received} writes received");
    assert!(written * 20 < received, "{written} writes made for {received} received");
    assert_eq!(integrity(&mut reader).await, "ok");
    // A checkpoint copies the log into the database; a new connection reads it all.
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&mut writer).await.expect("checkpoint");
    drop(writer);
    drop(reader);
    let mut again = open(&path, 2000).await;
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(&mut again).await.expect("count");
    assert_eq!(count, 40 * 500);
    assert_eq!(integrity(&mut again).await, "ok");
}

/// A transaction too big for its connection's cache writes (spills) frames to the log before it
/// ends; rolled back, those frames are garbage past the log's end, and another connection then
/// writes its commit over the same place: gathered and written late, they would land over it.
/// (The VFS writes them when the write lock is let go; in this test SQLite's own reads of the
/// log during the transaction and its rollback already write them, so the test also passes
/// without that hook — it guards the order of the writes, whichever call makes them.)
#[tokio::test]
async fn rolled_back_spills_and_another_writers_commits_leave_the_database_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("spill.db");
    let mut a = open(&path, 10).await;
    let mut b = open(&path, 2000).await;
    create_table(&mut a).await;
    insert(&mut a, 0, 100).await;
    for round in 0..5_i64 {
        // Everything committed so far into the database file and the log emptied: a's rollback
        // then reads nothing from the log (a read of its log would write its gathered frames
        // while it still holds the write lock), and b writes from the log's start.
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&mut b).await.expect("checkpoint");
        let mut tx = a.begin().await.expect("begin");
        // Far more pages than a's cache of 10: SQLite spills them to the log mid-transaction,
        // appended in key order, so no page spilled is read again before the rollback (a read
        // of the log would write what was gathered while a still holds the write lock).
        sqlx::query(
            "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 3000) \
             INSERT INTO t (k, v) SELECT printf('~%d-%012d', $1, i), printf('%300d', i) FROM k",
        )
        .bind(round)
        .execute(&mut *tx)
        .await
        .expect("spill");
        tx.rollback().await.expect("rollback");
        let mut tx = b.begin().await.expect("begin");
        insert(&mut tx, 100 + round * 50, 50).await;
        tx.commit().await.expect("commit");
        // a reads b's commit (through its own log handle, after its gathered frames went out).
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(&mut a).await.expect("count");
        assert_eq!(count, 100 + (round + 1) * 50);
    }
    a.close().await.expect("close a");
    assert_eq!(integrity(&mut b).await, "ok");
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(&mut b).await.expect("count");
    assert_eq!(count, 100 + 5 * 50);
    b.close().await.expect("close b");
    // Recovery from the log alone (no shared-memory index left) finds every commit.
    let mut c = open(&path, 2000).await;
    let row = sqlx::query("SELECT COUNT(*), SUM(length(v)) FROM t").fetch_one(&mut c).await.expect("count");
    assert_eq!(row.get::<i64, _>(0), 350);
    assert_eq!(row.get::<i64, _>(1), 350 * 300);
    assert_eq!(integrity(&mut c).await, "ok");
}

/// A transaction's multi-row statement that changes many existing pages journals them (so it can
/// be undone alone) in memory, not in a temporary file: SQLite's default spills past 64 KiB, this
/// one journals about a megabyte, and the spill size `register` sets is 8 MiB.
#[tokio::test]
async fn a_statement_journal_of_a_megabyte_stays_in_memory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("journal.db");
    let mut writer = open(&path, 2000).await;
    create_table(&mut writer).await;
    insert(&mut writer, 0, 20_000).await;
    let before = croupier_sqlite_vfs::spilled_statement_journals();
    let mut tx = writer.begin().await.expect("begin");
    // Two statements in one transaction: the second changes pages that existed before it.
    insert(&mut tx, 20_000, 10).await;
    insert(&mut tx, 20_010, 3_000).await;
    tx.commit().await.expect("commit");
    assert_eq!(croupier_sqlite_vfs::spilled_statement_journals(), before, "no statement journal was spilled");
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(&mut writer).await.expect("count");
    assert_eq!(count, 23_010);
    assert_eq!(integrity(&mut writer).await, "ok");
}
