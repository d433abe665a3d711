//! Secrets planted in real transcripts, made here so that no string in the tests is itself a
//! credential.

use cctv::normalize::Input;
use serde_json::Value;

/// Letters and digits that look random enough for the rules' entropy checks, made here so that
/// no string in this file is itself a credential.
pub fn noise(len: usize, seed: u64) -> String {
    let alphabet = b"aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz";
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            alphabet[(x >> 33) as usize % alphabet.len()] as char
        })
        .collect()
}

/// Adds ` <secret>` to the string at `path` of line `number` of `input`.
pub fn plant(input: &mut Input, number: usize, path: &[&str], secret: &str) {
    let text = String::from_utf8(input.bytes.clone()).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut value: Value = serde_json::from_str(&lines[number]).unwrap();
    let mut at = &mut value;
    for key in path {
        at = match key.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[*key],
        };
    }
    let old = at
        .as_str()
        .unwrap_or_else(|| panic!("{path:?} is a string in line {number} of {}", input.name))
        .to_owned();
    *at = Value::String(format!("{old} {secret}"));
    lines[number] = serde_json::to_string(&value).unwrap();
    input.bytes = (lines.join("\n") + "\n").into_bytes();
}

/// The first line of `input` that has every key of `path`.
pub fn line_with(input: &Input, path: &[&str]) -> usize {
    let text = String::from_utf8(input.bytes.clone()).unwrap();
    text.lines()
        .position(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap_or(Value::Null);
            for key in path {
                v = match key.parse::<usize>() {
                    Ok(i) => v.get(i).cloned().unwrap_or(Value::Null),
                    Err(_) => v.get(*key).cloned().unwrap_or(Value::Null),
                };
            }
            v.is_string()
        })
        .unwrap_or_else(|| panic!("no line of {} has {path:?}", input.name))
}
