//! The report layer both models share: a [`Table`] of formatted cells, rendered as
//! aligned text, as GitHub-flavoured Markdown (cells escaped so names stay text) or
//! as CSV cells (quoted, spreadsheet formulas defused), and the number formats of
//! figures and their differences.

use core::fmt::Write as _;
use serde::{Deserialize, Serialize};

/// A formatted table: column titles and rows of cells, ready to render.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Column titles.
    pub columns: Vec<String>,
    /// Rows of cells, one cell per column.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles and rows.
    pub fn new(columns: &[&str], rows: Vec<Vec<String>>) -> Self {
        Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows,
        }
    }
}

/// The table as plain text: columns padded to their widest cell, the first one
/// left-aligned (labels) and the others right-aligned (figures), two spaces apart.
/// Widths are display columns as the article counts them (a CJK character takes two,
/// [`crate::javafmt::display_width`]), so Chinese strategy names line up in a terminal.
pub fn text(t: &Table) -> String {
    use crate::javafmt::display_width;
    let width = |i: usize| {
        core::iter::once(&t.columns)
            .chain(&t.rows)
            .filter_map(|r| r.get(i))
            .map(|c| display_width(c))
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..t.columns.len()).map(width).collect();
    let mut out = String::new();
    for row in core::iter::once(&t.columns).chain(&t.rows) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let cell = cell.replace(char::is_control, " ");
            let gap = widths
                .get(i)
                .copied()
                .unwrap_or(0)
                .saturating_sub(display_width(&cell));
            if i == 0 {
                let _ = write!(line, "{cell}{:gap$}", "");
            } else {
                let _ = write!(line, "  {:gap$}{cell}", "");
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The table as GitHub-flavoured Markdown: the first column left-aligned, the others
/// right-aligned, every cell escaped by [`md_cell`].
pub fn markdown(t: &Table) -> String {
    let row = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| md_cell(c)).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut s = row(&t.columns);
    let align: Vec<&str> = (0..t.columns.len())
        .map(|i| if i == 0 { "---" } else { "---:" })
        .collect();
    let _ = writeln!(s, "| {} |", align.join(" | "));
    for r in &t.rows {
        s.push_str(&row(r));
    }
    s
}

/// Escapes a cell for a Markdown table: pipes, backslashes, markup and line breaks, so
/// a name pasted into a post stays text.
pub fn md_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '`' => out.push_str("\\`"),
            '*' | '_' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The table as CSV: a header row of the column titles, then one row per table row,
/// every cell through [`csv_field`].
pub fn csv(t: &Table) -> String {
    let mut s = String::new();
    for row in core::iter::once(&t.columns).chain(&t.rows) {
        let cells: Vec<String> = row.iter().map(|c| csv_field(c)).collect();
        let _ = writeln!(s, "{}", cells.join(","));
    }
    s
}

/// Quotes a CSV field (RFC 4180) and defuses spreadsheet formulas: a cell starting with
/// `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`.
pub fn csv_field(text: &str) -> String {
    let defused = match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_string(),
    };
    if defused.contains([',', '"', '\n', '\r']) || defused != text {
        format!("\"{}\"", defused.replace('"', "\"\""))
    } else {
        defused
    }
}

/// How a figure's number is written and how its difference is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A whole count.
    Count,
    /// A ratio 0..=1 written as a percentage (differences in percentage points).
    Percent,
    /// Per second.
    PerSec,
    /// Milliseconds.
    Ms,
    /// A multiplier ("2.50x").
    Times,
    /// Seconds, from a value in milliseconds.
    Seconds,
    /// A mean count, two decimals.
    Count2,
}

