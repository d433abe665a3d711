//! Cargo's build script (`build = "src/redact/build.rs"`): turns gitleaks' rules
//! (`src/redact/gitleaks.toml`, kept as gitleaks publishes it) into JSON that
//! `redact::secrets` reads, so the crate needs no TOML parser of its own at run time. Only what
//! cctv uses is kept: each rule's pattern, secret group, entropy, keywords and allowlists, and the
//! global allowlist.

use std::path::Path;

use serde_json::{json, Value as Json};
use toml::Value;

fn main() {
    let source = Path::new("src/redact/gitleaks.toml");
    println!("cargo::rerun-if-changed={}", source.display());
    let text = std::fs::read_to_string(source).expect("src/redact/gitleaks.toml is in the crate");
    let config: Value = toml::from_str(&text).expect("gitleaks.toml is TOML");
    let strings = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
            .unwrap_or_default()
    };
    let allowlist = |a: &Value| -> Json {
        json!({
            "regexes": strings(a.get("regexes")),
            "stopwords": strings(a.get("stopwords")),
            "target": a.get("regexTarget").and_then(Value::as_str).unwrap_or("secret"),
            "all": a.get("condition").and_then(Value::as_str) == Some("AND"),
        })
    };
    let rules: Vec<Json> = config
        .get("rules")
        .and_then(Value::as_array)
        .expect("gitleaks.toml has rules")
        .iter()
        .map(|r| {
            json!({
                "id": r.get("id").and_then(Value::as_str),
                "description": r.get("description").and_then(Value::as_str),
                "regex": r.get("regex").and_then(Value::as_str),
                "path": r.get("path").and_then(Value::as_str),
                "secret_group": r.get("secretGroup").and_then(Value::as_integer).unwrap_or(0),
                "entropy": r.get("entropy").and_then(Value::as_float),
                "keywords": strings(r.get("keywords")),
                "allowlists": r.get("allowlists").and_then(Value::as_array).map(|a| a.iter().map(allowlist).collect::<Vec<_>>()).unwrap_or_default(),
            })
        })
        .collect();
    let global = config.get("allowlist").map(allowlist).unwrap_or(Json::Null);
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("gitleaks.json");
    std::fs::write(out, json!({ "rules": rules, "allowlist": global }).to_string())
        .expect("OUT_DIR is writable");
}
