//! serde's `Deserializer` over [`Scanner`]: the fast first try at reading a line into the wire shape.
//!
//! The wire structs derive `Deserialize` once and are read by this deserializer or, when it stops,
//! by serde_json; [`super::wire::Raw`] is the one place that tells them apart. Strings with escapes
//! and numbers that are not small integers are handed to serde_json token by token, so both paths
//! give the same values; a test and the fuzzer check that they agree line by line.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::scan::{Scanner, Stop, MAX_DEPTH};

/// The newtype name by which [`super::wire::Raw`] asks for a value's text instead of its value.
pub(crate) const RAW_TOKEN: &str = "$cctv::Raw";

/// Reads all of `text` as a `T`, or stops.
pub(crate) fn from_str<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T, Stop> {
    let mut de = Deserializer { scan: Scanner::new(text), depth: 0 };
    let value = T::deserialize(&mut de)?;
    de.scan.end()?;
    Ok(value)
}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

struct Deserializer<'de> {
    scan: Scanner<'de>,
    /// Containers open around the scanner's position.
    depth: u32,
}

impl<'de> Deserializer<'de> {
    /// Opens a container whose first byte is next, and closes it with `close` after `read`.
    fn container<T>(
        &mut self,
        close: u8,
        read: impl FnOnce(&mut Self) -> Result<T, Stop>,
    ) -> Result<T, Stop> {
        if self.depth >= MAX_DEPTH {
            return Err(Stop);
        }
        self.scan.skip_byte();
        self.depth += 1;
        let value = read(self)?;
        self.scan.eat(close)?;
        self.depth -= 1;
        Ok(value)
    }
}

/// serde_json reads this token (a string with escapes, or a number that is not a small
/// integer) exactly as it would inside the line.
fn by_serde_json<'de, V: Visitor<'de>>(token: &'de str, visitor: V) -> Result<V::Value, Stop> {
    de::Deserializer::deserialize_any(&mut serde_json::Deserializer::from_str(token), visitor)
        .map_err(|_| Stop)
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.scan.peek()? {
            b'"' => {
                let start = self.scan.pos();
                let token = self.scan.string()?;
                if token.escaped {
                    by_serde_json(self.scan.slice(start, self.scan.pos()), visitor)
                } else {
                    visitor.visit_borrowed_str(token.inside)
                }
            }
            b'{' => self.container(b'}', |de| visitor.visit_map(Entries { de, first: true })),
            b'[' => self.container(b']', |de| visitor.visit_seq(Entries { de, first: true })),
            b't' => self.scan.literal("true").and_then(|_| visitor.visit_bool(true)),
            b'f' => self.scan.literal("false").and_then(|_| visitor.visit_bool(false)),
            b'n' => self.scan.literal("null").and_then(|_| visitor.visit_unit()),
            _ => {
                let number = self.scan.number()?;
                // Up to 18 digits always fits a u64, which is how serde_json hands such a number over.
                if number.len() <= 18 && number.bytes().all(|b| b.is_ascii_digit()) {
                    visitor.visit_u64(number.parse().map_err(|_| Stop)?)
                } else {
                    by_serde_json(number, visitor)
                }
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        if self.scan.peek()? == b'n' {
            self.scan.literal("null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.scan.peek()? {
            b't' | b'f' => self.deserialize_any(visitor),
            _ => Err(Stop),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        if name != RAW_TOKEN {
            return visitor.visit_newtype_struct(self);
        }
        self.scan.peek()?;
        let start = self.scan.pos();
        self.scan.skip_value(self.depth)?;
        visitor.visit_borrowed_str(self.scan.slice(start, self.scan.pos()))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        // serde_json also reads a struct from an array, by position; that is left to it.
        match self.scan.peek()? {
            b'{' => self.deserialize_any(visitor),
            _ => Err(Stop),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        // Field names are matched as written; an escaped one is rare enough to leave to serde_json.
        let token = self.scan.string()?;
        if token.escaped {
            return Err(Stop);
        }
        visitor.visit_borrowed_str(token.inside)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        self.scan.skip_value(self.depth)?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct enum
    }
}

/// The entries of an object or the elements of an array, after its opening byte.
struct Entries<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    first: bool,
}

impl<'de> Entries<'_, 'de> {
    /// Whether another entry follows (taking the comma before it), or the container ends.
    fn has_next(&mut self, close: u8) -> Result<bool, Stop> {
        let next = self.de.scan.peek()?;
        if next == close {
            return Ok(false);
        }
        if !std::mem::take(&mut self.first) {
            self.de.scan.eat(b',')?;
        }
        Ok(true)
    }
}

impl<'de> MapAccess<'de> for Entries<'_, 'de> {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Stop> {
        if !self.has_next(b'}')? {
            return Ok(None);
        }
        if self.de.scan.peek()? != b'"' {
            return Err(Stop);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Stop> {
        self.de.scan.eat(b':')?;
        seed.deserialize(&mut *self.de)
    }
}

impl<'de> SeqAccess<'de> for Entries<'_, 'de> {
    type Error = Stop;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Stop> {
        if !self.has_next(b']')? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }
}
