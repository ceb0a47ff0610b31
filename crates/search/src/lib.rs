//! The catalog's search: each product's words in an index held in memory (tantivy), and a
//! shopper's words matched against it. Typos are forgiven (a word of 4 to 6 letters one letter
//! off, longer ones two: Levenshtein automata over the index's terms), word order is free, the
//! last word may be half typed (suggestions as one types), and the words shoppers use in Filipino
//! and Taglish reach the catalog's through [`Synonyms`], which the store keeps in its data. A
//! product's name counts more than its other words (brewery, packaging, type, size, description).
//!
//! Built whole from the products (at 10,000 in well under a second); nothing is written to disk,
//! so each app server builds its own from the same data and they agree.

mod words;

use std::collections::HashMap;

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::{TextAnalyzer, WhitespaceTokenizer};
use tantivy::{DocAddress, Index as Tantivy, IndexReader, ReloadPolicy, TantivyDocument, Term};

pub use words::words;

/// At most this many words of a query are read (a pasted paragraph is not a query).
pub const MAX_WORDS: usize = 8;
/// A longer word is cut here: no product's word is longer.
const MAX_WORD: usize = 40;

#[derive(Debug, thiserror::Error)]
#[error("search index: {0}")]
pub struct Error(#[from] tantivy::TantivyError);

/// A product as the index reads it.
#[derive(Debug, Clone)]
pub struct Item {
    pub id: i64,
    /// Its name: what counts most.
    pub name: String,
    /// Its other words: brewery, packaging, type, size, description.
    pub words: String,
}

/// A product found, with how well it matched (higher is better).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub id: i64,
    pub score: f32,
}

/// What shoppers' words mean in the catalog's: `lata` is a can, `bote` a bottle, `litro` a
/// litre. A word that means nothing (`serbesa`, `beer`: everything the store sells is beer)
/// narrows nothing.
#[derive(Debug, Clone, Default)]
pub struct Synonyms(HashMap<String, Vec<String>>);

impl Synonyms {
    /// From pairs of a word and what it means (the catalog's words, space-separated; empty: a
    /// word for anything the store sells).
    pub fn new<S: AsRef<str>>(pairs: impl IntoIterator<Item = (S, S)>) -> Self {
        let mut map = HashMap::new();
        for (word, means) in pairs {
            if let Some(word) = words(word.as_ref()).into_iter().next() {
                map.insert(word, words(means.as_ref()));
            }
        }
        Self(map)
    }

    /// The words to look for in place of `word` (itself among them); none for a word that
    /// narrows nothing.
    fn alternatives(&self, word: &str) -> Vec<String> {
        match self.0.get(word) {
            None => vec![word.to_string()],
            Some(means) if means.is_empty() => vec![],
            Some(means) => std::iter::once(word.to_string())
                .chain(means.iter().cloned())
                .collect(),
        }
    }
}

/// The index of a catalog.
pub struct Index {
    reader: IndexReader,
    name: Field,
    other: Field,
    synonyms: Synonyms,
    /// Every product, in the catalog's order: a query of words that narrow nothing finds these.
    all: Vec<i64>,
}

/// How many letters a word may be off: none under 4, one up to 6, two from 7; none for a word
/// with a digit (a size: 330ml is not 320ml, 500ml not 50ml).
fn distance(word: &str) -> u8 {
    if word.bytes().any(|b| b.is_ascii_digit()) {
        return 0;
    }
    match word.len() {
        0..=3 => 0,
        4..=6 => 1,
        _ => 2,
    }
}

