//! Logarithms, exponentials and powers computed by the same code on every target.
//!
//! `f64::ln`, `f64::exp` and the like call the platform's math library: the C library natively,
//! a Rust port of musl's libm on wasm32. Their results can differ in the last bit, so a report
//! computed in the browser would differ from the CLI's in the 16th digit. Every transcendental
//! function the statistics use goes through these wrappers of the `libm` crate instead, so the
//! viewer's Report JSON equals the CLI's bit for bit.

/// Natural logarithm.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// `ln(1 + x)`, accurate for small `x`.
#[inline]
pub fn ln_1p(x: f64) -> f64 {
    libm::log1p(x)
}

/// `eˣ`.
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// Hyperbolic sine.
#[inline]
pub fn sinh(x: f64) -> f64 {
    libm::sinh(x)
}

/// Hyperbolic cosine.
#[inline]
pub fn cosh(x: f64) -> f64 {
    libm::cosh(x)
}

/// Tangent.
#[inline]
pub fn tan(x: f64) -> f64 {
    libm::tan(x)
}

/// `xʸ`.
#[inline]
pub fn powf(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// `xⁿ` for an integer `n`: `x·x` for squares, else [`powf`].
#[inline]
pub fn powi(x: f64, n: i32) -> f64 {
    match n {
        2 => x * x,
        _ => libm::pow(x, f64::from(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agree_with_std_to_the_last_bits() {
        for &x in &[1e-300, 1e-9, 0.3, 0.5, 1.0, 2.5, 10.0, 700.0] {
            let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1e-300);
            assert!(close(ln(x), x.ln()), "ln {x}");
            assert!(close(ln_1p(x), x.ln_1p()), "ln_1p {x}");
            assert!(close(exp(-x), (-x).exp()), "exp {x}");
            assert!(close(powf(x, 1.5), x.powf(1.5)), "powf {x}");
            assert!(close(powi(x, 3), x.powi(3)), "powi {x}");
        }
        assert_eq!(powi(3.0, 2), 9.0);
        assert!((sinh(0.7) - 0.7f64.sinh()).abs() < 1e-15);
        assert!((cosh(0.7) - 0.7f64.cosh()).abs() < 1e-15);
        assert!((tan(0.7) - 0.7f64.tan()).abs() < 1e-15);
    }
}
