//! The search words as staff set them (`store catalog words`): a shopper's word and what it
//! means in the catalog's words, each read as the index reads text (lower case, accents dropped,
//! a size one word), so what is kept is what a query will meet.

/// The longest word and meaning kept, in characters.
const MAX_WORD: usize = 40;
const MAX_MEANS: usize = 200;

/// `word` and `means` as kept, or why not: one word (`lata`), and the catalog's words it stands
/// for (`can cans`; none: a word for anything the store sells, which narrows nothing).
pub fn search_word(word: &str, means: &str) -> Result<(String, String), String> {
    let words = search::words(word);
    let [one] = words.as_slice() else {
        return Err(format!(
            "{word:?}: give one word (letters and digits), as a shopper types it"
        ));
    };
    if one.chars().count() > MAX_WORD || means.chars().count() > MAX_MEANS {
        return Err(format!(
            "a word has at most {MAX_WORD} characters, its meaning {MAX_MEANS}"
        ));
    }
    Ok((one.clone(), search::words(means).join(" ")))
}

#[cfg(test)]
mod tests {
    use super::search_word;

    #[test]
    fn a_word_is_kept_as_the_index_reads_it() {
        assert_eq!(
            search_word(" Lata ", "Can, CANS").unwrap(),
            ("lata".into(), "can cans".into())
        );
        assert_eq!(
            search_word("Serbesa", "").unwrap(),
            ("serbesa".into(), String::new())
        );
        assert_eq!(
            search_word("isang litro", "x").unwrap_err(),
            "\"isang litro\": give one word (letters and digits), as a shopper types it"
        );
        assert!(search_word("", "can").is_err());
        assert!(search_word("%%", "can").is_err());
        assert!(search_word(&"a".repeat(41), "").is_err());
        assert!(search_word("lata", &"can ".repeat(60)).is_err());
    }
}
