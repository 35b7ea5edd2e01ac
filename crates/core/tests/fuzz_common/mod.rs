//! Shared strategies of the fuzz harnesses (`fuzz_*.rs`): real fixtures mutated structurally
//! (values swapped for other JSON types, members removed or added, numbers as NaN-ish text or
//! out of range, deep nesting, unknown enum names) and then byte by byte (cut, overwritten,
//! inserted, deleted). Proptest runs them: 256 cases per property by default, `PROPTEST_CASES`
//! for a longer run; CI draws them from a fixed seed (`PROPTEST_RNG_SEED`, `scripts/test.sh`)
//! (README.md, "Fuzzing").
#![allow(clippy::unwrap_used, dead_code)]

use proptest::prelude::*;
use serde_json::{Map, Value};

/// The bytes of a fixture of `tests/fixtures/api/`.
pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/api/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// A fixture as a JSON value.
pub fn fixture_value(name: &str) -> Value {
    serde_json::from_slice(&fixture(name)).unwrap()
}

/// Number-like text that JSON does not allow or that no Rust number holds, and odd spellings.
pub const RAW_NUMBERS: &[&str] = &[
    "NaN",
    "-NaN",
    "Infinity",
    "-Infinity",
    "inf",
    "1e400",
    "-1e400",
    "1e-400",
    "18446744073709551616",
    "-9223372036854775809",
    "340282366920938463463374607431768211456",
    "1.7976931348623157e308",
    "-0",
    "-0.0",
    "01",
    "1.",
    ".5",
    "+1",
    "0x10",
    "1e",
    "4294967296",
    "-1",
    "2147483648",
];

/// Strings that look like values of the contract's enums, and ones that are not.
pub const ENUM_LIKE: &[&str] = &[
    "completed",
    "running",
    "ENV_DONE",
    "ERROR",
    "TRUNCATION",
    "CANCELLED",
    "eval",
    "text",
    "image",
    "zzz_unknown",
    "",
    "COMPLETED",
    "NaN",
    "null",
    "true",
    "0",
    "\u{202e}lortnoc",
    "<script>alert(1)</script>",
    "a\u{0}b",
];

/// A JSON scalar or empty container, for replacing a value.
pub fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop_oneof![
            Just(0.0),
            Just(1.0),
            Just(-1.0),
            Just(0.5),
            Just(f64::MAX),
            Just(f64::MIN_POSITIVE),
            -1e6f64..1e6
        ]
        .prop_map(Value::from),
        proptest::sample::select(ENUM_LIKE).prop_map(Value::from),
        ".{0,24}".prop_map(Value::from),
        Just(Value::Array(Vec::new())),
        Just(Value::Object(Map::new())),
    ]
}

