//! The deployment files under `deploy/`: they parse, they describe the scaled way of running
//! Croupier (DESIGN.md, "Two ways to run"), and every environment variable they name is one
//! the processes read. Nothing here runs docker, kubectl or systemd: the files are read.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde_yaml::Value;

/// Every environment variable croupier-server and croupier-bot read: the server's own table.
fn known_variables() -> Vec<&'static str> {
    croupier_server::config::VARIABLES.iter().map(|v| v.env).collect()
}

/// Local copies of the examples, holding real secrets; ignored by git and never checked.
const LOCAL_SECRET_FILES: &[&str] = &["croupier.env", "k8s/secret.yaml"];

/// The Kubernetes manifests the deployment is made of.
const K8S_FILES: &[&str] = &[
    "k8s/namespace.yaml",
    "k8s/configmap.yaml",
    "k8s/secret.example.yaml",
    "k8s/server-deployment.yaml",
    "k8s/server-service.yaml",
    "k8s/ingress.yaml",
    "k8s/bot-deployment.yaml",
    "k8s/hpa.yaml",
    "k8s/pdb.yaml",
];

// ---------------------------------------------------------------------------------------
// Reading the files
// ---------------------------------------------------------------------------------------

fn deploy_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("deploy")
}

fn read(relative: &str) -> String {
    let path = deploy_dir().join(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every file under deploy/ as a path relative to it ('/'-separated), sorted, without the
/// local secret files.
fn deploy_files() -> Vec<String> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.expect("a readable directory entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let relative = if prefix.is_empty() { name } else { format!("{prefix}/{name}") };
            let file_type = entry.file_type().expect("a file type");
            if file_type.is_dir() {
                walk(&entry.path(), &relative, out);
            } else if file_type.is_file() {
                out.push(relative);
            }
        }
    }
    let mut files = Vec::new();
    walk(&deploy_dir(), "", &mut files);
    files.retain(|file| !LOCAL_SECRET_FILES.contains(&file.as_str()));
    files.sort();
    files
}

fn is_yaml(file: &str) -> bool {
    file.ends_with(".yaml") || file.ends_with(".yml")
}

/// Every document of a YAML file (one or several, separated by `---`), with merge keys
/// (`<<: *anchor`) applied as Docker Compose applies them. Empty documents are dropped.
fn yaml_documents(relative: &str) -> Vec<Value> {
    let text = read(relative);
    let mut documents = Vec::new();
    for (index, document) in serde_yaml::Deserializer::from_str(&text).enumerate() {
        // serde_yaml has no inherent method that turns one document of a multi-document
        // stream into a Value; `singleton_map::deserialize` is a plain pass-through for
        // `Value` (it only changes how enums are read) and spares this file a direct serde
        // dependency.
        let mut value: Value = serde_yaml::with::singleton_map::deserialize(document)
            .unwrap_or_else(|e| panic!("deploy/{relative}, document {}: {e}", index + 1));
        value.apply_merge().unwrap_or_else(|e| panic!("deploy/{relative}, document {}: {e}", index + 1));
        if !value.is_null() {
            documents.push(value);
        }
    }
    documents
}

/// A scalar as text (strings, numbers, booleans); null is the empty string.
fn scalar(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        Value::Bool(flag) => flag.to_string(),
        Value::Null => String::new(),
        other => panic!("expected a scalar, found {other:?}"),
    }
}

/// The words of a command written as a string or as a list.
fn command_words(command: &Value) -> Vec<String> {
    match command {
        Value::String(text) => text.split_whitespace().map(str::to_owned).collect(),
        Value::Sequence(items) => items.iter().map(scalar).collect(),
        Value::Null => Vec::new(),
        other => panic!("expected a command, found {other:?}"),
    }
}

fn mapping_keys(value: &Value) -> Vec<String> {
    value.as_mapping().map(|mapping| mapping.keys().map(scalar).collect()).unwrap_or_default()
}

// ---------------------------------------------------------------------------------------
// Environment variable names
// ---------------------------------------------------------------------------------------

/// Names that look like the contract's: CROUPIER_*, TELEGRAM_*, DATABASE_URL, REDIS_URL.
fn contract_style(name: &str) -> bool {
    name.starts_with("CROUPIER_") || name.starts_with("TELEGRAM_") || name == "DATABASE_URL" || name == "REDIS_URL"
}

