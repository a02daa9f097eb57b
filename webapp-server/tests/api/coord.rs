//! The coordination seam's contract, run against the in-process store and, when
//! `TEST_REDIS_URL` is set, against Redis.

use croupier_server::coord::Coord;
use futures::StreamExt;
use std::time::Duration;

async fn contract(coord: Coord) {
    let key = format!("login:{}", uuid::Uuid::new_v4());
    for n in 1..=3 {
        let d = coord.hit(&key, Duration::from_millis(400), 3).await.unwrap();
        assert!(d.allowed, "hit {n} of 3 is allowed");
        assert_eq!(d.count, n);
        assert!(d.retry_after <= Duration::from_millis(400) && d.retry_after > Duration::ZERO, "{d:?}");
    }
    let refused = coord.hit(&key, Duration::from_millis(400), 3).await.unwrap();
    assert!(!refused.allowed, "the fourth hit is over the limit");
    assert_eq!(refused.count, 4);
    let other = coord.hit(&format!("{key}-other"), Duration::from_millis(400), 3).await.unwrap();
    assert!(other.allowed && other.count == 1, "keys are counted apart");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let fresh = coord.hit(&key, Duration::from_millis(400), 3).await.unwrap();
    assert!(fresh.allowed && fresh.count == 1, "the window resets: {fresh:?}");

    let lease = format!("job:{}", uuid::Uuid::new_v4());
    assert!(coord.acquire_lease(&lease, "replica-a", Duration::from_millis(400)).await.unwrap());
    assert!(
        !coord.acquire_lease(&lease, "replica-b", Duration::from_millis(400)).await.unwrap(),
        "one holder at a time"
    );
    assert!(coord.acquire_lease(&lease, "replica-a", Duration::from_millis(400)).await.unwrap(), "the holder renews");
    coord.release_lease(&lease, "replica-b").await.unwrap();
    assert!(
        !coord.acquire_lease(&lease, "replica-b", Duration::from_millis(400)).await.unwrap(),
        "only the holder releases"
    );
    coord.release_lease(&lease, "replica-a").await.unwrap();
    assert!(
        coord.acquire_lease(&lease, "replica-b", Duration::from_millis(300)).await.unwrap(),
        "released leases are free"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(
        coord.acquire_lease(&lease, "replica-a", Duration::from_millis(300)).await.unwrap(),
        "expired leases are free"
    );

    let cache = format!("cache:{}", uuid::Uuid::new_v4());
    assert_eq!(coord.cache_get(&cache).await.unwrap(), None);
    coord.cache_set(&cache, "ünïcode value", Duration::from_millis(300)).await.unwrap();
    assert_eq!(coord.cache_get(&cache).await.unwrap().as_deref(), Some("ünïcode value"));
    coord.cache_delete(&cache).await.unwrap();
    assert_eq!(coord.cache_get(&cache).await.unwrap(), None);
    coord.cache_set(&cache, "short", Duration::from_millis(200)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(coord.cache_get(&cache).await.unwrap(), None, "cached values expire");

    let channel = format!("events:{}", uuid::Uuid::new_v4());
    let mut first = coord.subscribe(&channel).await.unwrap();
    let mut second = coord.subscribe(&channel).await.unwrap();
    coord.publish(&format!("{channel}-elsewhere"), "not for us").await.unwrap();
    coord.publish(&channel, "deposit:42").await.unwrap();
    for stream in [&mut first, &mut second] {
        let message = tokio::time::timeout(Duration::from_secs(5), stream.next()).await.expect("delivered in time");
        assert_eq!(message.as_deref(), Some("deposit:42"));
    }
    coord.ping().await.unwrap();
}

#[tokio::test]
async fn the_in_process_store_keeps_the_contract() {
    contract(Coord::in_process()).await;
}

#[tokio::test]
async fn redis_keeps_the_contract() {
    let Ok(url) = std::env::var("TEST_REDIS_URL") else {
        eprintln!("SKIPPED on Redis: TEST_REDIS_URL is not set");
        return;
    };
    let prefix = format!("croupier-test:{}:", uuid::Uuid::new_v4().simple());
    contract(Coord::redis(&url, &prefix).await.expect("connect to TEST_REDIS_URL")).await;
}

#[tokio::test]
async fn redis_keys_of_two_installations_do_not_mix() {
    let Ok(url) = std::env::var("TEST_REDIS_URL") else {
        eprintln!("SKIPPED on Redis: TEST_REDIS_URL is not set");
        return;
    };
    let run = uuid::Uuid::new_v4().simple().to_string();
    let a = Coord::redis(&url, &format!("croupier-test:{run}:a:")).await.unwrap();
    let b = Coord::redis(&url, &format!("croupier-test:{run}:b:")).await.unwrap();
    assert!(a.acquire_lease("cashback", "x", Duration::from_secs(5)).await.unwrap());
    assert!(b.acquire_lease("cashback", "y", Duration::from_secs(5)).await.unwrap());
    a.cache_set("k", "from a", Duration::from_secs(5)).await.unwrap();
    assert_eq!(b.cache_get("k").await.unwrap(), None);
}
