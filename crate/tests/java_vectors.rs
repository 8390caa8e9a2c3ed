//! `JavaRandom` and `javafmt::fixed` against vectors printed by a real JDK
//! (`tests/jdk/GenVectors.java`, output in `tests/data/jdk_vectors.txt`).

use retrystorm::javafmt::fixed;
use retrystorm::rng::JavaRandom;

const VECTORS: &str = include_str!("data/jdk_vectors.txt");

#[test]
fn random_streams_match_the_jdk() {
    let mut checked = 0;
    for line in VECTORS.lines().filter(|l| l.starts_with("random ")) {
        let mut parts = line.split(' ').skip(1);
        let seed: i64 = parts.next().unwrap().parse().unwrap();
        let method = parts.next().unwrap();
        let expected: Vec<&str> = parts.collect();
        let mut r = JavaRandom::new(seed);
        let got: Vec<String> = match method {
            "nextDouble" => (0..expected.len())
                .map(|_| r.next_double().to_bits().to_string())
                .collect(),
            "nextInt" => (0..expected.len())
                .map(|_| r.next_int().to_string())
                .collect(),
            "nextLong" => (0..expected.len())
                .map(|_| r.next_long().to_string())
                .collect(),
            "nextBytes" => {
                let mut buf = vec![0u8; expected.len()];
                rand_core::Rng::fill_bytes(&mut r, &mut buf);
                buf.iter().map(u8::to_string).collect()
            }
            m if m.starts_with("nextInt") => {
                let bound: i32 = m["nextInt".len()..].parse().unwrap();
                (0..expected.len())
                    .map(|_| r.next_int_bounded(bound).unwrap().to_string())
                    .collect()
            }
            m => panic!("unknown method {m}"),
        };
        // nextDouble is stored as raw bits (a signed long in Java).
        let expected: Vec<String> = if method == "nextDouble" {
            expected
                .iter()
                .map(|e| (e.parse::<i64>().unwrap() as u64).to_string())
                .collect()
        } else {
            expected.iter().map(|e| e.to_string()).collect()
        };
        assert_eq!(got, expected, "seed {seed} {method}");
        checked += 1;
    }
    assert!(checked >= 15 * 12, "only {checked} vector lines");
}

#[test]
fn string_format_matches_the_jdk() {
    let mut checked = 0;
    for line in VECTORS.lines().filter(|l| l.starts_with("format ")) {
        let mut parts = line.splitn(4, ' ').skip(1);
        let pattern = parts.next().unwrap();
        let bits = u64::from_str_radix(parts.next().unwrap(), 16).unwrap();
        let expected = parts.next().unwrap();
        let decimals: usize = pattern[2..3].parse().unwrap();
        let x = f64::from_bits(bits);
        assert_eq!(
            fixed(x, decimals),
            expected,
            "String.format(\"{pattern}\", {x:?})"
        );
        checked += 1;
    }
    assert!(checked > 30_000);
}