/// Every identifier in a text that looks like a contract variable.
fn variable_tokens(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| contract_style(word))
        .map(str::to_owned)
        .collect()
}

/// The contract-style names among `names` that the contract does not know.
fn unknown_variables(names: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    names.into_iter().filter(|name| contract_style(name) && !known_variables().contains(&name.as_str())).collect()
}

fn is_variable_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Names assigned in an env file (`NAME=value`), commented-out assignments included.
fn names_in_env_file(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim().trim_start_matches('#').trim_start();
            let (name, _) = line.split_once('=')?;
            is_variable_name(name).then(|| name.to_owned())
        })
        .collect()
}

/// `(section, key, value)` of every directive of a systemd unit.
fn unit_directives(text: &str) -> Vec<(String, String, String)> {
    let mut section = String::new();
    let mut directives = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')) {
            section = name.to_owned();
            continue;
        }
        if let Some((key, value)) = line.split_once('=') {
            directives.push((section.clone(), key.trim().to_owned(), value.trim().to_owned()));
        }
    }
    directives
}

/// Names set by the `Environment=` lines of a systemd unit.
fn names_in_unit(text: &str) -> Vec<String> {
    unit_directives(text)
        .into_iter()
        .filter(|(_, key, _)| key == "Environment")
        .flat_map(|(_, _, value)| {
            value
                .split_whitespace()
                .filter_map(|assignment| {
                    let (name, _) = assignment.trim_matches('"').split_once('=')?;
                    Some(name.to_owned())
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Compose
// ---------------------------------------------------------------------------------------

fn compose() -> Value {
    let mut documents = yaml_documents("compose.yaml");
    assert_eq!(documents.len(), 1, "deploy/compose.yaml holds exactly one document");
    documents.remove(0)
}

fn service<'a>(compose: &'a Value, name: &str) -> &'a Value {
    let service = &compose["services"][name];
    assert!(service.is_mapping(), "deploy/compose.yaml has no service {name:?}");
    service
}

/// A compose service's `environment`, written as a mapping or as a `NAME=value` list.
fn environment(service: &Value) -> Vec<(String, String)> {
    match &service["environment"] {
        Value::Mapping(variables) => variables.iter().map(|(name, value)| (scalar(name), scalar(value))).collect(),
        Value::Sequence(items) => items
            .iter()
            .map(|item| {
                let item = scalar(item);
                match item.split_once('=') {
                    Some((name, value)) => (name.to_owned(), value.to_owned()),
                    None => (item, String::new()),
                }
            })
            .collect(),
        Value::Null => Vec::new(),
        other => panic!("a compose environment is a mapping or a list, not {other:?}"),
    }
}

fn lookup(environment: &[(String, String)], name: &str) -> Option<String> {
    environment.iter().find(|(key, _)| key == name).map(|(_, value)| value.clone())
}

// ---------------------------------------------------------------------------------------
// Kubernetes
// ---------------------------------------------------------------------------------------

/// `(file, document)` for every document of every YAML file under deploy/k8s/.
fn k8s_documents() -> Vec<(String, Value)> {
    let mut all = Vec::new();
    for file in deploy_files() {
        if file.starts_with("k8s/") && is_yaml(&file) {
            for document in yaml_documents(&file) {
                all.push((file.clone(), document));
            }
        }
    }
    all
}

fn kind(document: &Value) -> &str {
    document["kind"].as_str().unwrap_or("")
}

fn name(document: &Value) -> &str {
    document["metadata"]["name"].as_str().unwrap_or("")
}

fn of_kind<'a>(documents: &'a [(String, Value)], wanted: &str) -> Vec<&'a (String, Value)> {
    documents.iter().filter(|(_, document)| kind(document) == wanted).collect()
}

fn deployment<'a>(documents: &'a [(String, Value)], wanted: &str) -> &'a Value {
    documents
        .iter()
        .map(|(_, document)| document)
        .find(|document| kind(document) == "Deployment" && name(document) == wanted)
        .unwrap_or_else(|| panic!("deploy/k8s/ has no Deployment named {wanted:?}"))
}

fn containers(deployment: &Value) -> &[Value] {
    deployment["spec"]["template"]["spec"]["containers"]
        .as_sequence()
        .map(Vec::as_slice)
        .unwrap_or_else(|| panic!("Deployment {:?} has no containers", name(deployment)))
}

