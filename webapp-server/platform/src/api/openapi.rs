//! `/api/openapi.json`: an OpenAPI 3.1 document generated from the method registry, so clients
//! and fuzzers know every method, its verbs, its parameters and its answer.

use super::{Access, MethodSpec, Registry};
use crate::session;
use croupier_shared::{API_VERSION, ErrorType, FieldCode};
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

pub fn document(registry: &Registry) -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "#/components/schemas/".into();
    let mut generator = settings.into_generator();
    let mut paths = Map::new();
    for spec in registry.methods() {
        let mut input = (spec.input_schema)(&mut generator).to_value();
        as_form(&mut input);
        let output = (spec.output_schema)(&mut generator).to_value();
        let ok = json!({
            "description": "Success",
            "content": { "application/json": { "schema": {
                "type": "object",
                "required": ["status", "data"],
                "properties": { "status": { "const": "ok" }, "data": output },
            }}},
        });
        let takes_fields = input.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
        // A required field comes in the body, so a body is then required too.
        let body_required = input.get("required").and_then(Value::as_array).is_some_and(|r| !r.is_empty());
        let common = vec![
            json!({ "name": "locale", "in": "query", "schema": { "type": "string", "enum": ["en", "fr"] },
                    "description": "Language of messages; anything else falls back to en." }),
            json!({ "name": "v", "in": "query", "required": true, "schema": { "const": API_VERSION } }),
        ];
        let tags = tags(spec);
        let security = if spec.signed_in { json!([{ "session": [] }]) } else { json!([{}, { "session": [] }]) };
        let mut item = Map::new();
        if spec.access == Access::Read {
            let mut parameters = common.clone();
            parameters.extend(query_parameters(&input));
            item.insert(
                "get".into(),
                json!({ "operationId": format!("get:{}", spec.name), "summary": spec.summary, "tags": tags,
                        "security": security, "parameters": parameters,
                        "responses": responses(ok.clone(), spec, false, takes_fields) }),
            );
        }
        let form = json!({ "schema": input });
        item.insert(
            "post".into(),
            json!({
                "operationId": spec.name,
                "summary": spec.summary,
                "tags": tags,
                "security": security,
                "parameters": common,
                "requestBody": { "required": body_required, "content": {
                    "application/x-www-form-urlencoded": form.clone(),
                    "multipart/form-data": form,
                }},
                "responses": responses(ok, spec, true, takes_fields),
            }),
        );
        paths.insert(format!("/api/{}", spec.name), Value::Object(item));
    }
    for document in registry.documents() {
        paths.extend(document(&mut generator));
    }
    let mut schemas = generator.take_definitions(true);
    schemas.insert("ErrorEnvelope".into(), error_envelope());
    let error_responses: Map<String, Value> = ERRORS
        .iter()
        .map(|(status, description)| {
            let schema = json!({ "$ref": "#/components/schemas/ErrorEnvelope" });
            (
                format!("Error{status}"),
                json!({ "description": description, "content": { "application/json": { "schema": schema } } }),
            )
        })
        .collect();
    json!({
        "openapi": "3.1.0",
        "info": { "title": "Croupier product API", "version": API_VERSION,
                  "description": "Every method of SPEC §7 under `/api`: bodies are form data, answers the envelope of DESIGN.md. Paths under `/provider` are the signed protocols external providers call (JSON bodies and answers)." },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": error_responses,
            "securitySchemes": {
                "session": { "type": "apiKey", "in": "cookie", "name": session::COOKIE,
                    "description": "The session `auth.register`, `auth.login` or `auth.telegram` set." },
                "providerSignature": { "type": "apiKey", "in": "header", "name": "X-Croupier-Signature",
                    "description": "A provider's call (`/provider/…`): hex HMAC-SHA256 under the provider's wallet secret of `X-Croupier-Timestamp` (unix seconds, within ±30 s of the server's clock) + the method + the path + the raw body." },
            },
        },
    })
}

/// Every refusal the dispatcher itself may answer, and what it means (DESIGN.md's envelope). No
/// `default` response: an answer with any other status is a fault Schemathesis's
/// `status_code_conformance` reports.
const ERRORS: [(&str, &str); 13] = [
    (
        "400",
        "A malformed call (`InvalidRequestException`): `v` missing or unsupported, a parameter not UTF-8, a malformed body.",
    ),
    ("401", "Not signed in (`AuthorizationException`), or the session's account was deleted (`UserDeletedException`)."),
    (
        "403",
        "Refused (`AccessDeniedException`: a state-changing call from another site, or a rule of the method; `UserBannedException`: a banned account).",
    ),
    ("413", "The body is larger than the server accepts (`InvalidRequestException`, `error_data.max_bytes`)."),
    ("415", "A body that is neither form-urlencoded nor multipart (`InvalidRequestException`)."),
    ("422", "A refused parameter (`InvalidParameterException`): `error_data` names each field with its codes."),
    (
        "429",
        "Too many attempts (`TooManyRequestsException`; `Retry-After` and `error_data.retry_after` give the wait in seconds).",
    ),
    ("500", "An unexpected failure, logged on the server (`InternalServerErrorException`)."),
    (
        "503",
        "The site is disabled or under maintenance (`ApplicationDisabledException`, `ApplicationUnavailableException`).",
    ),
    ("402", "A payment service declined the transaction (`BillingTransactionDeclinedException`)."),
    (
        "404",
        "No such method (`MethodNotFoundException`), or the object the call names does not exist (`InvalidParameterException`).",
    ),
    (
        "409",
        "The account's or the object's state forbids the call (e.g. `UserNeedConfirmContactException`, `WithdrawalLimitsExceededException`, a bonus limit).",
    ),
    (
        "502",
        "An outside service (payments, identity verification) failed or is unavailable (`BillingServiceErrorException`, `BillingUnavailableException`).",
    ),
];

