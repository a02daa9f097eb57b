//! The content store's tests.

use super::bundle::*;
use super::documents::*;
use super::*;
use serde_json::json;

fn map(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

#[test]
fn timestamps_are_written_like_strapi() {
    assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(iso8601(1_767_323_045_678), "2026-01-02T03:04:05.678Z");
    assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
}

#[test]
fn the_demo_content_is_a_valid_bundle_with_both_locales() {
    let entries = parse_bundle(&demo_files()).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    for t in TYPES {
        let locales: Vec<&str> = entries.iter().filter(|e| std::ptr::eq(e.t, t)).map(|e| e.locale.as_str()).collect();
        if t.localized {
            assert!(locales.contains(&"en") && locales.contains(&"fr"), "{} needs en and fr", t.singular);
        } else {
            assert!(locales.contains(&""), "{} has demo content", t.singular);
        }
    }
}

#[test]
fn every_demo_file_is_embedded() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let embedded = demo_files();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap();
        if !dir.file_type().unwrap().is_dir() || dir.file_name() == "media" {
            continue;
        }
        for file in std::fs::read_dir(dir.path()).unwrap() {
            let path = format!("{}/{}", dir.file_name().to_string_lossy(), file.unwrap().file_name().to_string_lossy());
            assert!(embedded.contains_key(&path), "{path} is not listed in demo.rs");
        }
    }
}

#[test]
fn every_file_the_demo_content_names_is_served() {
    for (path, text) in super::super::demo::FILES {
        for piece in text.split("\"/uploads/").skip(1) {
            let name = piece.split('"').next().unwrap();
            assert!(super::super::demo::MEDIA.iter().any(|(m, _)| *m == name), "{path} names /uploads/{name}");
        }
    }
}

#[test]
fn media_and_components_get_storage_form() {
    let t = schema::by_singular("common").unwrap();
    let prepared = prepare(
        t,
        &map(json!({"footer": {"licenses": [{"title": "A", "image": "/uploads/a.svg"}]}, "menu": [{"id": 7}, {}]})),
        None,
    )
    .unwrap();
    let license = &prepared.data["footer"]["licenses"][0];
    assert_eq!(license["image"]["url"], "/uploads/a.svg");
    assert_eq!(license["image"]["mime"], "image/svg+xml");
    assert_eq!(license["image"]["name"], "a.svg");
    assert!(license["image"]["id"].as_i64().is_some_and(|id| id > 0));
    assert!(license["id"].is_i64() && prepared.data["footer"]["id"].is_i64());
    assert_eq!(prepared.data["menu"][0]["id"], 7, "a given component id is kept");
    assert!(prepared.data["menu"][1]["id"].as_i64().is_some_and(|id| id > 7));
    let again = prepare(t, &prepared.data, None).unwrap();
    assert_eq!(again.data, prepared.data, "storage form is stable");
}

#[test]
fn shapes_and_rules_are_checked() {
    let page = schema::by_singular("page").unwrap();
    let issues = prepare(page, &map(json!({"slug": "gamehall", "title": ""})), None).unwrap_err();
    let paths: Vec<&str> = issues.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, vec!["title", "slug"]);
    let issues =
        prepare(page, &map(json!({"slug": "About Us", "title": "x", "seo": 3, "cover": 5})), None).unwrap_err();
    let paths: Vec<&str> = issues.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, vec!["cover", "seo", "slug"]);
    let redirect = schema::by_singular("redirect").unwrap();
    assert!(prepare(redirect, &map(json!({"from_url": "/a", "to_url": "javascript:x"})), None).is_err());
    assert!(prepare(redirect, &map(json!({"from_url": "/a*", "to_url": "https://example.com/*"})), None).is_ok());
    let config = schema::by_singular("prazer-config").unwrap();
    let prepared = prepare(config, &map(json!({"popupFallbacks": {"set": [{"id": 2}, 3]}})), None).unwrap();
    assert_eq!(prepared.data["popupFallbacks"], json!([2, 3]));
    assert_eq!(prepared.relations, vec![("popup", 2), ("popup", 3)]);
}

#[test]
fn an_update_changes_only_the_given_attributes() {
    let t = schema::by_singular("page").unwrap();
    let existing = map(json!({"slug": "about", "title": "About", "content": "x"}));
    let prepared = prepare(t, &map(json!({"title": "About us", "id": 99})), Some(&existing)).unwrap();
    assert_eq!(prepared.data, map(json!({"slug": "about", "title": "About us", "content": "x"})));
}
