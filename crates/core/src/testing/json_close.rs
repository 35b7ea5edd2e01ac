//! Compares two JSON documents: identical structure and strings, numbers equal to a relative
//! tolerance (native and wasm32 may differ in the last bit of a transcendental function, and the
//! browser's report may be compared with the CLI's to a tolerance). Used by the core's golden
//! report test, the viewer's browser parity test and the e2e report test.

use serde_json::Value;

/// `Ok` when `a` and `b` agree: the same structure, keys and strings, and numbers `x`, `y` with
/// `|x − y| <= tolerance × max(|x|, |y|, 1)` (a tolerance of 0 asks for equal numbers).
/// Otherwise the JSON path of the first difference (`$.candidates[0].primary: 0.5 vs 0.6`).
pub fn json_close(a: &Value, b: &Value, tolerance: f64) -> Result<(), String> {
    compare(a, b, tolerance, "$")
}

fn compare(a: &Value, b: &Value, tolerance: f64, path: &str) -> Result<(), String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            if x == y || (x - y).abs() <= tolerance * x.abs().max(y.abs()).max(1.0) {
                Ok(())
            } else {
                Err(format!("{path}: {x} vs {y}"))
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Err(format!("{path}: {} vs {} items", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .try_for_each(|(i, (x, y))| compare(x, y, tolerance, &format!("{path}[{i}]")))
        }
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() || x.keys().any(|k| !y.contains_key(k)) {
                return Err(format!("{path}: different keys"));
            }
            x.iter()
                .try_for_each(|(k, v)| compare(v, &y[k], tolerance, &format!("{path}.{k}")))
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{path}: {a} vs {b}")),
    }
}
