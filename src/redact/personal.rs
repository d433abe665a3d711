//! Personal details in a session: e-mail addresses, the home directory (which names the user)
//! in paths, and the names of machines on a private network (`build-01.internal`,
//! `adas-macbook.local`).

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

fn email() -> &'static Regex {
    static EMAIL: OnceLock<Regex> = OnceLock::new();
    EMAIL.get_or_init(|| {
        Regex::new(r"(?-u:\b)[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}(?-u:\b)")
            .expect("a valid pattern")
    })
}

fn home() -> &'static Regex {
    static HOME: OnceLock<Regex> = OnceLock::new();
    HOME.get_or_init(|| {
        Regex::new(r"(?:/Users/|/home/|[A-Za-z]:\\Users\\)([A-Za-z0-9._-]{1,64})(?:[/\\]|$|[^A-Za-z0-9._-])")
            .expect("a valid pattern")
    })
}

fn host() -> &'static Regex {
    static HOST: OnceLock<Regex> = OnceLock::new();
    HOST.get_or_init(|| {
        // Suffixes for names that only resolve inside a network (RFC 6762 `.local`, RFC 8375
        // `.home.arpa`, and the ones networks commonly use): a public name says nothing of the
        // person, these name their machines.
        Regex::new(
            r"(?i)(?-u:\b)[a-z0-9](?:[a-z0-9-]{0,62}\.)*[a-z0-9-]{1,63}\.(?:local|internal|lan|corp|intranet|home\.arpa)(?-u:\b)",
        )
        .expect("a valid pattern")
    })
}

/// Addresses that name no one: Claude's own co-author line, and documentation domains.
fn is_anonymous(address: &str) -> bool {
    let lower = address.to_ascii_lowercase();
    let domain = lower.rsplit('@').next().unwrap_or_default();
    lower == "noreply@anthropic.com"
        || ["example.com", "example.org", "example.net", "localhost"].contains(&domain)
        || lower.starts_with("git@")
}

/// The e-mail addresses in `text`.
pub(crate) fn emails(text: &str) -> Vec<Range<usize>> {
    email().find_iter(text).filter(|m| !is_anonymous(m.as_str())).map(|m| m.range()).collect()
}

/// Whether `text` holds one of the suffixes [`host`] ends with: most texts do not, and this
/// look is many times quicker than the pattern's (which has no literal to start from). Each
/// suffix begins with `.`: the look compares them after each `.` memchr finds.
fn may_name_a_host(text: &str) -> bool {
    const SUFFIXES: [&[u8]; 6] = [b"local", b"internal", b"lan", b"corp", b"intranet", b"home.arpa"];
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'.', bytes).any(|dot| {
        let after = &bytes[dot + 1..];
        SUFFIXES.iter().any(|s| after.get(..s.len()).is_some_and(|a| a.eq_ignore_ascii_case(s)))
    })
}

/// The names of machines on a private network in `text`.
pub fn hosts(text: &str) -> Vec<Range<usize>> {
    if !may_name_a_host(text) {
        return Vec::new();
    }
    host()
        .find_iter(text)
        // Part of an e-mail address is said as the address; `file.local.txt`, `.env.local` and
        // `src/app.local` are file names, and so, most often, is a `.local` name without a
        // hyphen or a digit (a machine's is `adas-macbook.local`).
        .filter(|m| {
            let before = &text[..m.start()];
            !before.ends_with(['@', '.', '\\']) && (!before.ends_with('/') || before.ends_with("//"))
        })
        .filter(|m| {
            let name = m.as_str();
            !name.to_ascii_lowercase().ends_with(".local")
                || name.contains(|c: char| c == '-' || c.is_ascii_digit())
        })
        .filter(|m| {
            let mut after = text[m.end()..].chars();
            !(after.next() == Some('.') && after.next().is_some_and(|c| c.is_ascii_alphanumeric()))
        })
        .map(|m| m.range())
        .collect()
}

/// The home directories in paths in `text` (`/Users/alice`, `/home/alice`, `C:\Users\alice`):
/// their range, and the user's name.
pub fn homes(text: &str) -> Vec<(Range<usize>, String)> {
    // Every home [`home`] matches is under `/home/` or a `Users` folder: most texts name
    // neither, and looking for those two is many times quicker than the pattern.
    let bytes = text.as_bytes();
    if memchr::memmem::find(bytes, b"/home/").is_none() && memchr::memmem::find(bytes, b"Users").is_none() {
        return Vec::new();
    }
    home()
        .captures_iter(text)
        .filter_map(|c| {
            let user = c.get(1)?;
            let start = c.get(0)?.start();
            // Shared and system homes name no one.
            (!["Shared", "runner", "root"].contains(&user.as_str()))
                .then(|| (start..user.end(), user.as_str().to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_found_but_not_claudes_or_examples() {
        let text = "mail ada.lovelace+cctv@analytical.engine.co.uk or bob@example.com; \
                    Co-Authored-By: Claude <noreply@anthropic.com>; git@github.com:me/repo; react@18.2.0";
        let found: Vec<&str> = emails(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["ada.lovelace+cctv@analytical.engine.co.uk"]);
    }

    #[test]
    fn private_host_names_are_found_but_not_public_ones() {
        let text =
            "ssh deploy@build-01.internal; open http://adas-macbook.local:3000 and printer.home.arpa; \
                    see docs.anthropic.com, file.local.txt, a .local var, cp .env.local x, config.local";
        let found: Vec<&str> = hosts(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["adas-macbook.local", "printer.home.arpa"]);
    }

    #[test]
    fn home_directories_name_their_user() {
        let text = r"cd /Users/ada/src && cat /home/bob/.env; C:\Users\carol\app; /Users/Shared/x; /usr/bin";
        let found: Vec<(&str, String)> = homes(text).into_iter().map(|(r, u)| (&text[r], u)).collect();
        assert_eq!(
            found,
            [("/Users/ada", "ada".into()), ("/home/bob", "bob".into()), (r"C:\Users\carol", "carol".into())]
        );
    }
}