/// True when every pair of `selector` (a label mapping) is among `labels`.
fn selects(selector: &Value, labels: &Value) -> bool {
    match selector.as_mapping() {
        Some(selector) if !selector.is_empty() => selector.iter().all(|(key, value)| labels.get(key) == Some(value)),
        _ => false,
    }
}

/// Every variable name a Kubernetes document sets: ConfigMap and Secret keys, container
/// `env` names and the Secret keys they refer to.
fn names_in_k8s_document(document: &Value) -> Vec<String> {
    let mut names = Vec::new();
    match kind(document) {
        "ConfigMap" => names.extend(mapping_keys(&document["data"])),
        "Secret" => {
            names.extend(mapping_keys(&document["stringData"]));
            names.extend(mapping_keys(&document["data"]));
        }
        "Deployment" => {
            for container in containers(document) {
                for variable in container["env"].as_sequence().into_iter().flatten() {
                    names.push(scalar(&variable["name"]));
                    let secret_key = &variable["valueFrom"]["secretKeyRef"]["key"];
                    if !secret_key.is_null() {
                        names.push(scalar(secret_key));
                    }
                    let config_key = &variable["valueFrom"]["configMapKeyRef"]["key"];
                    if !config_key.is_null() {
                        names.push(scalar(config_key));
                    }
                }
            }
        }
        _ => {}
    }
    names
}

// ---------------------------------------------------------------------------------------
// Dockerfile
// ---------------------------------------------------------------------------------------

/// The instructions of a Dockerfile, continuation lines joined, comments dropped.
fn dockerfile_instructions(text: &str) -> Vec<String> {
    let mut instructions = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        // Comments and blank lines end nothing, not even inside a continuation.
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match trimmed.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head.trim());
                current.push(' ');
            }
            None => {
                current.push_str(trimmed);
                instructions.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.trim().is_empty() {
        instructions.push(current);
    }
    instructions
}