/// A number (non-negative for differences) in `unit`; `pp` writes percentages as
/// percentage points, as differences of ratios are.
fn number(unit: Unit, v: f64, pp: bool) -> String {
    match unit {
        Unit::Count => format!("{}", v.round() as i64),
        Unit::Percent if pp => format!("{:.2} pp", v * 100.0),
        Unit::Percent => format!("{:.2}%", v * 100.0),
        Unit::PerSec => format!("{v:.1}/s"),
        Unit::Ms => format!("{v:.1} ms"),
        Unit::Times => format!("{v:.2}x"),
        Unit::Seconds => format!("{:.1} s", v / 1000.0),
        Unit::Count2 => format!("{v:.2}"),
    }
}

/// `v` written in `unit`: `1234`, `99.50%`, `12.3/s`, `4.5 ms`, `2.50x`, `12.0 s`.
pub fn fmt(unit: Unit, v: f64) -> String {
    number(unit, v, false)
}

/// `+`, `−` or `±` for a difference or a change.
fn sign(d: f64) -> &'static str {
    if d > 0.0 {
        "+"
    } else if d < 0.0 {
        "−"
    } else {
        "±"
    }
}

/// A difference `d` in `unit`, always signed: `+12`, `−0.50 pp`, `±0.0 ms`.
pub fn fmt_delta(unit: Unit, d: f64) -> String {
    format!("{}{}", sign(d), number(unit, d.abs(), true))
}

/// The relative change from `a` to `b`: `+50.0%`, `−3.2%`, `±0.0%`, or `new` from zero.
pub fn fmt_change(a: f64, b: f64) -> String {
    if a != 0.0 {
        let p = (b - a) / a.abs() * 100.0;
        format!("{}{:.1}%", sign(p), p.abs())
    } else if b == 0.0 {
        "±0.0%".to_string()
    } else {
        "new".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_defuses() {
        assert_eq!(csv_field("S1"), "S1");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("-1"), "\"'-1\"");
    }

    #[test]
    fn csv_of_a_table_quotes_every_cell() {
        let t = Table::new(
            &["strategy", "cost"],
            vec![
                vec!["a,b".into(), "1.50".into()],
                vec!["=x".into(), "—".into()],
            ],
        );
        assert_eq!(csv(&t), "strategy,cost\n\"a,b\",1.50\n\"'=x\",—\n");
    }

    #[test]
    fn markdown_cells_stay_text() {
        assert_eq!(
            md_cell("<img src=x onerror=alert(1)>|"),
            "&lt;img src=x onerror=alert(1)&gt;\\|"
        );
    }

    #[test]
    fn text_pads_chinese_by_display_columns() {
        let t = Table::new(
            &["策略", "n"],
            vec![
                vec!["S1 固定重试3次".into(), "1".into()],
                vec!["S10".into(), "200".into()],
            ],
        );
        // "S1 固定重试3次" is 3 + 4×2 + 1 + 2 = 14 columns wide: every line is 14 + 2 + 3.
        assert_eq!(
            text(&t),
            "策略              n\nS1 固定重试3次    1\nS10             200\n"
        );
    }

    #[test]
    fn text_aligns_labels_left_and_figures_right() {
        let t = Table::new(
            &["metric", "value"],
            vec![
                vec!["requests".into(), "12".into()],
                vec!["p99".into(), "1234.5 ms".into()],
            ],
        );
        assert_eq!(
            text(&t),
            "metric        value\nrequests         12\np99       1234.5 ms\n"
        );
        assert_eq!(
            markdown(&t),
            "| metric | value |\n| --- | ---: |\n| requests | 12 |\n| p99 | 1234.5 ms |\n"
        );
    }

    #[test]
    fn numbers_and_differences() {
        assert_eq!(fmt(Unit::Percent, 0.995), "99.50%");
        assert_eq!(fmt_delta(Unit::Percent, -0.005), "−0.50 pp");
        assert_eq!(fmt_delta(Unit::Count, 0.0), "±0");
        assert_eq!(fmt(Unit::Seconds, 12_000.0), "12.0 s");
        assert_eq!(fmt_change(2.0, 3.0), "+50.0%");
        assert_eq!(fmt_change(0.0, 3.0), "new");
    }
}
