//! Profile, contacts and settings (issue 3).

use crate::db_test;
use crate::helpers::expect_error;
use reqwest::StatusCode;
use serde_json::Value;

fn field<'a>(body: &'a Value, name: &str) -> &'a Value {
    &body["error"]["error_data"][name][0]
}

db_test!(async fn the_profile_is_saved_validated_and_read_back(app) {
    let browser = app.browser();
    app.register(&browser, "prof@example.com").await;
    let (_, fields) = app.get_as(&browser, "Account.getPersonalDataFields", &[]).await;
    let first = fields["data"].as_array().unwrap().iter().find(|f| f["name"] == "first_name").unwrap().clone();
    assert_eq!((first["filled"].clone(), first["required"].clone()), (Value::from(false), Value::from(true)));

    let bad = [("first_name", "R2D2"), ("birth_date", "01.01.2020"), ("postcode", "123456789"), ("document_type", "cpf"),
        ("document_number", "111.111.111-11"), ("address", "1 Main St @home"), ("sex", "7")];
    let (status, body) = app.post_as(&browser, "account.saveProfileInfo", &bad).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "first_name"), "NAME");
    assert_eq!(*field(&body, "birth_date"), "DATE", "a minor cannot play");
    assert!(body["error"]["error_data"]["postcode"].is_array());
    assert_eq!(*field(&body, "document_number"), "INVALID");
    assert_eq!(*field(&body, "address"), "ADDRESS");
    assert!(body["error"]["error_data"]["sex"].is_array());

    let good = [("first_name", "Zoé"), ("last_name", "Durand"), ("birth_date", "14.07.1990"), ("postcode", "75001"),
        ("country_code", "fr"), ("home_town", "Paris"), ("address", "1 rue de Rivoli"), ("document_type", "cpf"),
        ("document_number", "529.982.247-25"), ("sex", "2")];
    let (status, body) = app.post_as(&browser, "account.saveProfileInfo", &good).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)), "{body}");
    let (_, saved) = app.post_as(&browser, "account.saveProfileInfo", &[("last_name", "Martin")]).await;
    assert_eq!(saved["data"], 1, "a partial save keeps the other fields");
    let (_, profile) = app.get_as(&browser, "account.getprofileinfo", &[("fields", "contacts,document")]).await;
    let p = &profile["data"];
    assert_eq!((p["first_name"].as_str(), p["last_name"].as_str()), (Some("Zoé"), Some("Martin")));
    assert_eq!(p["country_code"], "FR");
    assert_eq!(p["sex"], 2);
    assert_eq!(p["document"], serde_json::json!({"type": "cpf", "number": "529.982.247-25"}));
    assert_eq!(p["contacts"][0]["contact"], "prof@example.com");
    assert_eq!(p["contacts"][0]["type"], "email");
    let (_, plain) = app.get_as(&browser, "account.getprofileinfo", &[]).await;
    assert!(plain["data"].get("contacts").is_none() && plain["data"].get("document").is_none());
    let (_, fields) = app.get_as(&browser, "Account.getPersonalDataFields", &[]).await;
    assert!(fields["data"].as_array().unwrap().iter().filter(|f| f["required"] == true).all(|f| f["filled"] == true), "{fields}");
});

