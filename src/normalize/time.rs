//! ISO 8601 timestamps as Claude Code writes them (`2026-01-22T21:11:35.158Z`), to milliseconds.

/// Milliseconds since the Unix epoch, or `None` for anything that is not a UTC timestamp of the
/// form `YYYY-MM-DDTHH:MM:SS[.fff]Z` (or with a `+HH:MM` offset).
pub fn parse_millis(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let num = |range: std::ops::Range<usize>| -> Option<i64> {
        let s = text.get(range)?;
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b' ') || b[13] != b':' {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut rest = &text[19..];
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        let first3 = &fraction[..digits.min(3)];
        millis = first3.parse::<i64>().ok()? * 10i64.pow(3 - first3.len() as u32);
        rest = &fraction[digits..];
    }
    let offset_minutes = match rest {
        "Z" | "z" | "" => 0,
        _ => {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let digits: String = rest[1..].chars().filter(char::is_ascii_digit).collect();
            if digits.len() != 4 {
                return None;
            }
            sign * (digits[..2].parse::<i64>().ok()? * 60 + digits[2..].parse::<i64>().ok()?)
        }
    };
    let days = days_from_civil(year, month, day);
    Some(((days * 24 + hour) * 60 + minute - offset_minutes) * 60_000 + second * 1000 + millis)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::parse_millis;

    #[test]
    fn claude_code_timestamps_parse_to_epoch_millis() {
        assert_eq!(parse_millis("1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(parse_millis("2026-01-22T21:11:35.158Z"), Some(1_769_116_295_158));
        assert_eq!(parse_millis("2025-06-14T11:00:00Z"), Some(1_749_898_800_000));
        assert_eq!(parse_millis("2025-06-14T13:00:00+02:00"), Some(1_749_898_800_000));
    }

    #[test]
    fn anything_else_is_none() {
        for bad in ["", "yesterday", "2025-13-01T00:00:00Z", "2025-06-14", "2025-06-14T11:00:00Q"] {
            assert_eq!(parse_millis(bad), None, "{bad}");
        }
    }
}
