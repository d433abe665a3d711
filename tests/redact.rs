//! Secrets and personal details found and masked: a true and a false example for each kind the
//! export promises to find, and a secret planted in the places Claude Code copies a text to, in
//! real fixtures, masked everywhere without breaking a line.

mod common;

use cctv::normalize::Input;
use cctv::redact::{mask, Finding, Kind, Scanner};
use common::planted::{line_with, noise, plant};
use serde_json::Value;

fn found_in(scanner: &Scanner, text: &str) -> Vec<(Kind, Option<String>, String)> {
    let line = serde_json::json!({ "type": "user", "message": { "content": text } }).to_string();
    let input = Input { name: "s.jsonl".into(), bytes: line.into_bytes() };
    scanner.find(&[input]).into_iter().map(|f| (f.kind, f.rule, f.text)).collect()
}

#[test]
fn each_kind_of_secret_is_found_and_its_lookalike_is_not() {
    let scanner = Scanner::new(&[]).unwrap();
    let upper = |n, seed| noise(n, seed).to_uppercase().replace(['0', '1', '8', '9'], "Q");
    let cases: Vec<(&str, String, String)> = vec![
        ("anthropic-api-key", format!("sk-ant-api03-{}AA", noise(93, 1)), "sk-ant-api03-short".into()),
        (
            "openai-api-key",
            format!("sk-proj-{}T3BlbkFJ{}", noise(74, 2), noise(74, 3)),
            "sk-proj-notakey".into(),
        ),
        ("github-pat", format!("ghp_{}", noise(36, 4)), "ghp_tooshort".into()),
        ("github-fine-grained-pat", format!("github_pat_{}", noise(82, 5)), "github_pat_x".into()),
        ("gitlab-pat", format!("glpat-{}", noise(20, 6)), "glpat-".into()),
        (
            "slack-bot-token",
            format!("xoxb-{}-{}-{}", "1234567890123", "9876543210987", noise(24, 7)),
            "xoxb-123".into(),
        ),
        (
            "aws-access-token",
            format!("AKIA{}", upper(16, 8).replace(['0', '1', '8', '9'], "Z")),
            "AKIAEXAMPLE".into(),
        ),
        (
            "cctv-aws-secret-access-key",
            format!("aws_secret_access_key = {}{}", noise(38, 9), "/+"),
            "aws_secret_access_key = ${AWS_SECRET}".into(),
        ),
        ("gcp-api-key", format!("AIza{}", noise(35, 10)), "AIzaShort".into()),
        ("stripe-access-token", format!("sk_live_{}", noise(24, 11)), "sk_live_x".into()),
        ("npm-access-token", format!("npm_{}", noise(36, 12).to_lowercase()), "npm_install".into()),
        ("pypi-upload-token", format!("pypi-AgEIcHlwaS5vcmc{}", noise(60, 13)), "pypi-AgEI".into()),
        (
            "private-key",
            format!("-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----", noise(120, 14)),
            "-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----".into(),
        ),
        ("jwt", format!("eyJ{}.eyJ{}.{}", noise(20, 15), noise(30, 16), noise(22, 17)), "eyJhbGciOi".into()),
        (
            "cctv-bearer-token",
            format!("Authorization: Bearer {}", noise(32, 18)),
            "Authorization: Bearer <token>".into(),
        ),
        (
            "cctv-url-password",
            format!("postgres://app:{}@db.internal:5432/app", noise(16, 19)),
            "postgres://app:${PGPASSWORD}@db.internal/app".into(),
        ),
        (
            "cctv-env-secret",
            format!("DATABASE_PASSWORD={}", noise(20, 20)),
            "DATABASE_PASSWORD=changeme".into(),
        ),
    ];
    for (rule, secret, lookalike) in cases {
        let found = found_in(&scanner, &format!("the output was:\n{secret}\ndone"));
        assert!(
            found.iter().any(|(k, r, text)| *k == Kind::Secret
                && r.as_deref() == Some(rule)
                && secret.contains(text.as_str())),
            "{rule} not found in {secret:?}: {found:?}"
        );
        let found = found_in(&scanner, &format!("the output was:\n{lookalike}\ndone"));
        assert!(
            !found.iter().any(|(_, r, _)| r.as_deref() == Some(rule)),
            "{rule} found in {lookalike:?}: {found:?}"
        );
    }
}

