//! The words of a text as the index holds them and as a shopper's query is read: the same rule for
//! both, so that "500 ML", "500ml" and "500 mL" are one word.

/// The units of a size as shoppers write them, and the one the index holds.
const UNITS: &[(&str, &str)] = &[
    ("ml", "ml"),
    ("mls", "ml"),
    ("l", "l"),
    ("lt", "l"),
    ("ltr", "l"),
    ("ltrs", "l"),
    ("liter", "l"),
    ("liters", "l"),
    ("litre", "l"),
    ("litres", "l"),
    ("litro", "l"),
    ("litros", "l"),
];

fn unit(word: &str) -> Option<&'static str> {
    UNITS.iter().find(|(w, _)| *w == word).map(|(_, u)| *u)
}

/// A letter as the index holds it: lower case, accents dropped (ñ is n: shoppers type either).
fn fold(c: char) -> char {
    match c.to_lowercase().next().unwrap_or(c) {
        'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' => 'o',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        'ñ' => 'n',
        'ç' => 'c',
        c => c,
    }
}

/// A size written as one word ("30l", "500ml", "1litro"): the number and the unit the index
/// holds.
fn size(word: &str) -> Option<String> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits == word.len() {
        return None;
    }
    unit(&word[digits..]).map(|u| format!("{}{u}", &word[..digits]))
}

/// The words of `text`: lower case, accents dropped, split at anything that is no letter or
/// digit, and a size written as a number and its unit ("500 ml", "30L", "1 litro") one word
/// ("500ml", "30l", "1l").
pub fn words(text: &str) -> Vec<String> {
    let folded: String = text.chars().map(fold).collect();
    let raw: Vec<&str> = folded
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let w = raw[i];
        if let Some(size) = size(w) {
            out.push(size);
        } else if let Some(u) = w
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| raw.get(i + 1).and_then(|next| unit(next)))
            .flatten()
        {
            out.push(format!("{w}{u}"));
            i += 1;
        } else {
            out.push(w.to_string());
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn sizes_are_one_word_however_written() {
        for (text, want) in [
            ("Tala Pale Pilsen Keg 30 L", "tala pale pilsen keg 30l"),
            ("serbesa keg 30l", "serbesa keg 30l"),
            ("500 ML", "500ml"),
            ("500mL can", "500ml can"),
            ("1 litro", "1l"),
            ("2 Litros grande", "2l grande"),
            ("473 ml", "473ml"),
        ] {
            assert_eq!(words(text).join(" "), want, "{text}");
        }
    }

    #[test]
    fn letters_are_folded_and_anything_else_splits() {
        assert_eq!(words("Ñ  Pilsén/IPA—Can"), ["n", "pilsen", "ipa", "can"]);
        assert_eq!(words("  \t\u{0}<script>"), ["script"]);
        assert!(words("").is_empty());
        assert!(words("%%% ..").is_empty());
        // A number alone and a unit alone stay what they are.
        assert_eq!(words("24 bottles"), ["24", "bottles"]);
        assert_eq!(words("l"), ["l"]);
        assert_eq!(words("mlx 5x"), ["mlx", "5x"]);
    }
}
