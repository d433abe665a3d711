//! ISO 8601 timestamps as Claude Code writes them (`2026-01-22T21:11:35.158Z`), to milliseconds.

/// Milliseconds since the Unix epoch, or `None` for anything that is not a UTC timestamp of the
/// form `YYYY-MM-DDTHH:MM:SS[.fff]Z` (or with a `+HH:MM` offset). Bytes, digits read by hand:
/// this runs for every line of a session.
pub(crate) fn parse_millis(b: &[u8]) -> Option<i64> {
    let digits = |d: &[u8]| -> Option<i64> {
        if d.is_empty() {
            return None;
        }
        d.iter().try_fold(0i64, |n, &c| c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0')))
    };
    let num = |range: std::ops::Range<usize>| b.get(range).and_then(digits);
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b' ') || b[13] != b':' {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut rest = &b[19..];
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix(b".") {
        let count = fraction.iter().take_while(|c| c.is_ascii_digit()).count();
        let first3 = &fraction[..count.min(3)];
        millis = digits(first3)? * 10i64.pow(3 - first3.len() as u32);
        rest = &fraction[count..];
    }
    let offset_minutes = match rest {
        b"Z" | b"z" | b"" => 0,
        _ => {
            let sign = match rest[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let hhmm: Vec<u8> = rest[1..].iter().copied().filter(u8::is_ascii_digit).collect();
            if hhmm.len() != 4 {
                return None;
            }
            sign * (digits(&hhmm[..2])? * 60 + digits(&hhmm[2..])?)
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
        assert_eq!(parse_millis(b"1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(parse_millis(b"2026-01-22T21:11:35.158Z"), Some(1_769_116_295_158));
        assert_eq!(parse_millis(b"2025-06-14T11:00:00Z"), Some(1_749_898_800_000));
        assert_eq!(parse_millis(b"2025-06-14T13:00:00+02:00"), Some(1_749_898_800_000));
    }

    #[test]
    fn anything_else_is_none() {
        for bad in ["", "yesterday", "2025-13-01T00:00:00Z", "2025-06-14", "2025-06-14T11:00:00Q"] {
            assert_eq!(parse_millis(bad.as_bytes()), None, "{bad}");
        }
    }
}