/// The answers of one operation: success, and every refusal that applies to it.
fn responses(ok: Value, spec: &MethodSpec, post: bool, takes_fields: bool) -> Value {
    let mut responses = Map::new();
    responses.insert("200".into(), ok);
    for (status, _) in ERRORS {
        let applies = match status {
            "413" | "415" => post,
            "422" => takes_fields || spec.access == Access::Write,
            _ => true,
        };
        if applies {
            responses.insert(status.into(), json!({ "$ref": format!("#/components/responses/Error{status}") }));
        }
    }
    Value::Object(responses)
}

/// The method's namespace (`account` of `account.getInfo`), and `signed-in` for the methods a
/// guest may not call (so a client, or a fuzzer's guest run, can pick them out).
fn tags(spec: &MethodSpec) -> Vec<String> {
    let namespace = spec.name.split_once('.').map_or(spec.name, |(ns, _)| ns).to_ascii_lowercase();
    let mut tags = vec![namespace];
    if spec.signed_in {
        tags.push("signed-in".into());
    }
    tags
}

/// The mark of a field the method requires: `#[schemars(extend("x-required" = true))]`.
///
/// Every form field carries `#[serde(default)]`, so that an absent field reaches the method's
/// `validate`, which names each missing one (`REQUIRED`) in one answer instead of serde stopping at
/// the first; and schemars 1 lists a field with a default as optional whatever
/// `#[schemars(required)]` says. So a required field is marked, and [`as_form`] moves the mark into
/// the object's `required` list.
pub const REQUIRED_MARK: &str = "x-required";

/// A form field is a string or absent: it has no `null`, and an empty value counts as absent (see
/// [`super::Params::deserialize`]), so a required text field has at least one character and no
/// default. A number is parsed into its Rust type, so its format's range is stated. Rewrites the
/// schema of an input so that an `Option<T>` field reads as an optional `T`, and a field marked
/// [`REQUIRED_MARK`] is required. A form carries only the fields the method reads (names a client
/// would send), so the object takes no other property: the server ignores a well-formed unknown
/// field, but names that a form cannot carry (a control character, a quote) make the body
/// malformed (400).
fn as_form(schema: &mut Value) {
    let mut required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let Some(object) = schema.as_object_mut() else { return };
    if object.get("type").and_then(Value::as_str) == Some("object") {
        object.insert("additionalProperties".into(), json!(false));
    }
    let Some(properties) = object.get_mut("properties").and_then(Value::as_object_mut) else { return };
    for (name, property) in properties.iter_mut() {
        let Some(property) = property.as_object_mut() else { continue };
        if property.remove(REQUIRED_MARK).is_some_and(|mark| mark == json!(true)) && !required.contains(name) {
            required.push(name.clone());
        }
        if property.get("default").is_some_and(|d| d.is_null() || required.contains(name)) {
            property.remove("default");
        }
        if let Some(Value::Array(types)) = property.get("type") {
            let types: Vec<Value> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
            let single = (types.len() == 1).then(|| types[0].clone());
            property.insert("type".into(), single.unwrap_or(Value::Array(types)));
        }
        // `Option<SomeEnum>`: `anyOf: [{ "$ref": … }, { "type": "null" }]`.
        if let Some(Value::Array(branches)) = property.get_mut("anyOf") {
            branches.retain(|b| b.get("type").and_then(Value::as_str) != Some("null"));
            if branches.len() == 1 {
                let only = branches.remove(0);
                property.remove("anyOf");
                if let Value::Object(only) = only {
                    property.extend(only);
                }
            }
        }
        if let Some(Value::Array(values)) = property.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
        let kind = property.get("type").and_then(Value::as_str).map(str::to_owned);
        if kind.as_deref() == Some("string") && required.contains(name) && !property.contains_key("minLength") {
            property.insert("minLength".into(), json!(1));
        }
        if kind.as_deref() == Some("integer") {
            let format = property.get("format").and_then(Value::as_str).map(str::to_owned);
            let (min, max) = match format.as_deref() {
                Some("int64") => (json!(i64::MIN), json!(i64::MAX)),
                Some("int32") => (json!(i32::MIN), json!(i32::MAX)),
                Some("uint64") => (json!(0), json!(u64::MAX)),
                Some("uint32") => (json!(0), json!(u32::MAX)),
                _ => continue,
            };
            property.entry("minimum").or_insert(min);
            property.entry("maximum").or_insert(max);
        }
    }
    if !required.is_empty() {
        object.insert("required".into(), json!(required));
    }
}

/// The input's top-level properties as query parameters.
fn query_parameters(input: &Value) -> Vec<Value> {
    let required: Vec<&str> = input
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = input.get("properties").and_then(Value::as_object) else { return Vec::new() };
    properties
        .iter()
        .map(|(name, schema)| json!({ "name": name, "in": "query", "required": required.contains(&name.as_str()), "schema": schema }))
        .collect()
}

fn error_envelope() -> Value {
    let types: Vec<&str> = ErrorType::ALL.iter().map(|e| e.name()).collect();
    let codes: Vec<&str> = FieldCode::ALL.iter().map(|c| c.code()).collect();
    json!({
        "type": "object",
        "required": ["status", "error"],
        "properties": {
            "status": { "const": "error" },
            "error": {
                "type": "object",
                "required": ["type", "message", "error_data"],
                "properties": {
                    "type": { "type": "string", "enum": types },
                    "message": { "type": "string" },
                    "error_data": { "type": "object", "additionalProperties": {
                        "anyOf": [ { "type": "array", "items": { "type": "string", "enum": codes } }, {} ] } },
                },
            },
        },
    })
}
