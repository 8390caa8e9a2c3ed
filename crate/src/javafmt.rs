//! Text formatting the way the article's Java program printed it.
//!
//! Java's `String.format("%.2f", x)` starts from the shortest decimal string that
//! round-trips the double (what `Double.toString` prints) and rounds that string half
//! up. Rust's `format!("{:.2}", x)` rounds the exact binary value, ties to even, so
//! 0.145 prints 0.15 in Java and 0.14 in Rust. Rust's `{}` Display already produces
//! the shortest round-trip digits, so we round those as decimal text.

/// `String.format("%.{decimals}f", x)` as JDK 17 prints it (locale-neutral, `.` separator).
pub fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    // Java prints the sign of any negative double, -0.0 included (Double.compare < 0).
    let negative = x.is_sign_negative();
    // Shortest round-trip digits, never in exponent form for `{}` on f64.
    let shortest = format!("{}", x.abs());
    let (int_part, frac_part) = match shortest.split_once('.') {
        Some((i, f)) => (i.to_string(), f.to_string()),
        None => (shortest.clone(), String::new()),
    };
    let mut digits: Vec<u8> = int_part
        .bytes()
        .chain(frac_part.bytes())
        .map(|b| b - b'0')
        .collect();
    let int_len = int_part.len();
    let keep = int_len + decimals;
    if digits.len() > keep {
        let round_up = digits[keep] >= 5;
        digits.truncate(keep);
        if round_up {
            // Propagate the carry leftwards; a carry out of the top adds a digit.
            let mut i = keep;
            loop {
                if i == 0 {
                    digits.insert(0, 1);
                    break;
                }
                i -= 1;
                if digits[i] == 9 {
                    digits[i] = 0;
                } else {
                    digits[i] += 1;
                    break;
                }
            }
        }
    } else {
        digits.resize(keep, 0);
    }
    let split = digits.len() - decimals;
    let mut out = String::with_capacity(digits.len() + 2);
    if negative {
        out.push('-');
    }
    for d in &digits[..split] {
        out.push((b'0' + d) as char);
    }
    if split == 0 {
        out.push('0');
    }
    if decimals > 0 {
        out.push('.');
        for d in &digits[split..] {
            out.push((b'0' + d) as char);
        }
    }
    out
}

/// Display width of `s` as the article's `Support.pad` counts it: every UTF-16 unit
/// above U+2E7F (CJK and friends) takes two columns, everything else one.
pub fn display_width(s: &str) -> usize {
    let mut buf = [0u16; 2];
    s.chars()
        .flat_map(|c| c.encode_utf16(&mut buf).to_vec())
        .map(|u| if u > 0x2E7F { 2 } else { 1 })
        .sum()
}

/// `Support.pad(s, w)`: `s` followed by spaces up to display width `w` (never truncates).
pub fn pad(s: &str, width: usize) -> String {
    let w = display_width(s);
    let mut out = String::with_capacity(s.len() + width.saturating_sub(w));
    out.push_str(s);
    for _ in w..width {
        out.push(' ');
    }
    out
}

/// Java's `List<Integer>.toString()`: `[]`, `[21]`, `[20, 25]`.
pub fn java_list(xs: &[u32]) -> String {
    let inner: Vec<String> = xs.iter().map(u32::to_string).collect();
    format!("[{}]", inner.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_rounds_the_shortest_decimal_half_up() {
        assert_eq!(fixed(0.145, 2), "0.15");
        assert_eq!(fixed(1.005, 2), "1.01");
        assert_eq!(fixed(0.125, 2), "0.13");
        assert_eq!(fixed(90.85, 1), "90.9");
        assert_eq!(fixed(99.96, 1), "100.0");
        assert_eq!(fixed(9.999, 2), "10.00");
        assert_eq!(fixed(0.0, 1), "0.0");
        assert_eq!(fixed(-0.04, 1), "-0.0");
        assert_eq!(fixed(-1.25, 1), "-1.3");
        assert_eq!(fixed(2.0, 0), "2");
    }

    #[test]
    fn widths_count_cjk_as_two() {
        assert_eq!(display_width("S1 固定重试3次"), 3 + 4 * 2 + 1 + 2);
        assert_eq!(pad("策略", 6), "策略  ");
        assert_eq!(pad("toolong", 3), "toolong");
        assert_eq!(java_list(&[20, 25]), "[20, 25]");
        assert_eq!(java_list(&[]), "[]");
    }
}