fn keyword(instruction: &str) -> String {
    instruction.split_whitespace().next().unwrap_or("").to_ascii_uppercase()
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

#[test]
fn every_yaml_file_under_deploy_parses_into_mappings() {
    let files = deploy_files();
    let yaml_files: Vec<&String> = files.iter().filter(|file| is_yaml(file)).collect();
    for expected in std::iter::once(&"compose.yaml").chain(K8S_FILES.iter()) {
        assert!(
            yaml_files.iter().any(|file| file.as_str() == *expected),
            "deploy/{expected} is missing (found {yaml_files:?})"
        );
    }
    for file in yaml_files {
        let documents = yaml_documents(file);
        assert!(!documents.is_empty(), "deploy/{file} holds no YAML document");
        for (index, document) in documents.iter().enumerate() {
            assert!(
                document.is_mapping(),
                "deploy/{file}, document {}: expected a mapping, found {document:?}",
                index + 1
            );
        }
    }
}

#[test]
fn the_compose_file_runs_two_server_replicas_beside_postgres_redis_the_bot_and_a_load_balancer() {
    let compose = compose();
    for name in ["server", "bot", "postgres", "redis", "lb"] {
        service(&compose, name);
    }

    let server = service(&compose, "server");
    assert_eq!(server["deploy"]["replicas"].as_u64(), Some(2), "the compose server runs 2 replicas");
    let server_env = environment(server);
    let database_url = lookup(&server_env, "DATABASE_URL").expect("the server sets DATABASE_URL");
    assert!(
        database_url.starts_with("postgres://") && database_url.contains("@postgres:5432/"),
        "the server's DATABASE_URL is the compose PostgreSQL, not {database_url:?}"
    );
    let redis_url = lookup(&server_env, "REDIS_URL").expect("the server sets REDIS_URL");
    assert!(redis_url.starts_with("redis://redis:"), "the server's REDIS_URL is the compose Redis, not {redis_url:?}");
    assert_eq!(lookup(&server_env, "CROUPIER_ENV").as_deref(), Some("prod"));
    for dependency in ["postgres", "redis"] {
        assert_eq!(
            server["depends_on"][dependency]["condition"].as_str(),
            Some("service_healthy"),
            "the server waits for a healthy {dependency}"
        );
    }
    assert!(server["ports"].is_null(), "server replicas publish no port: traffic goes through the load balancer");
    assert!(!server["healthcheck"]["test"].is_null(), "the server has a healthcheck");

    let bot = service(&compose, "bot");
    assert!(
        command_words(&bot["command"]).iter().any(|word| word == "croupier-bot"),
        "the bot service runs croupier-bot"
    );
    assert!(!server["image"].is_null() && server["image"] == bot["image"], "server and bot run the same image");
    let bot_env = environment(bot);
    assert_eq!(
        lookup(&bot_env, "CROUPIER_SERVER_URL").as_deref(),
        Some("http://lb:8080"),
        "the bot reaches the server through the load balancer"
    );
    assert!(lookup(&bot_env, "TELEGRAM_BOT_TOKEN").is_some(), "the bot gets its token");
    let secret = lookup(&server_env, "CROUPIER_INTERNAL_SECRET");
    assert!(secret.is_some(), "the server gets CROUPIER_INTERNAL_SECRET");
    assert_eq!(secret, lookup(&bot_env, "CROUPIER_INTERNAL_SECRET"), "server and bot share one internal secret");

    let postgres = service(&compose, "postgres");
    assert!(scalar(&postgres["image"]).starts_with("postgres:16"));
    assert!(
        command_words(&postgres["healthcheck"]["test"]).iter().any(|word| word.contains("pg_isready")),
        "postgres is health-checked with pg_isready"
    );
    assert!(!postgres["volumes"].is_null(), "postgres keeps its data in a volume");
    assert!(scalar(&service(&compose, "redis")["image"]).starts_with("redis:7"));

    let lb = service(&compose, "lb");
    assert!(scalar(&lb["image"]).starts_with("nginx:"));
    assert!(
        command_words(&lb["volumes"]).iter().any(|volume| volume.contains("nginx.conf:/etc/nginx/nginx.conf")),
        "the load balancer mounts deploy/nginx.conf"
    );
    assert!(
        command_words(&lb["ports"]).iter().any(|port| port.ends_with(":8080")),
        "the load balancer publishes port 8080"
    );
}

#[test]
fn the_load_balancer_config_spreads_requests_over_every_server_replica() {
    let nginx = read("nginx.conf");
    for needle in [
        "resolver 127.0.0.11",
        "server server:8080 resolve",
        "listen 8080;",
        "proxy_pass http://croupier_server;",
        "client_max_body_size 1m;",
        "X-Forwarded-For $proxy_add_x_forwarded_for",
        "X-Forwarded-Proto",
        "proxy_set_header Host ",
        "Upgrade $http_upgrade",
        "Connection $connection_upgrade",
    ] {
        assert!(nginx.contains(needle), "deploy/nginx.conf lacks {needle:?}");
    }
    assert_eq!(nginx.matches('{').count(), nginx.matches('}').count(), "deploy/nginx.conf has unbalanced braces");
}

#[test]
fn every_kubernetes_object_has_a_kind_a_name_and_the_croupier_namespace() {
    let documents = k8s_documents();
    let mut kustomize_resources = Vec::new();
    for (file, document) in &documents {
        if kind(document) == "Kustomization" {
            kustomize_resources.extend(command_words(&document["resources"]));
            continue;
        }
        assert!(document["apiVersion"].as_str().is_some_and(|v| !v.is_empty()), "deploy/{file}: apiVersion missing");
        assert!(!kind(document).is_empty(), "deploy/{file}: kind missing");
        assert!(!name(document).is_empty(), "deploy/{file}: metadata.name missing");
        if kind(document) == "Namespace" {
            assert_eq!(name(document), "croupier", "deploy/{file}");
        } else {
            assert_eq!(
                document["metadata"]["namespace"].as_str(),
                Some("croupier"),
                "deploy/{file}: {} {} is in the croupier namespace",
                kind(document),
                name(document)
            );
        }
    }
    // kustomization.yaml, when present, lists every manifest but the secret example.
    if !kustomize_resources.is_empty() {
        for file in K8S_FILES {
            let local = file.trim_start_matches("k8s/");
            let listed = kustomize_resources.iter().any(|resource| resource == local);
            if *file == "k8s/secret.example.yaml" {
                assert!(!listed, "the secret example must not be applied by kustomize");
            } else {
                assert!(listed, "deploy/k8s/kustomization.yaml does not list {local}");
            }
        }
    }
}

#[test]
fn every_kubernetes_deployment_selects_the_labels_of_its_own_pod_template() {
    let documents = k8s_documents();
    let deployments = of_kind(&documents, "Deployment");
    assert!(deployments.len() >= 2, "deploy/k8s/ holds the server and bot Deployments, found {}", deployments.len());
    for (file, deployment) in deployments {
        let selector = &deployment["spec"]["selector"]["matchLabels"];
        let labels = &deployment["spec"]["template"]["metadata"]["labels"];
        assert!(
            selects(selector, labels),
            "deploy/{file}: selector {selector:?} does not match template labels {labels:?}"
        );
    }

    // The Service, the budget and the autoscaler all point at the server's pods.
    let server = deployment(&documents, "croupier-server");
    let server_labels = &server["spec"]["template"]["metadata"]["labels"];
    let bot_labels = &deployment(&documents, "croupier-bot")["spec"]["template"]["metadata"]["labels"];
    let services = of_kind(&documents, "Service");
    assert!(!services.is_empty(), "deploy/k8s/ has a Service");
    for (file, service) in services {
        assert!(
            selects(&service["spec"]["selector"], server_labels),
            "deploy/{file}: the Service selects the server pods"
        );
        assert!(
            !selects(&service["spec"]["selector"], bot_labels),
            "deploy/{file}: the Service must not select the bot"
        );
    }
    for (file, budget) in of_kind(&documents, "PodDisruptionBudget") {
        assert!(
            selects(&budget["spec"]["selector"]["matchLabels"], server_labels),
            "deploy/{file}: the budget selects the server pods"
        );
    }
    for (file, autoscaler) in of_kind(&documents, "HorizontalPodAutoscaler") {
        assert_eq!(
            autoscaler["spec"]["scaleTargetRef"]["name"].as_str(),
            Some("croupier-server"),
            "deploy/{file}: only the server is autoscaled"
        );
        assert!(
            autoscaler["spec"]["minReplicas"].as_u64().unwrap_or(0) >= 2,
            "deploy/{file}: never fewer than 2 server replicas"
        );
    }
}

#[test]
fn the_kubernetes_server_is_ready_on_readyz_and_alive_on_healthz() {
    let documents = k8s_documents();
    let server = deployment(&documents, "croupier-server");
    assert_eq!(server["spec"]["replicas"].as_u64(), Some(2));
    assert_eq!(server["spec"]["strategy"]["type"].as_str(), Some("RollingUpdate"));
    let pod = &server["spec"]["template"]["spec"];
    assert!(
        pod["terminationGracePeriodSeconds"].as_u64().is_some(),
        "the server pod sets terminationGracePeriodSeconds"
    );

    let containers = containers(server);
    assert_eq!(containers.len(), 1);
    let container = &containers[0];
    assert_eq!(container["readinessProbe"]["httpGet"]["path"].as_str(), Some("/readyz"));
    assert_eq!(container["livenessProbe"]["httpGet"]["path"].as_str(), Some("/healthz"));
    let port_names: Vec<String> = container["ports"]
        .as_sequence()
        .into_iter()
        .flatten()
        .flat_map(|port| [scalar(&port["name"]), scalar(&port["containerPort"])])
        .collect();
    assert!(port_names.iter().any(|port| port == "8080"), "the server listens on 8080");
    for probe in ["readinessProbe", "livenessProbe"] {
        let port = scalar(&container[probe]["httpGet"]["port"]);
        assert!(port_names.contains(&port), "the {probe} port {port:?} is one of the container's ports");
    }

    assert!(
        container["command"].is_null() || command_words(&container["command"]).iter().any(|w| w == "croupier-server"),
        "the server container runs croupier-server"
    );
    assert_eq!(container["securityContext"]["readOnlyRootFilesystem"].as_bool(), Some(true));
    assert!(
        container["securityContext"]["runAsNonRoot"].as_bool() == Some(true)
            || pod["securityContext"]["runAsNonRoot"].as_bool() == Some(true),
        "the server runs as non-root"
    );
    assert!(
        !container["resources"]["requests"].is_null() && !container["resources"]["limits"].is_null(),
        "the server declares resource requests and limits"
    );
    let env_from: Vec<&Value> = container["envFrom"].as_sequence().into_iter().flatten().collect();
    assert!(
        env_from.iter().any(|source| !source["configMapRef"].is_null())
            && env_from.iter().any(|source| !source["secretRef"].is_null()),
        "the server takes its environment from the ConfigMap and the Secret"
    );
}

#[test]
fn the_kubernetes_bot_runs_alone_and_is_recreated_rather_than_rolled() {
    let documents = k8s_documents();
    let bot = deployment(&documents, "croupier-bot");
    assert_eq!(bot["spec"]["replicas"].as_u64(), Some(1), "exactly one bot polls Telegram");
    assert_eq!(
        bot["spec"]["strategy"]["type"].as_str(),
        Some("Recreate"),
        "two bots never poll at once during a rollout"
    );
    assert!(
        containers(bot).iter().any(|container| command_words(&container["command"])
            .iter()
            .chain(command_words(&container["args"]).iter())
            .any(|word| word == "croupier-bot")),
        "the bot Deployment runs croupier-bot"
    );
}

#[test]
fn every_variable_named_in_the_deploy_files_is_one_the_contract_knows() {
    // Names set in each kind of file, read by structure.
    let compose = compose();
    let mut compose_names = Vec::new();
    for service in compose["services"].as_mapping().expect("compose services").values() {
        compose_names.extend(environment(service).into_iter().map(|(name, _)| name));
    }
    let k8s_names: Vec<String> =
        k8s_documents().iter().flat_map(|(_, document)| names_in_k8s_document(document)).collect();
    let example_names = names_in_env_file(&read("croupier.env.example"));
    let mut unit_names = Vec::new();
    for file in deploy_files() {
        if file.starts_with("systemd/") && file.ends_with(".service") {
            unit_names.extend(names_in_unit(&read(&file)));
        }
    }
    for (what, names) in [
        ("deploy/compose.yaml", &compose_names),
        ("deploy/k8s/", &k8s_names),
        ("deploy/croupier.env.example", &example_names),
        ("deploy/systemd/", &unit_names),
    ] {
        assert!(
            names.iter().any(|name| contract_style(name)),
            "{what}: no contract variable found, so the check below would prove nothing"
        );
        let unknown = unknown_variables(names.iter().cloned());
        assert!(unknown.is_empty(), "{what} sets variables the contract does not know: {unknown:?}");
    }

    // And every contract-looking identifier anywhere under deploy/ (Dockerfile, nginx,
    // README, comments included).
    let mut unknown = BTreeSet::new();
    for file in deploy_files() {
        if let Ok(text) = fs::read_to_string(deploy_dir().join(&file)) {
            for name in unknown_variables(variable_tokens(&text)) {
                unknown.insert(format!("{name} (deploy/{file})"));
            }
        }
    }
    assert!(unknown.is_empty(), "unknown variables under deploy/: {unknown:?}");
}

#[test]
fn the_example_env_file_lists_every_variable_of_the_contract() {
    let names: BTreeSet<String> = names_in_env_file(&read("croupier.env.example")).into_iter().collect();
    let missing: Vec<&str> = known_variables().iter().copied().filter(|variable| !names.contains(*variable)).collect();
    assert!(missing.is_empty(), "deploy/croupier.env.example does not list {missing:?}");
}

#[test]
fn the_variable_check_flags_a_name_the_contract_does_not_know() {
    let text = "CROUPIER_ADDR=0.0.0.0:8080\n# CROUPIER_NOT_A_SETTING=1\nTELEGRAM_WEBHOOK=x DATABASE_URL=y";
    let flagged = unknown_variables(variable_tokens(text));
    let expected: BTreeSet<String> =
        ["CROUPIER_NOT_A_SETTING", "TELEGRAM_WEBHOOK"].into_iter().map(str::to_owned).collect();
    assert_eq!(flagged, expected);
    assert_eq!(
        names_in_env_file("# Format: NAME=value\n# CROUPIER_LOG=info\nREDIS_URL=redis://r:6379\n"),
        vec!["CROUPIER_LOG".to_owned(), "REDIS_URL".to_owned()]
    );
    assert_eq!(
        names_in_unit("[Service]\nEnvironment=CROUPIER_ENV=prod \"CROUPIER_X=1\"\n"),
        vec!["CROUPIER_ENV".to_owned(), "CROUPIER_X".to_owned()]
    );
}

#[test]
fn the_dockerfile_has_three_stages_and_builds_both_binaries() {
    let instructions = dockerfile_instructions(&read("Dockerfile"));
    let stages: Vec<usize> = instructions
        .iter()
        .enumerate()
        .filter(|(_, instruction)| keyword(instruction) == "FROM")
        .map(|(index, _)| index)
        .collect();
    assert!(stages.len() >= 3, "deploy/Dockerfile has {} FROM stages", stages.len());

    let cargo_build = instructions
        .iter()
        .find(|instruction| keyword(instruction) == "RUN" && instruction.contains("cargo build"))
        .expect("deploy/Dockerfile runs cargo build");
    for needle in ["--release", "--locked", "-p croupier-server", "-p croupier-bot"] {
        assert!(cargo_build.contains(needle), "cargo build lacks {needle:?}: {cargo_build}");
    }
    for needle in ["npm ci", "npm run build -w miniapp"] {
        assert!(
            instructions.iter().any(|instruction| keyword(instruction) == "RUN" && instruction.contains(needle)),
            "deploy/Dockerfile runs {needle:?}"
        );
    }

    let runtime = &instructions[*stages.last().expect("a last stage")..];
    let has = |word: &str, needle: &str| {
        runtime.iter().any(|instruction| keyword(instruction) == word && instruction.contains(needle))
    };
    assert!(
        runtime.iter().any(|instruction| keyword(instruction) == "COPY"
            && instruction.contains("--from=")
            && instruction.contains("croupier-server")
            && instruction.contains("croupier-bot")
            && instruction.contains("/usr/local/bin")),
        "the runtime stage copies both binaries into /usr/local/bin"
    );
    assert!(has("COPY", "/srv/croupier/web"), "the runtime stage holds the client");
    assert!(has("ENV", "CROUPIER_WEB_DIR=/srv/croupier/web"));
    assert!(has("ENV", "CROUPIER_ADDR=0.0.0.0:8080"));
    assert!(has("EXPOSE", "8080"));
    assert!(has("HEALTHCHECK", "/healthz"));
    assert!(has("CMD", "croupier-server"), "croupier-server is the default command");
    let user = runtime
        .iter()
        .rev()
        .find(|instruction| keyword(instruction) == "USER")
        .expect("the runtime stage switches to a non-root USER");
    let who = user.split_whitespace().nth(1).unwrap_or("");
    let who = who.split(':').next().unwrap_or("");
    assert!(who != "root" && who != "0" && !who.is_empty(), "runtime USER is {who:?}");
}

#[test]
fn the_systemd_units_start_each_binary_with_the_shared_env_file() {
    for (unit, binary) in [
        ("systemd/croupier-server.service", "/usr/local/bin/croupier-server"),
        ("systemd/croupier-bot.service", "/usr/local/bin/croupier-bot"),
    ] {
        let directives = unit_directives(&read(unit));
        let value = |section: &str, key: &str| {
            directives.iter().find(|(s, k, _)| s == section && k == key).map(|(_, _, v)| v.as_str())
        };
        assert!(
            value("Service", "ExecStart").is_some_and(|exec| exec.starts_with(binary)),
            "deploy/{unit}: ExecStart runs {binary}"
        );
        assert_eq!(
            value("Service", "EnvironmentFile").map(|file| file.trim_start_matches('-')),
            Some("/etc/croupier/croupier.env"),
            "deploy/{unit}"
        );
        assert_eq!(value("Service", "Restart"), Some("on-failure"), "deploy/{unit}");
        assert_eq!(value("Service", "KillSignal"), Some("SIGTERM"), "deploy/{unit}");
        assert!(value("Service", "TimeoutStopSec").is_some(), "deploy/{unit}: TimeoutStopSec");
        assert_eq!(value("Service", "NoNewPrivileges"), Some("yes"), "deploy/{unit}");
        assert!(
            value("Service", "DynamicUser") == Some("yes") || value("Service", "User").is_some(),
            "deploy/{unit}: runs as an unprivileged user"
        );
        assert!(value("Install", "WantedBy").is_some(), "deploy/{unit}: WantedBy");
    }
}
