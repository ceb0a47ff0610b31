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
}
