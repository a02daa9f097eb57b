//! `/api/openapi.json`: an OpenAPI 3.1 document generated from the method registry, so clients
//! and fuzzers know every method, its verbs, its parameters and its answer.

use super::{Access, Registry};
use croupier_shared::{API_VERSION, ErrorType, FieldCode};
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

pub fn document(registry: &Registry) -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "#/components/schemas/".into();
    let mut generator = settings.into_generator();
    let mut paths = Map::new();
    for spec in registry.methods() {
        let input = (spec.input_schema)(&mut generator).to_value();
        let output = (spec.output_schema)(&mut generator).to_value();
        let ok = json!({
            "description": "Success",
            "content": { "application/json": { "schema": {
                "type": "object",
                "required": ["status", "data"],
                "properties": { "status": { "const": "ok" }, "data": output },
            }}},
        });
        let responses = json!({ "200": ok, "default": { "$ref": "#/components/responses/Error" } });
        let common = vec![
            json!({ "name": "locale", "in": "query", "schema": { "type": "string", "enum": ["en", "fr"] },
                    "description": "Language of messages; anything else falls back to en." }),
            json!({ "name": "v", "in": "query", "required": true, "schema": { "const": API_VERSION } }),
        ];
        let mut item = Map::new();
        if spec.access == Access::Read {
            let mut parameters = common.clone();
            parameters.extend(query_parameters(&input));
            item.insert(
                "get".into(),
                json!({ "operationId": format!("get:{}", spec.name), "summary": spec.summary,
                        "parameters": parameters, "responses": responses }),
            );
        }
        let form = json!({ "schema": input });
        item.insert(
            "post".into(),
            json!({
                "operationId": spec.name,
                "summary": spec.summary,
                "parameters": common,
                "requestBody": { "required": false, "content": {
                    "application/x-www-form-urlencoded": form.clone(),
                    "multipart/form-data": form,
                }},
                "responses": responses,
            }),
        );
        paths.insert(format!("/api/{}", spec.name), Value::Object(item));
    }
    let mut schemas = generator.take_definitions(true);
    schemas.insert("ErrorEnvelope".into(), error_envelope());
    json!({
        "openapi": "3.1.0",
        "info": { "title": "Croupier product API", "version": API_VERSION,
                  "description": "Every method of SPEC §7. Bodies are form data; answers are the envelope of DESIGN.md." },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": { "Error": { "description": "Failure envelope",
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ErrorEnvelope" } } } } },
        },
    })
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
