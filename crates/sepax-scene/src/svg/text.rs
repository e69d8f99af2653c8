//! Text for the pictures: XML escaping, truncation and number formatting. Nothing here ever
//! prints `NaN` or `inf`.

/// `s` with the XML special characters escaped, fit for text and attribute values. Characters
/// that XML 1.0 forbids even when escaped (most C0 controls, U+FFFE, U+FFFF) become U+FFFD.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// At most `max` characters of `s`, the last one an ellipsis when cut.
pub(super) fn truncate(s: &str, max: usize) -> String {
    let max = max.max(1);
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(max - 1).collect();
        t.push('\u{2026}');
        t
    }
}

fn trim_zeros(mut s: String) -> String {
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".to_owned();
    }
    s
}

/// A screen coordinate in px with one decimal (non-finite values, which the layout never
/// produces for finite scenes, are written as 0 so that the document stays valid).
pub(super) fn px(x: f64) -> String {
    if !x.is_finite() {
        return "0".to_owned();
    }
    // Far beyond any canvas: clamp so that the text stays short.
    let x = x.clamp(-1e7, 1e7);
    trim_zeros(format!("{x:.1}"))
}

/// A world value with four significant digits, for labels (`n/a` when not finite).
pub(super) fn value(x: f64) -> String {
    if !x.is_finite() {
        return "n/a".to_owned();
    }
    if x == 0.0 {
        return "0".to_owned();
    }
    let a = x.abs();
    if (1e-3..1e6).contains(&a) {
        let decimals = (3 - a.log10().floor() as i32).clamp(0, 6) as usize;
        trim_zeros(format!("{x:.decimals$}"))
    } else {
        // `1.500e-7` -> `1.5e-7`, `2.000e30` -> `2e30`.
        let s = format!("{x:.3e}");
        match s.split_once('e') {
            Some((mantissa, exp)) => format!("{}e{exp}", trim_zeros(mantissa.to_owned())),
            None => s,
        }
    }
}

/// A tick value on a grid of spacing `step` (enough decimals to tell neighbours apart).
pub(super) fn tick(x: f64, step: f64) -> String {
    if !(x.is_finite() && step.is_finite() && step > 0.0) {
        return "n/a".to_owned();
    }
    if x.abs() >= 1e9 || step < 1e-6 {
        return value(x);
    }
    let decimals = (-step.log10().floor()).clamp(0.0, 8.0) as usize;
    trim_zeros(format!("{x:.decimals$}"))
}

/// A rough width in px of `s` in a sans-serif font of `size` px (generous, for layout).
pub(super) fn width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_everything_special() {
        assert_eq!(escape("<a&b\"c'd>"), "&lt;a&amp;b&quot;c&apos;d&gt;");
        assert_eq!(escape("x\u{1}y"), "x\u{FFFD}y");
    }

    #[test]
    fn numbers() {
        assert_eq!(px(f64::NAN), "0");
        assert_eq!(px(-0.01), "0");
        assert_eq!(px(12.26), "12.3");
        assert_eq!(value(0.5), "0.5");
        assert_eq!(value(-1234.5678), "-1235");
        assert_eq!(value(f64::INFINITY), "n/a");
        assert_eq!(value(1.5e-7), "1.5e-7");
        assert_eq!(value(-2e30), "-2e30");
        assert_eq!(tick(0.30000000000000004, 0.1), "0.3");
        assert_eq!(tick(-0.0, 1.0), "0");
        assert_eq!(truncate("abcdef", 4), "abc\u{2026}");
    }
}