db_test!(async fn a_phone_contact_is_added_and_confirmed_and_cannot_belong_to_two_players(app) {
    let browser = app.browser();
    app.register(&browser, "phoner@example.com").await;
    let (status, body) = app.post_as(&browser, "account.addcontact", &[("contact", "7911 123456"), ("phone_country_code", "44")]).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)), "{body}");
    let (status, body) = app.post_as(&browser, "account.addcontact", &[("contact", "12"), ("phone_country_code", "44")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "contact"), "PHONE");
    let phone = [("contact", "447911123456")];
    let (status, body) = app.post_as(&browser, "account.sendconfirmationtocontact", &phone).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)), "{body}");
    let (status, body) = app.post_as(&browser, "account.sendconfirmationtocontact", &phone).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "contact"), "RESEND_TIME");
    let (status, body) = app.post_as(&browser, "account.confirmContact", &[("contact", "447911123456"), ("code", "12a456")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert!(body["error"]["error_data"]["code"].is_array());
    let code = app.last_code("447911123456").await;
    let (status, _) = app.post_as(&browser, "account.confirmContact", &[("contact", "447911123456"), ("code", &code)]).await;
    assert_eq!(status, StatusCode::OK);
    let (_, profile) = app.get_as(&browser, "account.getprofileinfo", &[("fields", "contacts")]).await;
    let phone_contact = profile["data"]["contacts"].as_array().unwrap().iter().find(|c| c["type"] == "phone").unwrap().clone();
    assert_eq!(phone_contact["is_confirmed"], true);
    assert_eq!(phone_contact["phone_country_code"], "44");

    let other = app.browser();
    app.register(&other, "other@example.com").await;
    let (status, body) = app.post_as(&other, "account.addcontact", &[("contact", "7911123456"), ("phone_country_code", "44")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "contact"), "TAKEN");
    let (status, body) = app.post_as(&other, "account.sendconfirmationtocontact", &phone).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "contact"), "NOT_FOUND", "nobody confirms another player's contact");
});

db_test!(async fn the_confirmation_e_mail_s_link_confirms_the_contact_on_any_device_once(app) {
    let browser = app.browser();
    // Registration sends the e-mail's code (and its link) already.
    app.register(&browser, "Linker@example.com").await;
    let url = reqwest::Url::parse_with_params(&app.url("/dev/mailbox"), &[("to", "linker@example.com")]).unwrap();
    let mails: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
    let text = mails[0]["body"].as_str().unwrap().to_owned();
    let link = text.split_whitespace().find(|w| w.contains("/confirmation?")).unwrap_or_else(|| panic!("{text}"));
    let link = reqwest::Url::parse(link).unwrap();
    assert_eq!(link.path(), "/confirmation");
    let query: std::collections::HashMap<String, String> = link.query_pairs().into_owned().collect();
    assert_eq!(query["contact"], "email:linker@example.com");
    assert_eq!(query["code"], app.last_code("linker@example.com").await);

    // Bad input is refused with the field, a wrong code counts as an attempt, and nothing changes.
    let guest = app.browser();
    for (contact, code, field_name, reason) in [
        ("fax:123", query["code"].as_str(), "contact", "INVALID"),
        ("", query["code"].as_str(), "contact", "REQUIRED"),
        ("email:linker@example.com", "12345", "code", "MIN_LENGTH"),
    ] {
        let (status, body) = app.post_as(&guest, "account.confirmContactLink", &[("contact", contact), ("code", code)]).await;
        expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(*field(&body, field_name), reason, "{body}");
    }
    let wrong = if query["code"] == "000000" { "111111" } else { "000000" };
    let (status, body) =
        app.post_as(&guest, "account.confirmContactLink", &[("contact", "email:linker@example.com"), ("code", wrong)]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "code"), "CODE_EXPIRED", "the answer of a contact with no code: nothing to probe");
    let (_, profile) = app.get_as(&browser, "account.getprofileinfo", &[("fields", "contacts")]).await;
    assert_eq!(profile["data"]["contacts"][0]["is_confirmed"], false);

    // Another device, not signed in, confirms it; the link works once.
    let pair = [("contact", query["contact"].as_str()), ("code", query["code"].as_str())];
    let (status, body) = app.post_as(&guest, "account.confirmContactLink", &pair).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)), "{body}");
    let (_, profile) = app.get_as(&browser, "account.getprofileinfo", &[("fields", "contacts")]).await;
    assert_eq!(profile["data"]["contacts"][0]["is_confirmed"], true);
    let (status, body) = app.post_as(&guest, "account.confirmContactLink", &pair).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "code"), "CODE_EXPIRED");
});

