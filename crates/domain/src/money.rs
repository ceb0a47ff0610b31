//! Money is integer centavos; shown as `P1,234.00`. The TypeScript twin is
//! `ui/src/lib/money.ts`; both are tested against `money_cases.json`.

/// Formats centavos as pesos: "P" prefix, thousands separators, two decimals. Negative amounts
/// (refunds, returned deposits) carry a leading minus: `-P50.00`.
pub fn format_php(centavos: i64) -> String {
    let negative = centavos < 0;
    let abs = centavos.unsigned_abs();
    let pesos = (abs / 100).to_string();
    let cents = abs % 100;
    let mut grouped = String::with_capacity(pesos.len() + pesos.len() / 3);
    for (i, ch) in pesos.chars().enumerate() {
        if i > 0 && (pesos.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    format!("{}P{grouped}.{cents:02}", if negative { "-" } else { "" })
}

/// An amount of pesos as a person types it: whole pesos with at most two decimals, thousands
/// separated by commas or not, an optional `P` or `₱` before (`1,250`, `1250.5`, `P 980.00`).
pub const PESOS: &str = r"^\s*[Pp₱]?\s*([0-9]{1,3}(,[0-9]{3}){0,2}|[0-9]{1,9})(\.[0-9]{1,2})?\s*$";

/// The centavos of `text` as [`PESOS`] reads it (at most P999,999,999.99), or `None`.
pub fn parse_pesos(text: &str) -> Option<i64> {
    let t = text.trim();
    let t = t
        .strip_prefix('₱')
        .or_else(|| t.strip_prefix(['P', 'p']))
        .unwrap_or(t)
        .trim_start();
    let (whole, cents) = match t.split_once('.') {
        Some((w, c)) if (1..=2).contains(&c.len()) && c.bytes().all(|b| b.is_ascii_digit()) => (
            w,
            if c.len() == 1 {
                format!("{c}0")
            } else {
                c.to_string()
            },
        ),
        Some(_) => return None,
        None => (t, "00".to_string()),
    };
    let grouped = whole.contains(',');
    let groups: Vec<&str> = whole.split(',').collect();
    let well_grouped = !grouped
        || (groups.len() <= 3
            && (1..=3).contains(&groups[0].len())
            && groups[1..].iter().all(|g| g.len() == 3));
    let digits: String = groups.concat();
    if !well_grouped
        || digits.is_empty()
        || digits.len() > 9
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let pesos: i64 = digits.parse().ok()?;
    Some(pesos * 100 + cents.parse::<i64>().ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Case {
        centavos: i64,
        text: String,
    }

    #[test]
    fn formats_the_shared_table() {
        let cases: Vec<Case> = serde_json::from_str(include_str!("money_cases.json")).unwrap();
        assert!(cases.len() >= 10);
        for c in cases {
            assert_eq!(
                format_php(c.centavos),
                c.text,
                "for {} centavos",
                c.centavos
            );
        }
    }

    #[test]
    fn extremes_do_not_overflow() {
        assert_eq!(format_php(i64::MIN), "-P92,233,720,368,547,758.08");
        assert_eq!(format_php(i64::MAX), "P92,233,720,368,547,758.07");
    }

    #[test]
    fn pesos_read_as_people_type_them() {
        for (text, centavos) in [
            ("1250", Some(125_000)),
            ("1,250", Some(125_000)),
            ("1,250.5", Some(125_050)),
            ("P 980.00", Some(98_000)),
            ("₱12,345,678.90", Some(1_234_567_890)),
            ("0", Some(0)),
            (" 7.05 ", Some(705)),
            ("", None),
            ("-5", None),
            ("1,25", None),
            ("12,3456", None),
            ("1.234", None),
            ("1e3", None),
            ("1234567890", None),
            ("1,000,000,000", None),
            ("P", None),
            (".5", None),
        ] {
            assert_eq!(parse_pesos(text), centavos, "{text:?}");
        }
    }
}
