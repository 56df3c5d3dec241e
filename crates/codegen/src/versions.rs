//! Version ranges as the spec language writes them: `"3"`, `"0-2"`, `"4+"`, `"none"`.

use crate::SpecError;

/// An inclusive range of versions; empty when `min > max` (the spec's `"none"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Versions {
    /// The lowest version in the range.
    pub min: i16,
    /// The highest version in the range (`i16::MAX` for an open range such as `"4+"`).
    pub max: i16,
}

impl Versions {
    /// The empty range.
    pub const NONE: Versions = Versions { min: 1, max: 0 };
    /// Every version.
    pub const ALL: Versions = Versions {
        min: 0,
        max: i16::MAX,
    };

    /// Parses the spec syntax.
    pub fn parse(s: &str) -> Result<Versions, SpecError> {
        let s = s.trim();
        let bad = || SpecError::Invalid(format!("bad version range {s:?}"));
        if s == "none" {
            return Ok(Versions::NONE);
        }
        if let Some(start) = s.strip_suffix('+') {
            let min = start.parse().map_err(|_| bad())?;
            return Ok(Versions { min, max: i16::MAX });
        }
        if let Some((a, b)) = s.split_once('-') {
            let min = a.parse().map_err(|_| bad())?;
            let max = b.parse().map_err(|_| bad())?;
            return Ok(Versions { min, max });
        }
        let v = s.parse().map_err(|_| bad())?;
        Ok(Versions { min: v, max: v })
    }

    /// True when the range holds no version.
    pub fn is_empty(&self) -> bool {
        self.min > self.max
    }

    /// True when `v` lies in the range.
    pub fn contains(&self, v: i16) -> bool {
        v >= self.min && v <= self.max
    }

    /// The intersection of two ranges.
    pub fn intersect(&self, other: &Versions) -> Versions {
        Versions {
            min: self.min.max(other.min),
            max: self.max.min(other.max),
        }
    }

    /// True when every version of `within` is in this range.
    pub fn covers(&self, within: &Versions) -> bool {
        within.is_empty() || (self.min <= within.min && self.max >= within.max)
    }

    /// A Rust boolean expression testing `var` against this range, simplified against the
    /// versions the enclosing message can take (`valid`).
    pub fn rust_test(&self, var: &str, valid: &Versions) -> String {
        let r = self.intersect(valid);
        if r.is_empty() {
            return "false".to_string();
        }
        let lo = r.min > valid.min;
        let hi = r.max < valid.max;
        match (lo, hi) {
            (false, false) => "true".to_string(),
            (true, false) => format!("{var} >= {}", r.min),
            (false, true) => format!("{var} <= {}", r.max),
            (true, true) if r.min == r.max => format!("{var} == {}", r.min),
            (true, true) => format!("({var} >= {} && {var} <= {})", r.min, r.max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(Versions::parse("3").unwrap(), Versions { min: 3, max: 3 });
        assert_eq!(Versions::parse("0-2").unwrap(), Versions { min: 0, max: 2 });
        assert_eq!(
            Versions::parse("4+").unwrap(),
            Versions {
                min: 4,
                max: i16::MAX
            }
        );
        assert!(Versions::parse("none").unwrap().is_empty());
        assert!(Versions::parse("x").is_err());
    }

    #[test]
    fn rust_test_simplifies_against_valid_range() {
        let valid = Versions { min: 0, max: 5 };
        assert_eq!(
            Versions::parse("0+").unwrap().rust_test("v", &valid),
            "true"
        );
        assert_eq!(
            Versions::parse("3+").unwrap().rust_test("v", &valid),
            "v >= 3"
        );
        assert_eq!(
            Versions::parse("0-2").unwrap().rust_test("v", &valid),
            "v <= 2"
        );
        assert_eq!(
            Versions::parse("2-3").unwrap().rust_test("v", &valid),
            "(v >= 2 && v <= 3)"
        );
        assert_eq!(
            Versions::parse("9+").unwrap().rust_test("v", &valid),
            "false"
        );
    }
}
