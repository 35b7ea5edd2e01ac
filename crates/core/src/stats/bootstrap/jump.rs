//! Jumping xoshiro256's stream ahead by any number of outputs, so that parts of one stream can
//! be drawn in parallel and still give exactly the sequential draws.
//!
//! xoshiro256's state transition T is linear over GF(2), so Tᵈ is a polynomial in T of degree
//! below 256: x^d mod P(x), with P the characteristic polynomial of T. P is found once by
//! Berlekamp–Massey from 512 bits of one state bit's sequence (its minimal polynomial, which is
//! P because P is primitive: the generator has full period 2²⁵⁶ − 1). Then
//! Tᵈ·s = Σ aᵢ·Tⁱ·s is 256 steps of the generator, the way the authors' own `jump()` works.

use std::sync::OnceLock;

use super::rng::Xoshiro256;

/// A polynomial over GF(2) of degree at most 256: bit i of word i / 64 is the coefficient of xⁱ.
type Poly = [u64; 5];

/// The characteristic polynomial of xoshiro256's transition, computed once.
fn characteristic() -> &'static Poly {
    static POLY: OnceLock<Poly> = OnceLock::new();
    POLY.get_or_init(|| {
        let mut rng = Xoshiro256::from_state([1, 2, 3, 4]);
        let bits: Vec<u8> = (0..512)
            .map(|_| {
                let bit = (rng.state()[0] & 1) as u8;
                rng.next_u64();
                bit
            })
            .collect();
        berlekamp_massey(&bits)
    })
}

/// The reciprocal of the shortest connection polynomial generating `bits` (Berlekamp–Massey over
/// GF(2)): the characteristic polynomial P with P(T) = 0, of degree L ≤ 256.
fn berlekamp_massey(bits: &[u8]) -> Poly {
    // Connection polynomials c(x) = 1 + c₁x + … as coefficient vectors.
    let mut c = vec![0u8; bits.len() + 1];
    let mut b = vec![0u8; bits.len() + 1];
    c[0] = 1;
    b[0] = 1;
    let (mut length, mut shift) = (0usize, 1usize);
    for n in 0..bits.len() {
        let mut discrepancy = bits[n];
        for i in 1..=length {
            discrepancy ^= c[i] & bits[n - i];
        }
        if discrepancy == 0 {
            shift += 1;
            continue;
        }
        let previous = c.clone();
        for i in 0..b.len() - shift {
            c[i + shift] ^= b[i];
        }
        if 2 * length <= n {
            length = n + 1 - length;
            b = previous;
            shift = 1;
        } else {
            shift += 1;
        }
    }
    // P(x) = x^L · c(1/x): coefficient of x^(L − i) is cᵢ.
    let mut poly = [0u64; 5];
    for (i, &coefficient) in c.iter().enumerate().take(length + 1) {
        if coefficient == 1 {
            let power = length - i;
            poly[power / 64] |= 1 << (power % 64);
        }
    }
    poly
}

/// Degree of a non-zero polynomial.
fn degree(p: &Poly) -> usize {
    (0..5)
        .rev()
        .find(|&w| p[w] != 0)
        .map_or(0, |w| w * 64 + 63 - p[w].leading_zeros() as usize)
}

fn bit(p: &Poly, i: usize) -> bool {
    p[i / 64] >> (i % 64) & 1 == 1
}

/// `p · x mod modulus`, for deg p < deg modulus.
fn times_x(p: &mut Poly, modulus: &Poly, top: usize) {
    let mut carry = 0;
    for word in p.iter_mut() {
        let next = *word >> 63;
        *word = (*word << 1) | carry;
        carry = next;
    }
    if bit(p, top) {
        for (word, m) in p.iter_mut().zip(modulus) {
            *word ^= m;
        }
    }
}

/// `a · b mod modulus` (Horner over b's bits, high to low).
fn multiply(a: &Poly, b: &Poly, modulus: &Poly, top: usize) -> Poly {
    let mut result = [0u64; 5];
    for i in (0..top).rev() {
        times_x(&mut result, modulus, top);
        if bit(b, i) {
            for (word, x) in result.iter_mut().zip(a) {
                *word ^= x;
            }
        }
    }
    result
}

/// `x^steps mod modulus`.
fn power_of_x(steps: u128, modulus: &Poly) -> Poly {
    let top = degree(modulus);
    let mut result = [0u64; 5];
    result[0] = 1;
    let mut square = [0u64; 5];
    square[0] = 1;
    times_x(&mut square, modulus, top);
    let mut remaining = steps;
    while remaining > 0 {
        if remaining & 1 == 1 {
            result = multiply(&result, &square, modulus, top);
        }
        square = multiply(&square, &square, modulus, top);
        remaining >>= 1;
    }
    result
}

impl Xoshiro256 {
    /// The generator as if [`next_u64`](Self::next_u64) had been called `steps` times.
    pub fn jumped(&self, steps: u128) -> Self {
        let modulus = characteristic();
        let coefficients = power_of_x(steps, modulus);
        let mut walker = self.clone();
        let mut state = [0u64; 4];
        for i in 0..degree(modulus) {
            if bit(&coefficients, i) {
                for (word, s) in state.iter_mut().zip(walker.state()) {
                    *word ^= s;
                }
            }
            walker.next_u64();
        }
        Xoshiro256::from_state(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_characteristic_polynomial_has_degree_256() {
        let p = characteristic();
        assert_eq!(degree(p), 256);
        assert!(bit(p, 0), "x does not divide a primitive polynomial");
    }

    #[test]
    fn a_jump_lands_where_stepping_does() {
        let start = Xoshiro256::from_seed(20_261_014);
        for steps in [0u128, 1, 2, 3, 63, 64, 255, 256, 257, 1_000, 4_097] {
            let mut stepped = start.clone();
            for _ in 0..steps {
                stepped.next_u64();
            }
            assert_eq!(start.jumped(steps), stepped, "{steps} steps");
        }
    }

    #[test]
    fn jumps_compose() {
        let start = Xoshiro256::from_seed(7);
        let (a, b) = (123_456_789_012u128, 98_765_432_101u128);
        assert_eq!(start.jumped(a).jumped(b), start.jumped(a + b));
        assert_eq!(start.jumped(a + b).next_u64(), {
            let mut r = start.jumped(a + b);
            r.next_u64()
        });
    }
}