impl Index {
    /// Indexes `items` (the catalog's order kept for ties) with `synonyms`.
    pub fn build(items: &[Item], synonyms: Synonyms) -> Result<Self, Error> {
        let mut schema = Schema::builder();
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer("words")
                .set_index_option(IndexRecordOption::WithFreqs),
        );
        let id = schema.add_u64_field("id", NumericOptions::default().set_fast());
        let name = schema.add_text_field("name", text.clone());
        let other = schema.add_text_field("other", text);
        let index = Tantivy::create_in_ram(schema.build());
        // The text is already in the index's words (`words`): split at the spaces only.
        index.tokenizers().register(
            "words",
            TextAnalyzer::builder(WhitespaceTokenizer::default()).build(),
        );
        // One thread: the products keep their order as documents.
        let mut writer = index.writer_with_num_threads(1, 50_000_000)?;
        for item in items {
            let mut doc = TantivyDocument::default();
            doc.add_u64(id, item.id.unsigned_abs());
            doc.add_text(name, words(&item.name).join(" "));
            doc.add_text(other, words(&item.words).join(" "));
            writer.add_document(doc)?;
        }
        writer.commit()?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(Self {
            reader,
            name,
            other,
            synonyms,
            all: items.iter().map(|i| i.id).collect(),
        })
    }

    /// The products that match `query`, best first, at most `limit`: those that match every
    /// word (each as typed, as one of its synonyms, or a few letters off; the last also as the
    /// beginning of a word), else those that match any. A query of words that narrow nothing
    /// finds every product; one without words finds none.
    pub fn search(&self, query: &str, limit: usize) -> Result<Vec<Hit>, Error> {
        let mut asked = words(query);
        asked.truncate(MAX_WORDS);
        if asked.is_empty() || limit == 0 {
            return Ok(vec![]);
        }
        let last = asked.len() - 1;
        let groups: Vec<Box<dyn Query>> = asked
            .iter()
            .enumerate()
            .filter_map(|(i, w)| {
                let w: String = w.chars().take(MAX_WORD).collect();
                self.group(&self.synonyms.alternatives(&w), i == last)
            })
            .collect();
        if groups.is_empty() {
            return Ok(self
                .all
                .iter()
                .take(limit)
                .map(|&id| Hit { id, score: 0.0 })
                .collect());
        }
        let every = BooleanQuery::new(
            groups
                .iter()
                .map(|g| (Occur::Must, g.box_clone()))
                .collect(),
        );
        let hits = self.run(&every, limit)?;
        if !hits.is_empty() || groups.len() == 1 {
            return Ok(hits);
        }
        let any = BooleanQuery::new(groups.into_iter().map(|g| (Occur::Should, g)).collect());
        self.run(&any, limit)
    }

    /// What matches one word of a query: any of its `alternatives`, in the name (counting most)
    /// or the other words, exactly or a few letters off, and when `typing` (the last word) as
    /// the beginning of a word.
    fn group(&self, alternatives: &[String], typing: bool) -> Option<Box<dyn Query>> {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for alt in alternatives {
            for (field, weight) in [(self.name, 3.0), (self.other, 1.0)] {
                let term = Term::from_field_text(field, alt);
                let exact = TermQuery::new(term.clone(), IndexRecordOption::WithFreqs);
                clauses.push((
                    Occur::Should,
                    Box::new(BoostQuery::new(Box::new(exact), weight)),
                ));
                let d = distance(alt);
                let near: Option<Box<dyn Query>> = if typing {
                    Some(Box::new(FuzzyTermQuery::new_prefix(term, d, true)))
                } else if d > 0 {
                    Some(Box::new(FuzzyTermQuery::new(term, d, true)))
                } else {
                    None
                };
                if let Some(near) = near {
                    clauses.push((Occur::Should, Box::new(BoostQuery::new(near, weight / 3.0))));
                }
            }
        }
        (!clauses.is_empty()).then(|| Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>)
    }

    fn run(&self, query: &dyn Query, limit: usize) -> Result<Vec<Hit>, Error> {
        let searcher = self.reader.searcher();
        let top = searcher.search(query, &TopDocs::with_limit(limit).order_by_score())?;
        let mut hits = Vec::with_capacity(top.len());
        for (
            score,
            DocAddress {
                segment_ord,
                doc_id,
            },
        ) in top
        {
            let ids = searcher
                .segment_reader(segment_ord)
                .fast_fields()
                .u64("id")?;
            if let Some(id) = ids.first(doc_id) {
                hits.push(Hit {
                    id: id as i64,
                    score,
                });
            }
        }
        Ok(hits)
    }
}

#[cfg(test)]
mod tests;