/// One structural change at one node of a document.
#[derive(Debug, Clone)]
pub enum Op {
    /// The value becomes another one (often of another JSON type).
    Replace(Value),
    /// The member (or array element) goes.
    Remove,
    /// An unknown member is added to an object (or the value is replaced if it is not one).
    AddMember(String, Value),
    /// A number becomes its text, a string a number, anything else `"NaN"`.
    Stringify,
    /// The value becomes raw text that is not a JSON value or not a representable number.
    Raw(&'static str),
    /// The value is wrapped in this many arrays (or objects, `{"x": …}`).
    Nest(usize, bool),
    /// An array's first element is repeated this many times.
    Repeat(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => leaf().prop_map(Op::Replace),
        3 => Just(Op::Remove),
        2 => ("[a-z_]{1,12}", leaf()).prop_map(|(key, value)| Op::AddMember(key, value)),
        2 => Just(Op::Stringify),
        2 => proptest::sample::select(RAW_NUMBERS).prop_map(Op::Raw),
        1 => (1usize..160, any::<bool>()).prop_map(|(depth, objects)| Op::Nest(depth, objects)),
        1 => (2usize..64).prop_map(Op::Repeat),
    ]
}

/// JSON pointers of every node of `value`, the document first.
pub fn pointers(value: &Value) -> Vec<String> {
    fn walk(value: &Value, at: String, out: &mut Vec<String>) {
        out.push(at.clone());
        match value {
            Value::Object(map) => {
                for (key, member) in map {
                    let escaped = key.replace('~', "~0").replace('/', "~1");
                    walk(member, format!("{at}/{escaped}"), out);
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    walk(item, format!("{at}/{index}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, String::new(), &mut out);
    out
}

/// A document after structural changes, with the raw texts [`Op::Raw`] put in it.
#[derive(Debug, Clone)]
pub struct Mutated {
    /// The changed document; each raw text is a `"@@rawN@@"` placeholder string in it.
    pub value: Value,
    /// The raw texts, by placeholder number.
    pub raws: Vec<&'static str>,
}

impl Mutated {
    /// Writes a part of the document (compactly or pretty), raw texts spliced in.
    pub fn write(&self, part: &Value, pretty: bool) -> Vec<u8> {
        let mut text = if pretty {
            serde_json::to_string_pretty(part).unwrap()
        } else {
            serde_json::to_string(part).unwrap()
        };
        for (index, raw) in self.raws.iter().enumerate() {
            text = text.replace(&format!("\"@@raw{index}@@\""), raw);
        }
        text.into_bytes()
    }
}

/// Applies `ops`, each at the node its selector picks among the current nodes.
pub fn mutate(mut doc: Value, ops: &[(usize, Op)]) -> Mutated {
    let mut raws: Vec<&'static str> = Vec::new();
    for (selector, op) in ops {
        let nodes = pointers(&doc);
        let pointer = nodes[selector % nodes.len()].clone();
        apply_one(&mut doc, &pointer, op, &mut raws);
    }
    Mutated { value: doc, raws }
}

/// Applies `ops` and writes the document compactly or pretty.
pub fn apply(doc: Value, ops: &[(usize, Op)], pretty: bool) -> Vec<u8> {
    let mutated = mutate(doc, ops);
    mutated.write(&mutated.value, pretty)
}

fn apply_one(doc: &mut Value, pointer: &str, op: &Op, raws: &mut Vec<&'static str>) {
    if let Op::Remove = op {
        if let Some((parent, last)) = pointer.rsplit_once('/') {
            let key = last.replace("~1", "/").replace("~0", "~");
            match doc.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.remove(&key);
                }
                Some(Value::Array(items)) => {
                    if let Ok(index) = key.parse::<usize>() {
                        if index < items.len() {
                            items.remove(index);
                        }
                    }
                }
                _ => {}
            }
        }
        return;
    }
    let Some(node) = doc.pointer_mut(pointer) else {
        return;
    };
    match op {
        Op::Remove => {}
        Op::Replace(value) => *node = value.clone(),
        Op::AddMember(key, value) => match node {
            Value::Object(map) => {
                map.insert(key.clone(), value.clone());
            }
            other => *other = value.clone(),
        },
        Op::Stringify => {
            *node = match node {
                Value::Number(number) => Value::String(number.to_string()),
                Value::String(text) => Value::from(text.len() as u64),
                _ => Value::from("NaN"),
            }
        }
        Op::Raw(raw) => {
            *node = Value::String(format!("@@raw{}@@", raws.len()));
            raws.push(raw);
        }
        Op::Nest(depth, objects) => {
            let mut value = node.take();
            for _ in 0..*depth {
                value = if *objects {
                    serde_json::json!({ "x": value })
                } else {
                    Value::Array(vec![value])
                };
            }
            *node = value;
        }
        Op::Repeat(times) => {
            if let Value::Array(items) = node {
                if let Some(first) = items.first().cloned() {
                    items.extend(std::iter::repeat_n(first, *times));
                }
            }
        }
    }
}

/// Structural changes: up to `max` of them, each with a node selector.
pub fn ops(max: usize) -> impl Strategy<Value = Vec<(usize, Op)>> {
    proptest::collection::vec((any::<usize>(), op()), 0..=max)
}

/// One byte-level change of a text.
#[derive(Debug, Clone)]
pub enum ByteOp {
    /// Keep only the part before this fraction (in thousandths) of the length.
    Cut(u16),
    /// Overwrite the byte at this fraction with this byte.
    Set(u16, u8),
    /// Insert this byte at this fraction.
    Insert(u16, u8),
    /// Delete up to this many bytes from this fraction.
    Delete(u16, u8),
}

fn byte_op() -> impl Strategy<Value = ByteOp> {
    let interesting = prop_oneof![
        proptest::sample::select(b"{}[],:\"\\ \n\r\t0-.eE".to_vec()),
        any::<u8>(),
    ];
    prop_oneof![
        (0u16..1000).prop_map(ByteOp::Cut),
        (0u16..1000, interesting.clone()).prop_map(|(at, byte)| ByteOp::Set(at, byte)),
        (0u16..1000, interesting).prop_map(|(at, byte)| ByteOp::Insert(at, byte)),
        (0u16..1000, 1u8..32).prop_map(|(at, len)| ByteOp::Delete(at, len)),
    ]
}

/// Byte-level changes, up to `max` of them.
pub fn byte_ops(max: usize) -> impl Strategy<Value = Vec<ByteOp>> {
    proptest::collection::vec(byte_op(), 0..=max)
}

/// Applies byte-level changes to `bytes`.
pub fn apply_bytes(mut bytes: Vec<u8>, ops: &[ByteOp]) -> Vec<u8> {
    let at = |fraction: u16, len: usize| len * usize::from(fraction) / 1000;
    for op in ops {
        let len = bytes.len();
        match *op {
            ByteOp::Cut(fraction) => bytes.truncate(at(fraction, len)),
            ByteOp::Set(fraction, byte) => {
                if len > 0 {
                    bytes[at(fraction, len).min(len - 1)] = byte;
                }
            }
            ByteOp::Insert(fraction, byte) => bytes.insert(at(fraction, len), byte),
            ByteOp::Delete(fraction, count) => {
                let start = at(fraction, len);
                let end = (start + usize::from(count)).min(len);
                bytes.drain(start..end);
            }
        }
    }
    bytes
}

/// Whether a decode error's path (`items[3].reward`, `.` for the document) names a node of
/// `doc`. Keys are written as they are (`[` and `.` in a key are not escaped), either decoded or
/// as their JSON text, so every way of reading the path is tried.
pub fn resolves(doc: &Value, path: &str) -> bool {
    path == "." || follows(doc, path, true)
}

fn follows(node: &Value, rest: &str, first: bool) -> bool {
    if rest.is_empty() {
        return true;
    }
    if let Some(index_and_rest) = rest.strip_prefix('[') {
        if let (Value::Array(items), Some((index, after))) = (node, index_and_rest.split_once(']'))
        {
            if let Some(item) = index.parse::<usize>().ok().and_then(|i| items.get(i)) {
                if follows(item, after, false) {
                    return true;
                }
            }
        }
    }
    let keyed = if first {
        Some(rest)
    } else {
        rest.strip_prefix('.')
    };
    let (Some(keyed), Value::Object(map)) = (keyed, node) else {
        return false;
    };
    map.iter().any(|(key, member)| {
        let written = serde_json::to_string(key).unwrap();
        [key.as_str(), &written[1..written.len() - 1]]
            .iter()
            .any(|form| {
                keyed.strip_prefix(form).is_some_and(|after| {
                    (after.is_empty() || after.starts_with(['.', '[']))
                        && follows(member, after, false)
                })
            })
    })
}

/// Whether a JSON text repeats a key inside one object (or is not JSON). A value read into
/// `serde_json::Value` keeps only the last of repeated keys, so paths into such a document
/// cannot be checked against it.
pub fn has_repeated_keys(bytes: &[u8]) -> bool {
    use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};

    struct Unique;
    impl<'de> serde::de::DeserializeSeed<'de> for Unique {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(Unique)
        }
    }
    impl<'de> Visitor<'de> for Unique {
        type Value = ();
        fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str("JSON without repeated keys")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Unique)?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut keys = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !keys.insert(key) {
                    return Err(serde::de::Error::custom("repeated key"));
                }
                map.next_value_seed(Unique)?;
            }
            Ok(())
        }
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    serde::de::DeserializeSeed::deserialize(Unique, &mut deserializer)
        .and_then(|()| deserializer.end())
        .is_err()
}