#[test]
fn personal_details_and_the_readers_own_patterns_are_found() {
    let scanner = Scanner::new(&["ACME-\\d{4}".into()]).unwrap();
    let found = found_in(
        &scanner,
        "ada@analytical.engine.uk in /Users/ada/src on adas-mac.local for ticket ACME-1234",
    );
    let kinds: Vec<(Kind, &str)> = found.iter().map(|(k, _, t)| (*k, t.as_str())).collect();
    assert!(kinds.contains(&(Kind::Email, "ada@analytical.engine.uk")), "{kinds:?}");
    assert!(kinds.contains(&(Kind::HomeDirectory, "/Users/ada")), "{kinds:?}");
    assert!(kinds.contains(&(Kind::Pattern, "ACME-1234")), "{kinds:?}");
    assert!(kinds.contains(&(Kind::HostName, "adas-mac.local")), "{kinds:?}");
    assert!(Scanner::new(&["(unclosed".into()]).err().unwrap().contains("(unclosed"));
}

#[test]
fn a_planted_secret_is_masked_in_every_copy_and_every_line_still_parses() {
    let secret = format!("ghp_{}", noise(36, 99));
    let mut inputs = common::folder("moredip__session-share/samples/claude-code-projects");
    inputs.extend(common::from_folder(
        "moredip__session-share/session-viewer/test/INTEGRATION/fixtures",
        &["general-tool-calls.jsonl", "edit-tool-variants.jsonl"],
    ));
    let (main, agent) = (
        inputs.iter().position(|i| !i.name.contains("subagents")).unwrap(),
        inputs.iter().position(|i| i.name.contains("subagents")).unwrap(),
    );
    // A prompt, a sub-agent's prompt, a Bash output and its toolUseResult copy, an Edit's
    // originalFile.
    let prompt = ["message", "content"];
    let n = line_with(&inputs[main], &prompt);
    plant(&mut inputs[main], n, &prompt, &secret);
    let n = line_with(&inputs[agent], &prompt);
    plant(&mut inputs[agent], n, &prompt, &secret);
    let bash = inputs.len() - 2;
    let n = line_with(&inputs[bash], &["toolUseResult", "stdout"]);
    plant(&mut inputs[bash], n, &["toolUseResult", "stdout"], &secret);
    plant(&mut inputs[bash], n, &["message", "content", "0", "content"], &secret);
    let edit = inputs.len() - 1;
    let n = line_with(&inputs[edit], &["toolUseResult", "originalFile"]);
    plant(&mut inputs[edit], n, &["toolUseResult", "originalFile"], &secret);

    let findings = Scanner::new(&[]).unwrap().find(&inputs);
    let planted = findings.iter().find(|f| f.text == secret).expect("the planted secret is found");
    assert_eq!((planted.count, planted.certain, planted.rule.as_deref()), (5, true, Some("github-pat")));
    let masked = mask(&inputs, &[planted]);
    for (before, after) in inputs.iter().zip(&masked) {
        let text = String::from_utf8(after.bytes.clone()).unwrap();
        assert!(!text.contains(&secret), "{} still holds it", after.name);
        let (a, b) = (String::from_utf8_lossy(&before.bytes), text.clone());
        assert_eq!(a.lines().count(), b.lines().count());
        for (old, new) in a.lines().zip(b.lines()) {
            let parsed = |l: &str| serde_json::from_str::<Value>(l).is_ok();
            assert_eq!(parsed(old), parsed(new), "{}: {new}", after.name);
        }
    }
    assert_eq!(
        masked
            .iter()
            .map(|i| String::from_utf8_lossy(&i.bytes).matches("[REDACTED github-pat]").count())
            .sum::<usize>(),
        5
    );
}

