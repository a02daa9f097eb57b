//! The SEO rules' tests.

use super::*;

#[test]
fn globs_capture_what_stars_match() {
    assert_eq!(glob("/old/*", "/old/a/b", true), Some(vec!["a/b".to_owned()]));
    assert_eq!(glob("/OLD/*/x", "/old/a/x", true), Some(vec!["a".to_owned()]));
    assert_eq!(glob("/old", "/old/a", true), None);
    assert_eq!(glob("/old", "/old/a", false), Some(vec![]));
    assert_eq!(glob("/*.pdf", "/a/b.pdf", true), Some(vec!["a/b".to_owned()]));
    assert_eq!(glob("/a*a", "/a", true), None, "literal parts may not overlap");
    assert_eq!(glob("*", "", true), Some(vec![String::new()]));
}

#[test]
fn routes_match_case_insensitively_with_their_parameters() {
    assert_eq!(
        match_pattern("/game/{sysname}", "/Game/Book-Of-Dead"),
        Some(vec![("sysname".into(), "Book-Of-Dead".into())])
    );
    assert_eq!(match_pattern("/game/{sysname}", "/game"), None);
    assert_eq!(match_pattern("/game/{sysname}", "/game/a/b"), None);
    assert_eq!(match_pattern("/bets/*", "/bets/a/b"), Some(vec![("*".into(), "a/b".into())]));
    assert_eq!(match_pattern("/bets/*", "/bets"), None);
    assert_eq!(match_pattern("/", "/"), Some(vec![]));
}

#[test]
fn locale_prefixes_split_off() {
    assert_eq!(split_locale("/fr/gamehall/"), (Locale::Fr, "/gamehall".to_owned()));
    assert_eq!(split_locale("/fr"), (Locale::Fr, "/".to_owned()));
    assert_eq!(split_locale("/"), (Locale::En, "/".to_owned()));
    assert_eq!(split_locale("/france"), (Locale::En, "/france".to_owned()));
    assert_eq!(localized_path(Locale::Fr, "/"), "/fr");
    assert_eq!(localized_url("https://x.test", Locale::En, "/"), "https://x.test");
    assert!(is_route_segment("gamehall") && is_route_segment("Cashier") && is_route_segment("api"));
    assert!(!is_route_segment("about"));
}

#[test]
fn a_wildcard_cannot_send_a_redirect_to_another_host() {
    use super::super::store;
    let t = super::super::schema::by_singular("redirect").unwrap();
    let rule = serde_json::json!({"from_url": "/go*", "to_url": "/*"});
    let prepared = store::prepare(t, rule.as_object().unwrap(), None).unwrap();
    let snapshot = Snapshot::for_tests(vec![(t, 1, "", prepared.data)]);
    assert_eq!(redirect_for(&snapshot, "/go/evil.test", None).as_deref(), Some("/evil.test"));
    assert_eq!(redirect_for(&snapshot, "/go\\\\evil.test", None).as_deref(), Some("/evil.test"));
    assert_eq!(redirect_for(&snapshot, "/go/x", Some("a=1")).as_deref(), Some("/x?a=1"));
}

#[test]
fn names_are_prettified() {
    assert_eq!(prettify("book-of-dead"), "Book Of Dead");
    assert_eq!(prettify("lucky_7"), "Lucky 7");
}
