//! Durations as each format writes them, in milliseconds: Spring Boot's (`500ms`, `10s`,
//! ISO-8601 `PT0.5S`, bare milliseconds) and protobuf JSON's (`"0.025s"`, Envoy and
//! gRPC). Each returns `None` where its library would refuse the text.

/// Spring's `DurationStyle`: a number and one unit (ns, us, ms, s, m, h, d), ISO-8601
/// (`PT0.5S`), or a bare number of milliseconds.
pub fn spring_ms(text: &str) -> Option<f64> {
    let t = text.trim();
    if let Ok(ms) = t.parse::<f64>() {
        return (ms.is_finite() && ms >= 0.0).then_some(ms);
    }
    let lower = t.to_ascii_lowercase();
    if let Some(iso) = lower.strip_prefix("pt") {
        return iso_ms(iso);
    }
    let split = lower.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))?;
    let (num, unit) = lower.split_at(split);
    let v: f64 = num.parse().ok()?;
    let scale = unit_ms(unit.trim())?;
    (v.is_finite() && v >= 0.0).then_some(v * scale)
}

/// Milliseconds in one of a duration unit's usual names.
fn unit_ms(unit: &str) -> Option<f64> {
    Some(match unit {
        "ns" => 1e-6,
        "us" | "µs" => 1e-3,
        "ms" => 1.0,
        "s" => 1000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        "d" => 86_400_000.0,
        _ => return None,
    })
}

/// The time part of an ISO-8601 duration after `PT` (`1h2m0.5s`), in ms.
fn iso_ms(iso: &str) -> Option<f64> {
    let mut total = 0.0;
    let mut num = String::new();
    for c in iso.chars() {
        match c {
            '0'..='9' | '.' => num.push(c),
            'h' | 'm' | 's' => {
                let v: f64 = num.parse().ok()?;
                num.clear();
                total += v * match c {
                    'h' => 3_600_000.0,
                    'm' => 60_000.0,
                    _ => 1000.0,
                };
            }
            _ => return None,
        }
    }
    (num.is_empty() && total.is_finite()).then_some(total)
}

/// Protobuf JSON's `Duration`: decimal seconds and an `s` (`"0.025s"`), at least 0.
pub fn proto_ms(text: &str) -> Option<f64> {
    let secs: f64 = text.trim().strip_suffix('s')?.parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then_some(secs * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_styles_spring_binds() {
        assert_eq!(proto_ms("0.025s"), Some(25.0));
        assert_eq!(proto_ms("25ms"), None);
        assert_eq!(spring_ms("500ms"), Some(500.0));
        assert_eq!(spring_ms("10s"), Some(10_000.0));
        assert_eq!(spring_ms("2m"), Some(120_000.0));
        assert_eq!(spring_ms("PT0.5S"), Some(500.0));
        assert_eq!(spring_ms("PT1M30S"), Some(90_000.0));
        assert_eq!(spring_ms("250"), Some(250.0));
        assert_eq!(spring_ms("ten seconds"), None);
        assert_eq!(spring_ms("5 fortnights"), None);
    }
}