#[test]
fn a_home_directory_is_masked_in_paths_and_in_project_folder_names() {
    let finding_input = Input {
        name: "projects/-Users-ada-src-app/s.jsonl".into(),
        bytes: br#"{"cwd":"/Users/ada/src/app","message":{"content":"C:\\Users\\ada\\x and /Users/ada"}}"#
            .to_vec(),
    };
    let findings = Scanner::new(&[]).unwrap().find(std::slice::from_ref(&finding_input));
    let homes: Vec<_> = findings.iter().filter(|f| f.kind == Kind::HomeDirectory).collect();
    let masked = mask(&[finding_input], &homes);
    let text = String::from_utf8(masked[0].bytes.clone()).unwrap();
    assert_eq!(text, r#"{"cwd":"~/src/app","message":{"content":"~\\x and ~"}}"#);
    assert_eq!(masked[0].name, "projects/-~-src-app/s.jsonl");
}

#[test]
fn a_mask_touches_only_text_inside_strings_and_never_an_escape() {
    let line = br#"{"n":1234567,"k123456":"id 123456 and \n123456","m":"nancy@x.io"}"#.to_vec();
    let input = Input { name: "s.jsonl".into(), bytes: line };
    let findings = Scanner::new(&["\\d{6}".into()]).unwrap().find(std::slice::from_ref(&input));
    let six: Vec<_> = findings.iter().filter(|f| f.kind == Kind::Pattern).collect();
    let masked = String::from_utf8(mask(std::slice::from_ref(&input), &six)[0].bytes.clone()).unwrap();
    assert_eq!(masked, r#"{"n":1234567,"k[REDACTED]":"id [REDACTED] and \n[REDACTED]","m":"nancy@x.io"}"#);
    assert!(serde_json::from_str::<Value>(&masked).is_ok());
    // `nancy@x.io` is in "b"; in "a" the same bytes begin inside the escape `\n` (a line break,
    // then `ancy@x.io`), and are not that text.
    let escaped =
        Input { name: "e.jsonl".into(), bytes: br#"{"a":"\nancy@x.io","b":"nancy@x.io"}"#.to_vec() };
    let findings = Scanner::new(&["nancy@x\\.io".into()]).unwrap().find(std::slice::from_ref(&escaped));
    let chosen: Vec<_> = findings.iter().filter(|f| f.kind == Kind::Pattern).collect();
    assert_eq!(chosen.len(), 1);
    let masked = String::from_utf8(mask(&[escaped], &chosen)[0].bytes.clone()).unwrap();
    assert_eq!(masked, r#"{"a":"\nancy@x.io","b":"[REDACTED]"}"#);
}

#[test]
fn a_secret_in_a_file_name_is_found_there_and_masked_in_the_name() {
    let secret = format!("ghp_{}", noise(36, 5));
    let input = Input { name: format!("notes-{secret}/s.jsonl"), bytes: br#"{"type":"user"}"#.to_vec() };
    let findings = Scanner::new(&[]).unwrap().find(std::slice::from_ref(&input));
    let found = findings.iter().find(|f| f.text == secret).expect("found in the name");
    assert_eq!(found.line, 0, "line 0 is the file's name");
    let masked = mask(&[input], &[found]);
    assert_eq!(masked[0].name, "notes-[REDACTED github-pat]/s.jsonl");
    assert_eq!(cctv::redact::mask_text(&format!("title {secret}"), &[found]), "title [REDACTED github-pat]");
}

/// The mask finds a line's strings where they end: after an escaped backslash, not at an escaped
/// quote, beside characters of several bytes, and at the line's last byte; each says what it
/// says once its escapes are read (`\u0067` is `g`).
#[test]
fn a_mask_finds_each_string_of_a_line_around_escaped_quotes_and_backslashes() {
    let finding = Finding {
        kind: Kind::Pattern,
        label: String::new(),
        rule: None,
        text: "ghp_secret".into(),
        certain: true,
        count: 1,
        file: String::new(),
        line: 1,
        before: String::new(),
        after: String::new(),
        mask: "[*]".into(),
        forms: vec![],
    };
    let lines = concat!(
        r#"{"a":"x\\","b":"\"ghp_secret\"","c":"é日\\\"ghp_secret","d":["\u0067hp_secret",12,"ghp_secret"],"e":"ghp_secret"}"#,
        "\n",
        r#""ghp_secret""#,
        "\n",
        r#"["", "\\", "ghp_secret\\"]"#,
    );
    let input = Input { name: "s.jsonl".into(), bytes: lines.as_bytes().to_vec() };
    let masked = String::from_utf8(mask(&[input], &[&finding])[0].bytes.clone()).unwrap();
    let expected = concat!(
        r#"{"a":"x\\","b":"\"[*]\"","c":"é日\\\"[*]","d":["[*]",12,"[*]"],"e":"[*]"}"#,
        "\n",
        r#""[*]""#,
        "\n",
        r#"["", "\\", "[*]\\"]"#,
    );
    assert_eq!(masked, expected);
}
