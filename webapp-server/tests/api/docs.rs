//! The README and the example environment file document every setting the server reads.

use croupier_server::config::VARIABLES;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_readme_documents_every_variable_with_its_default() {
    let readme = read("README.md");
    for v in VARIABLES {
        let line = readme.lines().find(|l| l.contains(&format!("`{}`", v.env)));
        let line = line.unwrap_or_else(|| panic!("README.md does not document `{}`", v.env));
        if let Some(default) = v.default {
            assert!(line.contains(default), "README.md gives `{}` another default than {default:?}: {line}", v.env);
        }
    }
}

#[test]
fn the_example_environment_lists_every_variable() {
    let example = read("deploy/croupier.env.example");
    for v in VARIABLES {
        let listed = example.lines().any(|l| {
            let l = l.trim_start_matches('#').trim_start();
            l.starts_with(&format!("{}=", v.env))
        });
        assert!(listed, "deploy/croupier.env.example does not list {}", v.env);
    }
}