db_test!(async fn subscriptions_change_and_a_signed_link_unsubscribes_without_sign_in(app) {
    let browser = app.browser();
    let info = app.register(&browser, "news@example.com").await;
    let (status, _) = app.post_as(&browser, "account.changeSubscription", &[("contact", "news@example.com"), ("subscription", "0")]).await;
    assert_eq!(status, StatusCode::OK);
    let (_, me) = app.get_as(&browser, "account.getInfo", &[]).await;
    assert_eq!(me["data"]["is_subscribed"], false);
    let (status, body) = app.post_as(&browser, "account.changeSubscription", &[("contact", "news@example.com"), ("subscription", "yes")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "subscription"), "INVALID");
    app.post_as(&browser, "account.changeSubscription", &[("contact", "news@example.com"), ("subscription", "1")]).await;

    let contact_id: i64 = sqlx::query_scalar("SELECT id FROM contacts WHERE user_id = $1")
        .bind(info["uid"].as_i64().unwrap())
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
    let link = croupier_server::features::account::contacts::unsubscribe_link(&app.state, contact_id);
    assert!(link.starts_with("http://localhost:8080/unsubscribe?token="), "{link}");
    let token = link.split("token=").nth(1).unwrap();
    let forged = format!("{}.{}", contact_id + 1, token.split('.').nth(1).unwrap());
    let (status, body) = app.post_as(&app.browser(), "account.unsubscribe", &[("token", &forged)]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "token"), "INVALID");
    let (status, body) = app.post_as(&app.browser(), "account.unsubscribe", &[("token", token)]).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &Value::from(1)), "{body}");
    let (_, me) = app.get_as(&browser, "account.getInfo", &[]).await;
    assert_eq!(me["data"]["is_subscribed"], false);
});

db_test!(async fn fakename_locale_and_currency_settings(app) {
    let browser = app.browser();
    let info = app.register(&browser, "set@example.com").await;
    let other = app.browser();
    app.register(&other, "set2@example.com").await;
    let (status, _) = app.post_as(&browser, "account.changefakename", &[("fakename", "LuckyAce")]).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app.post_as(&other, "account.changefakename", &[("fakename", "luckyace")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "fakename"), "TAKEN", "nicknames are unique whatever the case");
    let (_, body) = app.post_as(&other, "account.changefakename", &[("fakename", "bad name")]).await;
    assert_eq!(*field(&body, "fakename"), "FAKENAME");

    let (status, _) = app.post_as(&browser, "account.changelocale", &[("locale", "fr")]).await;
    assert_eq!(status, StatusCode::OK);
    let (_, body) = app.post_as(&browser, "account.changelocale", &[("locale", "de")]).await;
    assert_eq!(*field(&body, "locale"), "UNSUPPORTED");
    let (_, me) = app.get_as(&browser, "account.getInfo", &[]).await;
    assert_eq!((me["data"]["locale"].as_str(), me["data"]["fakename"].as_str()), (Some("fr"), Some("LuckyAce")));

    let (status, _) = app.post_as(&browser, "account.setCurrency", &[("currency", "EUR")]).await;
    assert_eq!(status, StatusCode::OK);
    let (_, me) = app.get_as(&browser, "account.getInfo", &[]).await;
    assert_eq!(me["data"]["balance_main"]["currency"], "EUR");
    app.sql("UPDATE users SET first_money_movement_at = CAST($1 AS BIGINT) WHERE id = $2", "1", info["uid"].as_i64().unwrap()).await;
    let (status, body) = app.post_as(&browser, "account.setCurrency", &[("currency", "GBP")]).await;
    expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(*field(&body, "currency"), "LOCKED", "money has moved: the currency is fixed");
});

db_test!(async fn phone_settings_list_calling_codes_with_masks(app) {
    let (status, body) = app.api_get("account.getContactPhoneSettings", &[]).await;
    assert_eq!(status, StatusCode::OK);
    let countries = body["data"]["countries"].as_array().unwrap();
    let france = countries.iter().find(|c| c["country"] == "FR").unwrap();
    assert_eq!((france["code"].as_str(), france["mask"].as_str()), (Some("33"), Some("# ## ## ## ##")));
    let response = app.client.get(app.api_url("account.getContactPhoneSettings", "fr", &[])).send().await.unwrap();
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["data"]["default_country"], "FR");
});
